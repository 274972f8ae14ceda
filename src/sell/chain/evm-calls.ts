/**
 * What a seller's EVM wallet sends, built from the intent's bound fields only: the ERC-20 approve and
 * the tagged escrow deposit, or the EIP-712 permit to sign and the deposit that carries it. The signing
 * page asks for these; the deposit is verified on chain like any reported hash (verify.ts).
 */
import type { Address, Hex } from 'viem';
import {
  buildApproveCall,
  buildPermitTypedData,
  buildWithdrawCall,
  buildWithdrawWithPermitCall,
  DEFAULT_PERMIT_TTL_SECONDS,
  type EvmCall,
  readPermitContext,
  scaleExchangeRate,
} from '../../chains/evm/index.js';
import { type SellContext, SellUnavailableError } from '../context.js';
import type { SellIntent } from '../intents/intents.js';

const ALLOWANCE_ABI = [
  {
    type: 'function',
    name: 'allowance',
    stateMutability: 'view',
    inputs: [
      { name: 'owner', type: 'address' },
      { name: 'spender', type: 'address' },
    ],
    outputs: [{ name: '', type: 'uint256' }],
  },
] as const;

/** The calls a seller's wallet sends: `approve(escrow, total)` (needed when `allowance` is short), then the tagged deposit. */
export async function evmCalls(
  ctx: SellContext,
  intent: SellIntent,
  from: Address,
): Promise<{ approve: EvmCall; withdraw: EvmCall; allowance: bigint }> {
  const runtime = ctx.evmBy.get(intent.network);
  const evm = intent.evm;
  if (!runtime || !evm) throw new SellUnavailableError('not an EVM sell');
  const token = intent.token.address as Address;
  const total = BigInt(intent.totalUnits);
  const fee = BigInt(intent.feeUnits);
  // A permit escrow is the legacy (v1) one: without a permit its deposit is the 4-input call.
  const variant = evm.escrowCall === 'current' ? 'current' : 'legacy';
  const withdraw = buildWithdrawCall({
    escrow: evm.escrow as Address,
    variant,
    token,
    total,
    fee,
    exchangeRate: variant === 'legacy' ? scaleExchangeRate(intent.exchangeRate) : undefined,
    tag: evm.tag as Hex,
  });
  const allowance = (await runtime.client.readContract({
    address: token,
    abi: ALLOWANCE_ABI,
    functionName: 'allowance',
    args: [from, evm.escrow as Address],
  })) as bigint;
  const approve = buildApproveCall({ token, spender: evm.escrow as Address, amount: total });
  return { approve, withdraw, allowance };
}

/** EIP-712 permit data for the page to sign (permit variant). */
export async function permitData(
  ctx: SellContext,
  intent: SellIntent,
  owner: Address,
): Promise<{ typedData: unknown; deadline: string }> {
  const runtime = ctx.evmBy.get(intent.network);
  const evm = intent.evm;
  if (!runtime || !evm) throw new SellUnavailableError('not an EVM sell');
  const token = intent.token.address as Address;
  const permit = await readPermitContext(runtime.client, { token, owner });
  const deadline = BigInt(Math.floor(ctx.now() / 1000) + DEFAULT_PERMIT_TTL_SECONDS);
  const typed = buildPermitTypedData({
    chainId: evm.chainId,
    token,
    tokenName: permit.tokenName,
    tokenVersion: permit.tokenVersion,
    owner,
    spender: evm.escrow as Address,
    value: BigInt(intent.totalUnits),
    nonce: permit.nonce,
    deadline,
  });
  const typedData = {
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ],
      ...typed.types,
    },
    primaryType: typed.primaryType,
    domain: typed.domain,
    message: Object.fromEntries(
      Object.entries(typed.message).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v]),
    ),
  };
  return { typedData, deadline: deadline.toString() };
}

/** The deposit carrying a signed permit (no approve needed). */
export function permitCall(intent: SellIntent, p: { signature: Hex; deadline: bigint }): EvmCall {
  const evm = intent.evm;
  if (!evm) throw new SellUnavailableError('not an EVM sell');
  return buildWithdrawWithPermitCall({
    escrow: evm.escrow as Address,
    token: intent.token.address as Address,
    total: BigInt(intent.totalUnits),
    fee: BigInt(intent.feeUnits),
    exchangeRate: scaleExchangeRate(intent.exchangeRate),
    deadline: p.deadline,
    signature: p.signature,
    tag: evm.tag as Hex,
  });
}
