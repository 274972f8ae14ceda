/**
 * Fees and quote arithmetic (reference §4). The fee is KES from the M-Pesa B2C or B2B band of the
 * KES amount (floored to whole shillings, so 49.5 falls in 1–49), converted at the quote rate.
 *
 * - On-ramp adds the fee on top: `outputAmount = amount * (1/rate)` (unrounded, crypto not reduced),
 *   `estimatedOutputKES = amount + feeKES`.
 * - Off-ramp by tokens deducts it: `gross = tokens * rate` (`outputAmount`, 4 dp text),
 *   `feeKES = band(gross)`, `feeInInputCurrency = feeKES / rate` (6 dp text),
 *   `estimatedOutputKES = gross - feeKES` (2 dp).
 * - Off-ramp by `fiatAmount` F (KES the user receives): the smallest gross G with
 *   `G - band(G) = F`, so `G = F + fee` for the first band whose range holds floor(F + fee);
 *   tokens = G / rate rounded UP to 6 dp (never short of F), then priced forward as above, so the
 *   answer is the same as quoting those tokens.
 */
import { feeKes, grossForPayout } from '../domain/mpesa-fees.js';
import type { FeeCategory } from '../domain/types.js';

export { feeKes } from '../domain/mpesa-fees.js';

export const ONRAMP_LIMITS = { min: 1, max: 10_000, currency: 'KES' } as const;
export const OFFRAMP_LIMITS = { min: 10, max: 30_000, currency: 'KES' } as const;

const round2 = (n: number) => Math.round(n * 100) / 100;

export interface OnrampFigures {
  amountKes: number;
  feeKes: number;
  outputAmount: number;
  estimatedOutputKes: number;
}

export function onrampFigures(amountKes: number, rate: number, category: FeeCategory = 'B2C'): OnrampFigures {
  const fee = feeKes(amountKes, category);
  return {
    amountKes,
    feeKes: fee,
    outputAmount: amountKes * (1 / rate),
    estimatedOutputKes: amountKes + fee,
  };
}

export interface OfframpFigures {
  tokens: number;
  grossKes: number;
  feeKes: number;
  /** 6 dp text */
  feeTokens: string;
  /** 4 dp text */
  outputAmount: string;
  estimatedOutputKes: number;
}

export function offrampFigures(tokens: number, rate: number, category: FeeCategory = 'B2C'): OfframpFigures {
  const grossKes = tokens * rate;
  const fee = feeKes(grossKes, category);
  return {
    tokens,
    grossKes,
    feeKes: fee,
    feeTokens: (fee / rate).toFixed(6),
    outputAmount: grossKes.toFixed(4),
    estimatedOutputKes: round2(grossKes - fee),
  };
}

/** Tokens (6 dp text) whose off-ramp pays `fiatKes` after the fee. */
export function tokensForFiat(fiatKes: number, rate: number, category: FeeCategory = 'B2C'): string {
  const gross = grossForPayout(fiatKes, category);
  const micro = Math.ceil((gross / rate) * 1e6 - 1e-6);
  return (micro / 1e6).toFixed(6);
}
