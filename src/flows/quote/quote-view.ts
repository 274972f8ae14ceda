/** How a quote reads in chat: rate, fee in KES and in tokens, what is paid and received, limits. */

import type { Locale, Text } from '../../chat/types.js';
import { roundDecimal } from '../../domain/decimal.js';
import type { Quote } from '../../domain/types.js';
import { formatKes, formatToken } from '../../i18n/format.js';
import { text } from '../flow.js';

/** The fee in tokens: the quote's own figure, or the KES fee at the quote's rate (6 dp). */
export function feeInTokens(quote: Quote): string {
  if (/[1-9]/.test(quote.fee.amount)) return quote.fee.amount;
  return roundDecimal(quote.fee.kes / quote.exchangeRate, 6) ?? '0';
}

/**
 * A sell quote as shown and bound (reference §2.1/§4: the ramp deducts its fee from the gross KES of
 * the tokens it quotes). `send` is the quote's `inputAmount`, fee included: what the seller is asked
 * to send, the escrow deposit's amount and the Algorand transfer; `feeTokens`/`feeKes` the ramp's fee
 * (the escrow's fee argument); `receiveKes` the KES paid out. At the quote's rate,
 * `send × rate = receiveKes + feeKes` up to the rounding of the ramp's figures.
 */
export function sellFigures(quote: Quote): {
  send: string;
  feeTokens: string;
  feeKes: number;
  receiveKes: number;
} {
  return {
    send: quote.inputAmount,
    feeTokens: feeInTokens(quote),
    feeKes: quote.fee.kes,
    receiveKes:
      quote.estimatedOutputKes ?? Math.round((Number(quote.outputAmount) - quote.fee.kes) * 100) / 100,
  };
}

/** On-ramp: KES charged, the amount plus the fee unless the quote says otherwise. */
export function onrampTotalKes(quote: Quote): number {
  return quote.estimatedOutputKes ?? Number(quote.inputAmount) + quote.fee.kes;
}

/**
 * The KES limits the ramp applies (buy 1–10,000, sell 10–30,000, as seen on the service), used to
 * refuse an amount at the step where it is typed; a quote's own limits replace them once known.
 */
export const KNOWN_LIMITS: Record<Quote['type'], { min: number; max: number; currency: string }> = {
  onramp: { min: 1, max: 10_000, currency: 'KES' },
  offramp: { min: 10, max: 30_000, currency: 'KES' },
};

/** A refusal of a typed KES amount outside `limits` (the user's own figure), or undefined when inside. */
export function amountOutside(
  textId: string,
  amountKes: number,
  limits: { min: number; max: number },
): Text | undefined {
  if (amountKes >= limits.min && amountKes <= limits.max) return undefined;
  return text(textId, { amount: amountKes, min: limits.min, max: limits.max });
}

/** True when a KES amount is inside the quote's limits (or the quote has none). */
export function withinLimits(quote: Quote, amountKes: number): boolean {
  const limits = quote.limits;
  return !limits || (amountKes >= limits.min && amountKes <= limits.max);
}

/** The KES value a quote's limits apply to: on-ramp the KES paid, off-ramp the gross KES. */
export function kesValue(quote: Quote): number {
  return quote.type === 'onramp' ? Number(quote.inputAmount) : Number(quote.outputAmount);
}

export function limitsText(locale: Locale, limits: NonNullable<Quote['limits']>): Text {
  return text('quote-limits', { min: formatKes(locale, limits.min), max: formatKes(locale, limits.max) });
}

/** The paragraphs that describe a quote for `symbol`. */
export function quoteTexts(locale: Locale, quote: Quote, symbol: string): Text[] {
  // One precision of tokens per screen: a sale shows every digit of what moves (the ramp's text),
  // so the fee beside it is shown to as many decimals, not more ("15.6139" next to "0.0464", never
  // next to "7.814672"); a buy shows its "about" figures to at most 6.
  const moving = quote.type === 'offramp' ? sellFigures(quote).send : undefined;
  const places = moving === undefined ? 6 : Math.max(2, moving.split('.')[1]?.length ?? 0);
  const out: Text[] = [
    text('quote-rate', { token: symbol, rate: formatKes(locale, quote.exchangeRate) }),
    text('quote-fee', {
      feeKes: formatKes(locale, quote.fee.kes),
      feeToken: formatToken(locale, feeInTokens(quote), symbol, places),
    }),
  ];
  if (quote.type === 'onramp') {
    out.push(text('quote-pay-kes', { amount: formatKes(locale, onrampTotalKes(quote)) }));
    out.push(text('quote-receive-token', { amount: formatToken(locale, quote.outputAmount, symbol) }));
  } else {
    const figures = sellFigures(quote);
    // Every digit the ramp quoted: the seller sends exactly this.
    out.push(text('quote-pay-token', { amount: formatToken(locale, figures.send, symbol, 18) }));
    out.push(text('quote-receive-kes', { amount: formatKes(locale, figures.receiveKes) }));
  }
  if (quote.limits) out.push(limitsText(locale, quote.limits));
  return out;
}

/** Percentage the rate moved between two quotes. */
export function rateMovePct(before: Quote, after: Quote): number {
  return (Math.abs(after.exchangeRate - before.exchangeRate) / before.exchangeRate) * 100;
}
