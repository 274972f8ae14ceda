/**
 * The ramp's refusal messages (reference §3, and the sandbox's own) read as codes, so a user is told
 * in their language what went wrong, never the service's English. An unknown message has no code.
 */

/** How a ramp call failed, as every caller switches on it (the ramp client's `RampError.kind`). */
export type RampErrorKind =
  | 'unauthorized'
  | 'validation'
  | 'duplicate'
  | 'not_found'
  | 'server'
  | 'timeout'
  | 'network';

/** What a refusal means for the user (each has a text `core-refused-<code>`, dashes for underscores). */
export const RAMP_REFUSAL_CODES = [
  'amount_out_of_range',
  'unsupported_network',
  'unsupported_token',
  'unsupported_currency',
  'stk_failed',
  'order_not_recorded',
  'already_processed',
  'payment_pending',
  'payment_failed',
  'no_failed_order',
  'missing_details',
] as const;
export type RampRefusalCode = (typeof RAMP_REFUSAL_CODES)[number];

/** The message id of a refusal code. */
export const refusalCodeTextId = (code: string): string => `core-refused-${code.replace(/_/g, '-')}`;

export interface RampRefusal {
  code: RampRefusalCode;
  /** amount_out_of_range: the range the service named, in KES. */
  range?: { min: number; max: number };
}

const RULES: Array<[RegExp, RampRefusalCode]> = [
  [/amount out of range|amount must be between/i, 'amount_out_of_range'],
  [
    /invalid network|unsupported network|unsupported blockchain|invalid chain|chain is not supported/i,
    'unsupported_network',
  ],
  [/invalid token|unsupported token/i, 'unsupported_token'],
  [/invalid currency|unsupported fiat currency/i, 'unsupported_currency'],
  [/stk push (payment )?is being processed/i, 'payment_pending'],
  [/failed to initiate stk push|error occurred during the stk push/i, 'stk_failed'],
  [/failed to record the onramp/i, 'order_not_recorded'],
  [/already been processed/i, 'already_processed'],
  [/payment failed/i, 'payment_failed'],
  [/no failed (or pending )?transaction found/i, 'no_failed_order'],
  [/missing required|is required|provide all required|validation ?(failed|error)/i, 'missing_details'],
];

/** The code of a refusal message (and the range it names), or undefined for one we do not know. */
export function readRampRefusal(message: string | undefined): RampRefusal | undefined {
  if (!message) return undefined;
  const rule = RULES.find(([pattern]) => pattern.test(message));
  if (!rule) return undefined;
  const code = rule[1];
  if (code !== 'amount_out_of_range') return { code };
  const m = /between\s+([\d,.]+)\s+and\s+([\d,.]+)/i.exec(message);
  const min = m ? Number(m[1]!.replace(/,/g, '')) : Number.NaN;
  const max = m ? Number(m[2]!.replace(/,/g, '')) : Number.NaN;
  return Number.isFinite(min) && Number.isFinite(max) ? { code, range: { min, max } } : { code };
}
