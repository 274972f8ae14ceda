/**
 * Transactions a seller's wallet sends on EVM chains: the ERC-20 approval, the escrow deposit in its
 * three variants, and the EIP-2612 permit to sign. Every escrow call carries the order's sell tag
 * after the ABI-encoded arguments; the escrow ignores trailing calldata, and verification reads the
 * tag back to bind a transaction to one order.
 *
 * Tag format (16 bytes appended to the calldata): 4 bytes of magic `0x52434854` ("RCHT") followed by
 * the 12-byte random tag. It is only recognised where it fits the ABI layout: the calldata length
 * minus the 4-byte selector must be a whole number of 32-byte words plus exactly 16 bytes.
 */
import {
  type Address,
  bytesToHex,
  concat,
  encodeFunctionData,
  type Hex,
  isHex,
  type PublicClient,
  parseSignature,
  parseUnits,
  size,
  slice,
  type TypedDataDefinition,
  zeroAddress,
} from 'viem';
import { escrowAbi, tokenAbi } from './abi.js';

/** Magic that starts the trailer ("RCHT"). */
export const SELL_TAG_MAGIC: Hex = '0x52434854';
/** Random part of a tag, in bytes. */
export const SELL_TAG_BYTES = 12;
const TRAILER_BYTES = 4 + SELL_TAG_BYTES;

/** Which escrow function the seller's wallet calls. */
export type EscrowCallVariant = 'current' | 'legacy' | 'permit';

/** A transaction request for the seller's wallet (`value` is non-zero only for the native coin). */
export interface EvmCall {
  to: Address;
  data: Hex;
  value: bigint;
}

/** A fresh random per-order tag: `0x` + 24 hex digits. Store it with the order. */
export function newSellTag(): Hex {
  return bytesToHex(globalThis.crypto.getRandomValues(new Uint8Array(SELL_TAG_BYTES)));
}

/** True for a well-formed tag (`0x` + 24 hex digits). */
export function isSellTag(value: unknown): value is Hex {
  return typeof value === 'string' && /^0x[0-9a-fA-F]{24}$/.test(value);
}

/** Appends the tag trailer to ABI-encoded calldata. */
export function appendSellTag(callData: Hex, tag: Hex): Hex {
  if (!isSellTag(tag))
    throw new TypeError(`Not a sell tag: ${tag} (expected 0x + ${SELL_TAG_BYTES * 2} hex digits)`);
  return concat([callData, SELL_TAG_MAGIC, tag.toLowerCase() as Hex]);
}

/**
 * Splits calldata into the ABI-encoded call and the sell tag. `tag` is undefined when the calldata has
 * no trailer of our format (then `callData` is the input unchanged).
 */
export function splitSellTag(data: Hex): { callData: Hex; tag?: Hex } {
  if (!isHex(data) || size(data) < 4 + TRAILER_BYTES) return { callData: data };
  const bytes = size(data);
  if ((bytes - 4 - TRAILER_BYTES) % 32 !== 0) return { callData: data };
  const trailer = slice(data, bytes - TRAILER_BYTES);
  if (slice(trailer, 0, 4).toLowerCase() !== SELL_TAG_MAGIC) return { callData: data };
  return { callData: slice(data, 0, bytes - TRAILER_BYTES), tag: slice(trailer, 4).toLowerCase() as Hex };
}

/** The sell tag carried by calldata, or undefined when there is none. */
export function parseTag(data: Hex): Hex | undefined {
  return splitSellTag(data).tag;
}

/**
 * The legacy escrow's `_exchangeRate` argument as the provider's own SDK scales it (KES per token × 1e6).
 * The backend's expected scaling is not documented (reference §9.4); the escrow never checks it.
 */
export function scaleExchangeRate(kesPerToken: number): bigint {
  if (!Number.isFinite(kesPerToken) || kesPerToken < 0)
    throw new RangeError(`Bad exchange rate: ${kesPerToken}`);
  return parseUnits(kesPerToken.toFixed(6), 6);
}

export interface WithdrawCallParams {
  escrow: Address;
  /** `current` (3 inputs) or `legacy` (4 inputs, with exchange rate). */
  variant: 'current' | 'legacy';
  /** Token contract; the zero address sends the native coin (then `value` = total). */
  token: Address;
  /** Base units, INCLUDING the fee. */
  total: bigint;
  /** Base units; the quote's fee. */
  fee: bigint;
  /** Legacy only; see scaleExchangeRate. Defaults to 0. */
  exchangeRate?: bigint;
  tag: Hex;
}

function checkAmounts(total: bigint, fee: bigint): void {
  if (total <= 0n) throw new RangeError(`Total must be positive, got ${total}`);
  if (fee < 0n || fee > total) throw new RangeError(`Fee must be within 0..total, got ${fee} of ${total}`);
}

