/**
 * Why a reported sell transaction was refused, in the words the user sees (one text each in
 * locales/<lang>/sell.ftl as `sell-refused-<reason>`), and how chain verdicts map onto them. Pure.
 */

export const SELL_REFUSALS = [
  'not_found',
  'wrong_network',
  'reverted',
  'not_to_us',
  'wrong_token',
  'wrong_amount',
  'wrong_sender',
  'not_this_order',
  'too_old',
  'reused',
  'intent_used',
  'expired',
  'ramp_refused',
  'too_many',
  'too_many_page',
  'malformed_evm',
  'malformed_algorand',
  'no_sale',
  'unknown',
] as const;
export type SellRefusal = (typeof SELL_REFUSALS)[number];

/** The message id of a refusal; an unknown reason reads as `unknown`. */
export function refusalTextId(reason: string): string {
  const known = (SELL_REFUSALS as readonly string[]).includes(reason) ? reason : 'unknown';
  return `sell-refused-${known.replace(/_/g, '-')}`;
}

/** EVM verifier refusals (src/chains/evm verify) and Algorand payment refusals, as user reasons. */
const CHAIN_REFUSALS: Record<string, SellRefusal> = {
  wrong_chain: 'wrong_network',
  not_found: 'not_found',
  invalid_id: 'not_found',
  reverted: 'reverted',
  wrong_escrow: 'not_to_us',
  wrong_receiver: 'not_to_us',
  wrong_type: 'not_to_us',
  inner_transfer: 'not_to_us',
  clawback: 'not_to_us',
  wrong_token: 'wrong_token',
  wrong_asset: 'wrong_token',
  wrong_amount: 'wrong_amount',
  wrong_fee: 'wrong_amount',
  wrong_call: 'wrong_amount',
  close_out: 'wrong_amount',
  wrong_sender: 'wrong_sender',
  missing_tag: 'not_this_order',
  foreign_tag: 'not_this_order',
  wrong_note: 'not_this_order',
  outside_window: 'too_old',
  too_early: 'too_old',
};

export function userRefusal(chainReason: string): SellRefusal {
  return CHAIN_REFUSALS[chainReason] ?? 'unknown';
}
