/**
 * On-chain verification of a seller's escrow deposit. A hash reported by a user or a page is only a
 * hint: this reads the transaction, its receipt and its block from the chain and accepts it only when
 * it is a successful, confirmed deposit into our escrow of exactly the expected token amount and fee,
 * sent by the bound wallet, tagged for this order, mined inside the order's time window.
 *
 * Refusals come as early as they can be told (a forgery need not wait for confirmations); acceptance
 * needs the configured depth. Reused hashes are not caught here: the sell module claims each hash
 * atomically. RPC failures (network, rate limits) throw; callers retry them like `not_confirmed`.
 */
import {
  type Address,
  getAddress,
  type Hex,
  isAddressEqual,
  type PublicClient,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  zeroAddress,
} from 'viem';
import { checkDepositCall } from './verify-call.js';
import { checkTokenTransfers, findDeposited } from './verify-receipt.js';
import {
  type EscrowVerification,
  type ExpectedEscrowDeposit,
  RETRYABLE_REFUSALS,
  type Refused,
  refuse,
} from './verify-types.js';

export { decodeDeposit } from './verify-call.js';
export { checkTokenTransfers } from './verify-receipt.js';
export {
  type EscrowVerification,
  type ExpectedEscrowDeposit,
  RETRYABLE_REFUSALS,
  type VerifyRefusal,
} from './verify-types.js';

/**
 * `verifyEscrowTransaction` asked of several RPC endpoints of one chain, so that one lying or stale
 * endpoint cannot verify a payment alone. A deposit is accepted when at least two endpoints (one when
 * only one is configured) verify it with the same sender; a refusal stands when two agree on it.
 * Anything else (endpoints disagreeing, too few answering) reads as `not_confirmed`, to be asked again
 * later; when no endpoint answers at all, the first error is thrown, as from one endpoint.
 */
export async function verifyEscrowTransactionQuorum(
  clients: readonly PublicClient[],
  expected: ExpectedEscrowDeposit,
  hash: string,
): Promise<EscrowVerification> {
  if (clients.length === 0) throw new Error('no RPC endpoint to verify with');
  if (clients.length === 1) return verifyEscrowTransaction(clients[0]!, expected, hash);
  const needed = 2;
  const settled = await Promise.allSettled(clients.map((c) => verifyEscrowTransaction(c, expected, hash)));
  const answers = settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  if (answers.length === 0) throw (settled[0] as PromiseRejectedResult).reason;
  const oks = answers.filter((a): a is Extract<EscrowVerification, { ok: true }> => a.ok);
  const senders = new Set(oks.map((a) => a.from.toLowerCase()));
  if (oks.length >= needed && senders.size === 1) return oks[0]!;
  const refusals = answers.filter((a): a is Extract<EscrowVerification, { ok: false }> => !a.ok);
  if (oks.length === 0) {
    for (const r of refusals) {
      if (RETRYABLE_REFUSALS.includes(r.reason)) continue;
      if (refusals.filter((o) => o.reason === r.reason).length >= needed) return r;
    }
  }
  const told = answers.map((a) => (a.ok ? 'verified' : a.reason)).join(', ');
  return refuse(
    oks.length > 0
      ? 'not_confirmed'
      : (refusals.find((r) => RETRYABLE_REFUSALS.includes(r.reason))?.reason ?? 'not_confirmed'),
    `RPC endpoints do not agree (${told}; ${settled.length - answers.length} unreachable): asking again later`,
    oks[0]?.from ?? refusals.find((r) => r.from)?.from,
  );
}

