/**
 * POST fx-quotes and <brand>-quotes. The current path answers the current body (reference §2.1).
 * The legacy path answers every body generation its clients were written against, at once: the
 * oldest (the spec's table: `fee.amount` as a number and `fee.details`), and the one it has shared
 * with the current path since mid-2025 (`fee.feeInInputCurrency`/`feeInOutputCurrency` or
 * `fee.feeInKES`, `limits`, off-ramp `outputAmount` as 4-decimal text).
 */
import * as z from 'zod';
import { parseNetwork } from '../domain/networks.js';
import type { FeeCategory, Network } from '../domain/types.js';
import {
  CURRENT_NETWORKS,
  CURRENT_NETWORKS_TEXT,
  kesRate,
  LEGACY_NETWORKS,
  LEGACY_NETWORKS_TEXT,
  type SandboxToken,
} from './catalog.js';
import { OFFRAMP_LIMITS, ONRAMP_LIMITS, offrampFigures, onrampFigures, tokensForFiat } from './fees.js';
import {
  amountLike,
  amountText,
  type Handler,
  type HandlerEnv,
  invalid,
  issuesText,
  ok,
  optional,
  type Reply,
  tokensOf,
} from './kit.js';

const quoteBody = z.object({
  type: z.preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), z.enum(['onramp', 'offramp'])),
  amount: optional(amountText),
  fiatAmount: optional(amountLike),
  fiatCurrency: z.string().trim().min(1),
  cryptoCurrency: z.string().trim().min(1),
  network: z.string().trim().min(1),
  category: optional(
    z.preprocess((v) => (typeof v === 'string' ? v.trim().toUpperCase() : v), z.enum(['B2C', 'B2B'])),
  ),
});

export const quote: Handler = (env, req) => {
  const parsed = quoteBody.safeParse(req.body);
  if (!parsed.success) return invalid('Validation failed', issuesText(parsed.error));
  const b = parsed.data;
  const supported = req.generation === 'legacy' ? LEGACY_NETWORKS : CURRENT_NETWORKS;
  const network = parseNetwork(b.network);
  if (!network || !supported.includes(network)) {
    const list = req.generation === 'legacy' ? LEGACY_NETWORKS_TEXT : CURRENT_NETWORKS_TEXT;
    return invalid('Invalid network', `Unsupported network. Supported networks: ${list}`);
  }
  if (b.fiatCurrency.toUpperCase() !== 'KES') {
    return invalid('Invalid currency', `Unsupported fiat currency: ${b.fiatCurrency}. Supported: KES`); // text undocumented
  }
  const candidates = tokensOf(env, network);
  const token = candidates.find((t) => t.symbol.toLowerCase() === b.cryptoCurrency.toLowerCase());
  if (!token) {
    const list = [...new Set(candidates.map((t) => t.symbol))].join(', ');
    return invalid(
      'Invalid token',
      `Unsupported token ${b.cryptoCurrency} on ${network}. Supported tokens: ${list}`,
    ); // undocumented
  }
  const quoting: Quoting = {
    env,
    network,
    token,
    category: b.category ?? 'B2C',
    rate: kesRate(token, env.kesPerUsd),
    legacy: req.generation === 'legacy',
  };
  return b.type === 'onramp' ? onrampQuote(quoting, b) : offrampQuote(quoting, b);
};

type QuoteBody = z.infer<typeof quoteBody>;

/** What both directions price with: the request's network and token, its rate and fee category. */
interface Quoting {
  env: HandlerEnv;
  network: Network;
  token: SandboxToken;
  category: FeeCategory;
  rate: number;
  legacy: boolean;
}

/** KES in, tokens out: `amount` is KES, within the on-ramp limits. */
function onrampQuote({ network, token, category, rate, legacy }: Quoting, b: QuoteBody): Reply {
  if (b.amount === undefined) return invalid('Validation failed', 'amount is required for onramp quotes');
  const kes = Number(b.amount);
  const l = ONRAMP_LIMITS;
  if (kes < l.min || kes > l.max) {
    return invalid(
      'Amount out of range',
      `Amount must be between ${l.min} and ${l.max} KES (got ${kes} KES)`,
    );
  }
  const f = onrampFigures(kes, rate, category);
  const fee = { feeInKES: f.feeKes, estimatedOutputKES: f.estimatedOutputKes };
  return quoted({
    inputAmount: String(kes),
    outputAmount: f.outputAmount,
    inputCurrency: 'KES',
    outputCurrency: token.symbol,
    exchangeRate: rate,
    type: 'onramp',
    network,
    fee: legacy
      ? { ...oldestFee(f.feeKes / rate, token.symbol, f.feeKes, f.estimatedOutputKes), ...fee }
      : fee,
    limits: l,
  });
}

/** Tokens in, KES out: `amount` is tokens, or (current path) `fiatAmount` the KES wanted. */
function offrampQuote({ env, network, token, category, rate, legacy }: Quoting, b: QuoteBody): Reply {
  let tokensText: string;
  if (b.fiatAmount !== undefined && !legacy) tokensText = tokensForFiat(b.fiatAmount, rate, category);
  else if (b.amount !== undefined) tokensText = b.amount;
  else
    return invalid('Validation failed', 'amount (tokens) or fiatAmount (KES) is required for offramp quotes');
  const tokens = Number(tokensText);
  const f = offrampFigures(tokens, rate, category);
  const l = OFFRAMP_LIMITS;
  const grossCents = Math.round(f.grossKes * 100) / 100;
  if (grossCents < l.min || grossCents > l.max) {
    return invalid(
      'Amount out of range',
      `Amount must be between ${l.min} and ${l.max} KES (got ${f.grossKes.toFixed(2)} KES)`,
    );
  }
  env.state.lastOfframpQuote.set(`${network}:${token.symbol}`, tokens);
  const fee = {
    feeInInputCurrency: f.feeTokens,
    currency: token.symbol,
    feeInOutputCurrency: f.feeKes,
    estimatedOutputKES: f.estimatedOutputKes,
    decimals: token.decimals,
  };
  return quoted({
    inputAmount: tokensText,
    outputAmount: f.outputAmount,
    inputCurrency: token.symbol,
    outputCurrency: 'KES',
    exchangeRate: rate,
    type: 'offramp',
    network,
    // The current `fee.amount` is text (June 2025, read by the spec's client); the oldest a number.
    fee: legacy
      ? { ...oldestFee(Number(f.feeTokens), token.symbol, f.feeKes, f.estimatedOutputKes), ...fee }
      : { amount: f.feeTokens, ...fee },
    limits: l,
  });
}

const quoted = (data: object) => ok({ statusCode: 200, message: 'Quote retrieved successfully', data });

/** The oldest legacy fee: the fee in tokens as a number, the KES figures under `details`. */
const oldestFee = (tokens: number, symbol: string, feeKes: number, estimatedOutputKes: number) => ({
  amount: tokens,
  currency: symbol,
  details: { feeInKES: feeKes, estimatedOutputKES: estimatedOutputKes },
});
