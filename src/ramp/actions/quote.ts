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
    if (req.type === 'offramp' && req.fiatAmount !== undefined)
      return quoteLegacyByFiat(ctx, req, req.fiatAmount);
    throw new RampValidationError(
      req.type === 'onramp'
        ? 'An on-ramp quote needs `amount` (KES).'
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

/**
 * The legacy generation has no `fiatAmount`: find the token amount whose quote pays `fiatAmount`
 * KES after the fee, as the current generation answers it (reference §4: the smallest 6-decimal
 * amount T with T × rate − fee ≥ fiat). A probe quote gives the rate; then T = ceil((fiat + fee) /
 * rate) at 6 decimals, with the fee the last quote named (none at first), until a quote of T pays
 * `fiatAmount` with the fee it was computed with (the fee changes when the gross crosses a band).
 */
async function quoteLegacyByFiat(ctx: RampContext, req: QuoteRequest, fiatAmount: string): Promise<Quote> {
  const fiat = Number(fiatAmount);
  if (!Number.isFinite(fiat) || fiat <= 0) {
    throw new RampValidationError(`fiatAmount must be a positive number, got "${fiatAmount}".`);
  }
  const byTokens = (tokens: number) =>
    fetchQuote(ctx, { ...req, fiatAmount: undefined, amount: tokens.toFixed(6) });
  // The same rounding as the sandbox's `tokensForFiat` (a float product a hair over a whole micro-unit is that unit).
  const up6 = (n: number) => Math.ceil(n * 1e6 - 1e-6) / 1e6;
  // A probe amount may fall outside the limits (1 cKES is 1 KES, 1 ETH is too much): try others.
  let rate: number | undefined;
  let lastRefusal: unknown;
  for (const probe of [1, fiat, 0.0001, 0.01]) {
    try {
      rate = (await byTokens(probe)).exchangeRate;
      break;
    } catch (e) {
      if (!(e instanceof RampValidationError) || e.supportedNetworks) throw e;
      lastRefusal = e;
    }
  }
  if (rate === undefined || rate <= 0) throw lastRefusal;
  let feeKes = 0;
  let quote = await byTokens(up6(fiat / rate));
  for (let i = 0; i < 6; i++) {
    const pays = quote.estimatedOutputKes ?? Number(quote.outputAmount) - quote.fee.kes;
    if (pays >= fiat && quote.fee.kes === feeKes) break;
    feeKes = quote.fee.kes;
    rate = quote.exchangeRate;
    quote = await byTokens(up6((fiat + feeKes) / rate));
  }
  return quote;
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