/** Checks a reported transaction hash against the deposit an order expects. */
export async function verifyEscrowTransaction(
  client: PublicClient,
  expected: ExpectedEscrowDeposit,
  hash: string,
): Promise<EscrowVerification> {
  const sent = await readTransaction(client, expected, hash);
  if (!('tx' in sent)) return sent;
  const { tx, from, txHash } = sent;

  const checked = checkDepositCall(tx.input, expected);
  if (!('call' in checked)) return refuse(checked.reason, checked.detail, from);
  const { call } = checked;

  const receipt = await client.getTransactionReceipt({ hash: txHash }).catch((e: unknown) => {
    if (e instanceof TransactionReceiptNotFoundError) return undefined;
    throw e;
  });
  if (!receipt) return refuse('not_confirmed', 'transaction is not mined yet', from);
  if (receipt.status !== 'success')
    return refuse('reverted', `reverted in block ${receipt.blockNumber}`, from);

  const moved = checkTokenTransfers(receipt.logs, { ...expected, from });
  if (moved) return refuse(moved.reason, moved.detail, from);
  if (isAddressEqual(expected.token, zeroAddress) && tx.value !== expected.total) {
    return refuse('wrong_amount', `sent ${tx.value} wei, expected ${expected.total}`, from);
  }

  const deposited = findDeposited(receipt.logs, { ...expected, from });
  if ('reason' in deposited) return refuse(deposited.reason, deposited.detail, from);

  const mined = await checkMined(client, expected, receipt.blockNumber);
  if ('reason' in mined) return refuse(mined.reason, mined.detail, from);

  return {
    ok: true,
    from,
    blockNumber: receipt.blockNumber,
    blockTimestamp: mined.blockTimestamp,
    variant: call.variant,
    ...(deposited.nonce !== undefined ? { nonce: deposited.nonce } : {}),
  };
}

type SentTransaction = Awaited<ReturnType<PublicClient['getTransaction']>>;

/**
 * Reads the transaction: it must exist on the expected chain, be signed for it, go to the escrow
 * and (when the order is bound to a wallet) come from that wallet.
 */
async function readTransaction(
  client: PublicClient,
  expected: ExpectedEscrowDeposit,
  hash: string,
): Promise<{ tx: SentTransaction; from: Address; txHash: Hex } | EscrowVerification> {
  if (!/^0x[0-9a-fA-F]{64}$/.test(hash))
    return refuse('not_found', `not a transaction hash: ${hash.slice(0, 80)}`);
  const txHash = hash as Hex;

  const chainId = await client.getChainId();
  if (chainId !== expected.chainId) {
    return refuse('wrong_chain', `RPC serves chain ${chainId}, expected ${expected.chainId}`);
  }

  const tx = await client.getTransaction({ hash: txHash }).catch((e: unknown) => {
    if (e instanceof TransactionNotFoundError) return undefined;
    throw e;
  });
  if (!tx) return refuse('not_found', `no transaction ${txHash} on chain ${chainId}`);
  const from = getAddress(tx.from);
  if (tx.chainId !== undefined && tx.chainId !== expected.chainId) {
    return refuse('wrong_chain', `transaction signed for chain ${tx.chainId}`, from);
  }
  if (!tx.to || !isAddressEqual(tx.to, expected.escrow)) {
    return refuse(
      'wrong_escrow',
      `sent to ${tx.to ?? '(contract creation)'}, not the escrow ${expected.escrow}`,
      from,
    );
  }
  if (expected.from && !isAddressEqual(from, expected.from)) {
    return refuse('wrong_sender', `sent by ${from}, not the bound wallet ${expected.from}`, from);
  }
  return { tx, from, txHash };
}

/** The block must lie inside the order's time window and be buried deep enough. */
async function checkMined(
  client: PublicClient,
  expected: ExpectedEscrowDeposit,
  blockNumber: bigint,
): Promise<{ blockTimestamp: number } | Refused> {
  const block = await client.getBlock({ blockNumber });
  const blockTimestamp = Number(block.timestamp);
  if (
    blockTimestamp < expected.notBefore ||
    (expected.notAfter !== undefined && blockTimestamp > expected.notAfter)
  ) {
    const window = `[${expected.notBefore}, ${expected.notAfter ?? '∞'}]`;
    return {
      reason: 'outside_window',
      detail: `mined at ${blockTimestamp}, outside the order window ${window}`,
    };
  }

  const latest = await client.getBlockNumber({ cacheTime: 0 });
  const depth = latest - blockNumber + 1n;
  if (depth < BigInt(expected.confirmations)) {
    return { reason: 'not_confirmed', detail: `${depth} of ${expected.confirmations} confirmations` };
  }
  return { blockTimestamp };
}
