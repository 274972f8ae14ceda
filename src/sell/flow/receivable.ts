/**
 * The sell limits as the seller meets them. The ramp's limits (KES 10 to 30,000) bound the gross KES
 * value of a sale, fee included; the seller types what they receive, so the range they are told and
 * checked against is what they can receive, with the M-Pesa fee apart: KES 9 to 29,984 for 10 to
 * 30,000 (B2C fee 1 at the bottom, 16 at the top). Pure.
 */
import { feeKes, grossForPayout } from '../../domain/mpesa-fees.js';

export interface Receivable {
  /** Whole KES the seller can receive per sale. */
  min: number;
  max: number;
  /** The fee at the top of the range, taken on top of what is received. */
  topFee: number;
}

/** What a seller can receive within the ramp's gross limits. */
export function receivable(limits: { min: number; max: number }): Receivable {
  let max = Math.floor(limits.max - feeKes(limits.max));
  while (max > 0 && grossForPayout(max) > limits.max) max -= 1;
  let min = Math.max(1, Math.ceil(limits.min - feeKes(limits.min)));
  while (grossForPayout(min) < limits.min) min += 1;
  return { min, max, topFee: Math.round(grossForPayout(max) - max) };
}
