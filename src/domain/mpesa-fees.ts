/**
 * The ramp's M-Pesa fee bands (reference §4): KES by the band of a KES amount (floored to whole
 * shillings, so 49.5 falls in 1–49), B2C (to a phone) or B2B. The sandbox charges them; the sell form
 * uses them to state its limits as the seller meets them (what they receive, the fee apart).
 */
import type { FeeCategory } from './types.js';

/** [upper bound KES inclusive, B2C fee, B2B fee] */
export const MPESA_FEE_BANDS: readonly [number, number, number][] = [
  [49, 1, 3],
  [100, 1, 4],
  [500, 6, 9],
  [1000, 6, 14],
  [1500, 6, 19],
  [2500, 11, 27],
  [3500, 11, 32],
  [5000, 11, 41],
  [7500, 13, 50],
  [10000, 13, 56],
  [15000, 13, 65],
  [20000, 13, 70],
  [25000, 16, 77],
  [30000, 16, 82],
  [35000, 16, 93],
  [40000, 16, 109],
  [45000, 16, 113],
  [50000, 16, 118],
  [70000, 16, 118],
  [50_000_000, 16, 118],
];

/** The fee in KES for an amount in KES. */
export function feeKes(kes: number, category: FeeCategory = 'B2C'): number {
  const k = Math.floor(kes);
  const band = MPESA_FEE_BANDS.find(([max]) => k <= max) ?? MPESA_FEE_BANDS[MPESA_FEE_BANDS.length - 1]!;
  return category === 'B2B' ? band[2] : band[1];
}

/** The gross KES of a payout of `fiatKes` after the fee: the first band whose range holds it. */
export function grossForPayout(fiatKes: number, category: FeeCategory = 'B2C'): number {
  for (const [max, b2c, b2b] of MPESA_FEE_BANDS) {
    const gross = fiatKes + (category === 'B2B' ? b2b : b2c);
    if (Math.floor(gross) <= max) return gross;
  }
  return fiatKes + feeKes(fiatKes, category);
}
