/**
 * The deposit call as the transaction's calldata states it: the sell tag appended to it must be this
 * order's, and the decoded escrow call must deposit exactly the expected token, amount and fee,
 * through a variant the network is configured for, at the exchange rate the order bound.
 */
import { type Address, decodeFunctionData, type Hex, isAddressEqual } from 'viem';
import { escrowAbi } from './abi.js';
import { type EscrowCallVariant, splitSellTag } from './calls.js';
import type { ExpectedEscrowDeposit, Refused } from './verify-types.js';

export interface DecodedDeposit {
  variant: EscrowCallVariant;
  token: Address;
  total: bigint;
  fee: bigint;
  /** Legacy and permit calls carry one. */
  exchangeRate?: bigint;
}

/** Decodes untagged calldata as one of the three escrow deposit functions. */
export function decodeDeposit(callData: Hex): DecodedDeposit | undefined {
  let decoded: ReturnType<typeof decodeFunctionData<typeof escrowAbi>>;
  try {
    decoded = decodeFunctionData({ abi: escrowAbi, data: callData });
  } catch {
    return undefined;
  }
  if (decoded.functionName === 'withdrawToEscrow') {
    const a = decoded.args;
    return a.length === 3
      ? { variant: 'current', token: a[0], total: a[1], fee: a[2] }
      : { variant: 'legacy', token: a[0], total: a[1], fee: a[3], exchangeRate: a[2] };
  }
  if (decoded.functionName === 'withdrawWithPermit') {
    const a = decoded.args;
    return { variant: 'permit', token: a[0], total: a[1], fee: a[3], exchangeRate: a[2] };
  }
  return undefined;
}

/** The decoded deposit when the tagged calldata matches the order, else the refusal. */
export function checkDepositCall(
  input: Hex,
  expected: ExpectedEscrowDeposit,
): { call: DecodedDeposit } | Refused {
  const { callData, tag } = splitSellTag(input);
  if (!tag) return { reason: 'missing_tag', detail: 'calldata carries no sell tag' };
  if (tag !== expected.tag.toLowerCase())
    return { reason: 'foreign_tag', detail: `tag ${tag} belongs to another order` };

  const call = decodeDeposit(callData);
  if (!call) return { reason: 'wrong_escrow', detail: 'not an escrow deposit call' };
  if (!isAddressEqual(call.token, expected.token)) {
    return { reason: 'wrong_token', detail: `deposit of token ${call.token}, expected ${expected.token}` };
  }
  if (call.total !== expected.total) {
    return {
      reason: 'wrong_amount',
      detail: `deposit of ${call.total} base units, expected ${expected.total}`,
    };
  }
  if (call.fee !== expected.fee)
    return { reason: 'wrong_fee', detail: `fee ${call.fee}, expected ${expected.fee}` };
  if (expected.variants && !expected.variants.includes(call.variant))
    return {
      reason: 'wrong_call',
      detail: `${call.variant} deposit call, the network is configured for ${expected.variants.join('/')}`,
    };
  if (
    call.exchangeRate !== undefined &&
    expected.exchangeRate !== undefined &&
    call.exchangeRate !== expected.exchangeRate
  )
    return {
      reason: 'wrong_call',
      detail: `exchange rate argument ${call.exchangeRate}, the order bound ${expected.exchangeRate}`,
    };
  return { call };
}
