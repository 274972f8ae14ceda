/**
 * What the receipt's logs must show: the token contract itself moving exactly the total from the
 * bound wallet into the escrow, and (when the escrow emits one) its `Deposited` event for it.
 */
import { type Address, decodeEventLog, isAddressEqual, type Log, toEventSelector, zeroAddress } from 'viem';
import { depositedV1Event, depositedV2Event, transferEvent } from './abi.js';
import type { Refused } from './verify-types.js';

const TRANSFER_TOPIC = toEventSelector(transferEvent);
const DEPOSITED_TOPICS = new Set([toEventSelector(depositedV1Event), toEventSelector(depositedV2Event)]);

/**
 * Checks that the logs show ERC-20 Transfers emitted by the token contract itself moving exactly
 * `total` from `from` to the escrow. Transfers emitted by any other contract never count. Returns the
 * refusal, or undefined when they do (or when the token is the native coin, which has no logs).
 */
export function checkTokenTransfers(
  logs: readonly Log[],
  expected: { token: Address; escrow: Address; from: Address; total: bigint },
): Refused | undefined {
  if (isAddressEqual(expected.token, zeroAddress)) return undefined;
  const intoEscrow = logs
    .filter(
      (l) =>
        isAddressEqual(l.address, expected.token) && l.topics[0] === TRANSFER_TOPIC && l.topics.length === 3,
    )
    .map((l) => decodeEventLog({ abi: [transferEvent], data: l.data, topics: l.topics }).args)
    .filter((t) => isAddressEqual(t.to, expected.escrow));
  if (intoEscrow.length === 0) {
    return { reason: 'wrong_token', detail: `no Transfer of token ${expected.token} into the escrow` };
  }
  const fromWallet = intoEscrow.filter((t) => isAddressEqual(t.from, expected.from));
  if (fromWallet.length === 0) {
    return {
      reason: 'wrong_sender',
      detail: `tokens reached the escrow from ${intoEscrow[0]!.from}, not ${expected.from}`,
    };
  }
  const moved = fromWallet.reduce((sum, t) => sum + t.value, 0n);
  if (moved !== expected.total) {
    return {
      reason: 'wrong_amount',
      detail: `Transfer moved ${moved} base units, expected ${expected.total}`,
    };
  }
  return undefined;
}

/**
 * Finds the escrow's `Deposited` event (v1 or v2 shape) for this deposit and returns its nonce. An
 * escrow that emits Deposited events none of which matches the deposit is refused; an escrow that
 * emits none (or another shape) just yields no nonce.
 */
export function findDeposited(
  logs: readonly Log[],
  expected: { escrow: Address; token: Address; from: Address; total: bigint; fee: bigint },
): { nonce?: bigint } | Refused {
  const events = logs
    .filter((l) => isAddressEqual(l.address, expected.escrow) && DEPOSITED_TOPICS.has(l.topics[0] ?? '0x'))
    .flatMap((l) => {
      for (const event of [depositedV1Event, depositedV2Event]) {
        try {
          const { args } = decodeEventLog({ abi: [event], data: l.data, topics: l.topics, strict: true });
          return [{ ...args, feeAmount: 'feeAmount' in args ? args.feeAmount : undefined }];
        } catch {
          // Not this shape; try the next.
        }
      }
      return [];
    });
  if (events.length === 0) return {};
  const mine = events.find(
    (e) =>
      isAddressEqual(e.user, expected.from) &&
      isAddressEqual(e.token, expected.token) &&
      e.amount === expected.total,
  );
  if (!mine)
    return {
      reason: 'wrong_amount',
      detail: 'the escrow recorded no deposit of this token amount from this wallet',
    };
  if (mine.feeAmount !== undefined && mine.feeAmount !== expected.fee) {
    return {
      reason: 'wrong_fee',
      detail: `the escrow recorded fee ${mine.feeAmount}, expected ${expected.fee}`,
    };
  }
  return { nonce: mine.nonce };
}