/** The escrow deposit transaction (`withdrawToEscrow`), tagged for one order. */
export function buildWithdrawCall(p: WithdrawCallParams): EvmCall {
  checkAmounts(p.total, p.fee);
  const callData =
    p.variant === 'current'
      ? encodeFunctionData({
          abi: escrowAbi,
          functionName: 'withdrawToEscrow',
          args: [p.token, p.total, p.fee],
        })
      : encodeFunctionData({
          abi: escrowAbi,
          functionName: 'withdrawToEscrow',
          args: [p.token, p.total, p.exchangeRate ?? 0n, p.fee],
        });
  return {
    to: p.escrow,
    data: appendSellTag(callData, p.tag),
    value: p.token.toLowerCase() === zeroAddress ? p.total : 0n,
  };
}

/** The ERC-20 `approve(escrow, total)` that must precede a current or legacy deposit. */
export function buildApproveCall(p: { token: Address; spender: Address; amount: bigint }): EvmCall {
  if (p.token.toLowerCase() === zeroAddress) throw new TypeError('The native coin needs no approval');
  return {
    to: p.token,
    data: encodeFunctionData({ abi: tokenAbi, functionName: 'approve', args: [p.spender, p.amount] }),
    value: 0n,
  };
}

/** Seconds a permit stays valid, as in the reference's legacy example. */
export const DEFAULT_PERMIT_TTL_SECONDS = 3600;

export interface PermitParams {
  chainId: number;
  token: Address;
  /** The token's EIP-712 domain name and version (see readPermitDomain). */
  tokenName: string;
  tokenVersion?: string;
  owner: Address;
  spender: Address;
  value: bigint;
  /** The owner's current permit nonce on the token. */
  nonce: bigint;
  /** Unix seconds. */
  deadline: bigint;
}

const permitTypes = {
  Permit: [
    { name: 'owner', type: 'address' },
    { name: 'spender', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const;

/**
 * Reads what a permit signature needs from the token: its EIP-712 name and version (EIP-5267
 * `eip712Domain()` when the token has it, else `name()` and version "1") and the owner's nonce.
 */
export async function readPermitContext(
  client: PublicClient,
  p: { token: Address; owner: Address },
): Promise<{ tokenName: string; tokenVersion: string; nonce: bigint }> {
  const nonce = await client.readContract({
    address: p.token,
    abi: tokenAbi,
    functionName: 'nonces',
    args: [p.owner],
  });
  try {
    const { domain } = await client.getEip712Domain({ address: p.token });
    if (domain.name !== undefined)
      return { tokenName: domain.name, tokenVersion: domain.version ?? '1', nonce };
  } catch {
    // No EIP-5267 on this token: fall back to name() and version "1".
  }
  const tokenName = await client.readContract({ address: p.token, abi: tokenAbi, functionName: 'name' });
  return { tokenName, tokenVersion: '1', nonce };
}

/** EIP-2612 typed data for the wallet's `eth_signTypedData_v4` (viem `signTypedData`). */
export function buildPermitTypedData(p: PermitParams): TypedDataDefinition<typeof permitTypes, 'Permit'> {
  return {
    domain: {
      name: p.tokenName,
      version: p.tokenVersion ?? '1',
      chainId: p.chainId,
      verifyingContract: p.token,
    },
    types: permitTypes,
    primaryType: 'Permit',
    message: { owner: p.owner, spender: p.spender, value: p.value, nonce: p.nonce, deadline: p.deadline },
  };
}

export interface WithdrawWithPermitCallParams {
  escrow: Address;
  token: Address;
  total: bigint;
  fee: bigint;
  exchangeRate?: bigint;
  deadline: bigint;
  /** The 65-byte signature over buildPermitTypedData (value = total, spender = escrow). */
  signature: Hex;
  tag: Hex;
}

/** The escrow's `withdrawWithPermit` transaction, tagged for one order. */
export function buildWithdrawWithPermitCall(p: WithdrawWithPermitCallParams): EvmCall {
  checkAmounts(p.total, p.fee);
  if (p.token.toLowerCase() === zeroAddress) throw new TypeError('Permit needs an ERC-20 token');
  const { r, s, v, yParity } = parseSignature(p.signature);
  const callData = encodeFunctionData({
    abi: escrowAbi,
    functionName: 'withdrawWithPermit',
    args: [
      p.token,
      p.total,
      p.exchangeRate ?? 0n,
      p.fee,
      p.deadline,
      Number(v ?? BigInt(yParity + 27)),
      r,
      s,
    ],
  });
  return { to: p.escrow, data: appendSellTag(callData, p.tag), value: 0n };
}
