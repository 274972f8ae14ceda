/**
 * Verifying a reported hash on chain against what the intent bound (EVM: the escrow deposit with the
 * intent's tag, agreed by a quorum of endpoints; Algorand: the payment with the intent's note). Reads
 * only: the verdict says whether to file, wait (`retry`), or refuse, and for a refusal whether the
 * tokens are ours (moved to us but not as bound: support must look).
 */
import type algosdk from 'algosdk';
import { type Address, type Hex, isAddressEqual } from 'viem';
import { verifyPayment } from '../../chains/algorand/index.js';
import { scaleExchangeRate, verifyEscrowTransactionQuorum } from '../../chains/evm/index.js';
import { intentLog, type SellContext } from '../context.js';
import { algorandTxId, evmHash } from '../flow/hash-format.js';
import type { SellIntent } from '../intents/intents.js';

/**
 * `retry`: not (deep enough) on chain yet; `exists` when the chain knows the transaction.
 * `ours`: a refusal where the tokens (if any) moved to us under this intent's tag or note.
 */
export type Verdict =
  | { ok: true; sender: string }
  | { ok: false; retry: true; detail: string; exists: boolean }
  | { ok: false; retry: false; reason: string; detail: string; ours: boolean };

/** The hash in the intent's chain's spelling, or undefined when it cannot be one of that chain. */
export function hashFits(intent: SellIntent, hash: string): string | undefined {
  return intent.evm ? evmHash(hash) : algorandTxId(hash);
}

/** The verdict on `hash` for the intent's chain; throws when the chain cannot be reached. */
export function verifyOnChain(ctx: SellContext, intent: SellIntent, hash: string): Promise<Verdict> {
  return intent.evm ? verifyEvm(ctx, intent, hash) : verifyAlgorand(ctx, intent, hash);
}

/** `verifyOnChain`, or undefined (logged) when the chain could not be asked: check again later. */
export async function verifyOrLater(
  ctx: SellContext,
  intent: SellIntent,
  hash: string,
): Promise<Verdict | undefined> {
  try {
    return await verifyOnChain(ctx, intent, hash);
  } catch (err) {
    ctx.log.warn(
      { ...intentLog(intent), hash, err: (err as Error).message },
      'chain unreachable; will check again',
    );
    return undefined;
  }
}

async function verifyEvm(ctx: SellContext, intent: SellIntent, hash: string): Promise<Verdict> {
  const runtime = ctx.evmBy.get(intent.network);
  const evm = intent.evm!;
  if (!runtime)
    return {
      ok: false,
      retry: false,
      reason: 'wrong_chain',
      detail: 'network no longer configured',
      ours: false,
    };
  const verdict = await verifyEscrowTransactionQuorum(
    runtime.verifiers?.length ? runtime.verifiers : [runtime.client],
    {
      chainId: evm.chainId,
      escrow: evm.escrow as Address,
      token: intent.token.address as Address,
      ...(intent.wallet ? { from: intent.wallet as Address } : {}),
      total: BigInt(intent.totalUnits),
      fee: BigInt(intent.feeUnits),
      tag: evm.tag as Hex,
      // A permit network also takes the approve + legacy call (wallets without permit support).
      variants: evm.escrowCall === 'permit' ? ['permit', 'legacy'] : [evm.escrowCall],
      ...(evm.escrowCall === 'current' ? {} : { exchangeRate: scaleExchangeRate(intent.exchangeRate) }),
      notBefore: Math.floor(intent.createdAt / 1000) - 60,
      notAfter: Math.ceil((intent.expiresAt + ctx.graceMs) / 1000),
      confirmations: evm.confirmations,
    },
    hash,
  );
  if (verdict.ok) return { ok: true, sender: verdict.from };
  if (verdict.reason === 'not_confirmed' || verdict.reason === 'not_found') {
    return { ok: false, retry: true, detail: verdict.detail, exists: verdict.reason === 'not_confirmed' };
  }
  // Checked after the escrow, the sender and this order's tag: the tokens (if any) are this order's.
  const afterTag = ['wrong_token', 'wrong_amount', 'wrong_fee', 'outside_window'].includes(verdict.reason);
  const untaggedFromBound = verdict.reason === 'missing_tag' && intent.wallet !== undefined;
  let ours = false;
  if (afterTag || untaggedFromBound) {
    const receipt = await runtime.client.getTransactionReceipt({ hash: hash as Hex }).catch(() => undefined);
    ours = receipt?.status === 'success' && !!receipt.to && isAddressEqual(receipt.to, evm.escrow as Address);
  }
  return { ok: false, retry: false, reason: verdict.reason, detail: verdict.detail, ours };
}

async function noteMatches(indexer: algosdk.Indexer, txId: string, note: string): Promise<boolean> {
  try {
    const found = await indexer.lookupTransactionByID(txId).do();
    const bytes = found.transaction.note;
    return bytes !== undefined && new TextDecoder().decode(bytes) === note;
  } catch {
    return false;
  }
}

async function verifyAlgorand(ctx: SellContext, intent: SellIntent, txId: string): Promise<Verdict> {
  const algorand = ctx.deps.algorand;
  const a = intent.algorand!;
  if (!algorand)
    return {
      ok: false,
      retry: false,
      reason: 'wrong_chain',
      detail: 'Algorand no longer enabled',
      ours: false,
    };
  const verdict = await verifyPayment(
    algorand.clients,
    {
      receiver: a.receiver,
      assetId: BigInt(a.assetId),
      total: BigInt(intent.totalUnits),
      note: a.note,
      minRound: BigInt(a.minRound),
      ...(intent.wallet ? { sender: intent.wallet } : {}),
      confirmations: a.confirmations,
    },
    txId,
  );
  if (verdict.ok) return { ok: true, sender: verdict.sender };
  if (verdict.reason === 'not_confirmed' || verdict.reason === 'not_found') {
    return { ok: false, retry: true, detail: verdict.detail, exists: verdict.reason === 'not_confirmed' };
  }
  const moved = ['wrong_amount', 'close_out', 'wrong_sender'].includes(verdict.reason);
  const ours = moved && (await noteMatches(algorand.clients.indexer, txId, a.note));
  return { ok: false, retry: false, reason: verdict.reason, detail: verdict.detail, ours };
}
