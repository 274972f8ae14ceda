/** What an escrow deposit is checked against, and the verdicts (see verify.ts). */
import type { Address, Hex } from 'viem';
import type { EscrowCallVariant } from './calls.js';

export type VerifyRefusal =
  | 'wrong_chain'
  | 'not_found'
  | 'reverted'
  | 'not_confirmed'
  | 'wrong_escrow'
  | 'wrong_token'
  | 'wrong_amount'
  | 'wrong_sender'
  | 'wrong_fee'
  | 'missing_tag'
  | 'foreign_tag'
  | 'outside_window'
  | 'wrong_call';

/** Refusals worth asking again later (the same hash may pass once mined deeper). */
export const RETRYABLE_REFUSALS: readonly VerifyRefusal[] = ['not_confirmed', 'not_found'];

export interface ExpectedEscrowDeposit {
  chainId: number;
  escrow: Address;
  /** Token contract; the zero address for the native coin. */
  token: Address;
  /** The wallet bound to the order; undefined when unknown (the result then names the sender). */
  from?: Address;
  /** Base units, including the fee. */
  total: bigint;
  /** Base units. */
  fee: bigint;
  /** The order's sell tag (see newSellTag). */
  tag: Hex;
  /** The deposit calls the network is configured for (the page sends only these); others are refused. */
  variants?: readonly EscrowCallVariant[];
  /** The exchange-rate argument the order bound (legacy and permit calls); another value is refused. */
  exchangeRate?: bigint;
  /** Unix seconds: the block must not be older (order creation). */
  notBefore: number;
  /** Unix seconds: the block must not be newer; undefined = no upper bound. */
  notAfter?: number;
  /** Blocks including the transaction's own (1 = mined). */
  confirmations: number;
}

export type EscrowVerification =
  | {
      ok: true;
      from: Address;
      blockNumber: bigint;
      /** Unix seconds. */
      blockTimestamp: number;
      variant: EscrowCallVariant;
      /** Escrow deposit nonce from the `Deposited` event, when the escrow emits one we know. */
      nonce?: bigint;
    }
  | {
      ok: false;
      reason: VerifyRefusal;
      /** English, for logs and support tickets; not for users. */
      detail: string;
      /** The transaction's sender when it was read. */
      from?: Address;
    };

/** A refusal found by one check. */
export type Refused = { reason: VerifyRefusal; detail: string };

/** The refusal verdict, naming the sender when it was read. */
export const refuse = (reason: VerifyRefusal, detail: string, from?: Address): EscrowVerification => ({
  ok: false,
  reason,
  detail,
  ...(from ? { from } : {}),
});
