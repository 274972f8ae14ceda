import { parseNetwork } from '../../domain/networks.js';
import type { Quote, QuoteRequest } from '../../domain/types.js';
import { RampValidationError } from '../errors.js';
import { quoteData, unwrap } from '../schemas.js';
import { type RampContext, read } from './context.js';

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * POST fx-quotes / svc-quotes. The current generation sends `fiatAmount` for an off-ramp that has
 * one, `amount` otherwise; the legacy generation knows only `amount`.
 */
export async function fetchQuote(ctx: RampContext, req: QuoteRequest): Promise<Quote> {
  const useFiat = ctx.generation === 'current' && req.type === 'offramp' && req.fiatAmount !== undefined;
  const amount = useFiat ? undefined : req.amount;
  if (!useFiat && amount === undefined) {
    throw new RampValidationError(
      req.type === 'onramp'
        ? 'An on-ramp quote needs `amount` (KES).'
        : ctx.generation === 'legacy'
          ? 'The legacy ramp quotes an off-ramp by token `amount` only; it has no `fiatAmount`.'
          : 'An off-ramp quote needs `amount` (tokens) or `fiatAmount` (KES).',
    );
  }
  const body = await ctx.send({
    method: 'POST',
    path: ctx.paths.quote,
    endpoint: 'quote',
    retry: 'idempotent',
    body: {
      type: req.type,
      ...(useFiat ? { fiatAmount: req.fiatAmount } : { amount }),
      fiatCurrency: req.fiatCurrency,
      cryptoCurrency: req.token,
      network: req.network,
      ...(req.category ? { category: req.category } : {}),
    },
  });
  return toQuote(read(quoteData, unwrap(body), 'quote'), req);
}

/** Maps any quote shape (current, legacy, June 2025) to the domain quote. */
export function toQuote(d: ReturnType<typeof quoteData.parse>, req: QuoteRequest): Quote {
  const type = d.type === 'onramp' || d.type === 'offramp' ? d.type : req.type;
  const rate = d.exchangeRate;
  const f = d.fee;
  const feeKes =
    f?.feeInKES ??
    f?.details?.feeInKES ??
    (type === 'offramp' ? f?.feeInOutputCurrency : undefined) ??
    ((f?.amount ?? f?.feeInInputCurrency) ? round2(Number(f?.amount ?? f?.feeInInputCurrency) * rate) : 0);
  const feeTokens = f?.amount ?? f?.feeInInputCurrency ?? (rate > 0 ? (feeKes / rate).toFixed(6) : '0');
  return {
    type,
    network: parseNetwork(d.network ?? '') ?? req.network,
    inputAmount: d.inputAmount,
    inputCurrency: d.inputCurrency ?? (type === 'onramp' ? 'KES' : req.token),
    outputAmount: d.outputAmount,
    outputCurrency: d.outputCurrency ?? (type === 'onramp' ? req.token : 'KES'),
    exchangeRate: rate,
    fee: {
      amount: feeTokens,
      currency: f?.currency ?? (type === 'onramp' ? req.token : undefined),
      kes: feeKes,
    },
    estimatedOutputKes: f?.estimatedOutputKES ?? f?.details?.estimatedOutputKES,
    limits: d.limits
      ? { min: d.limits.min, max: d.limits.max, currency: d.limits.currency ?? 'KES' }
      : undefined,
    receivedAt: new Date().toISOString(),
  };
}
