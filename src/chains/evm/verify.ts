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
  decodeEventLog,
  decodeFunctionData,
  getAddress,
  type Hex,
  isAddressEqual,
  type Log,
  type PublicClient,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  toEventSelector,
  zeroAddress,
} from 'viem';
import { depositedV1Event, depositedV2Event, escrowAbi, transferEvent } from './abi.js';
import { type EscrowCallVariant, splitSellTag } from './calls.js';

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

const TRANSFER_TOPIC = toEventSelector(transferEvent);
const DEPOSITED_TOPICS = new Set([toEventSelector(depositedV1Event), toEventSelector(depositedV2Event)]);

const refuse = (reason: VerifyRefusal, detail: string, from?: Address): EscrowVerification => ({
  ok: false,
  reason,
  detail,
  ...(from ? { from } : {}),
});

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

  const { callData, tag } = splitSellTag(tx.input);
  if (!tag) return refuse('missing_tag', 'calldata carries no sell tag', from);
  if (tag !== expected.tag.toLowerCase())
    return refuse('foreign_tag', `tag ${tag} belongs to another order`, from);

  const call = decodeDeposit(callData);
  if (!call) return refuse('wrong_escrow', 'not an escrow deposit call', from);
  if (!isAddressEqual(call.token, expected.token)) {
    return refuse('wrong_token', `deposit of token ${call.token}, expected ${expected.token}`, from);
  }
  if (call.total !== expected.total) {
    return refuse('wrong_amount', `deposit of ${call.total} base units, expected ${expected.total}`, from);
  }
  if (call.fee !== expected.fee)
    return refuse('wrong_fee', `fee ${call.fee}, expected ${expected.fee}`, from);
  if (expected.variants && !expected.variants.includes(call.variant))
    return refuse(
      'wrong_call',
      `${call.variant} deposit call, the network is configured for ${expected.variants.join('/')}`,
      from,
    );
  if (
    call.exchangeRate !== undefined &&
    expected.exchangeRate !== undefined &&
    call.exchangeRate !== expected.exchangeRate
  )
    return refuse(
      'wrong_call',
      `exchange rate argument ${call.exchangeRate}, the order bound ${expected.exchangeRate}`,
      from,
    );

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

  const block = await client.getBlock({ blockNumber: receipt.blockNumber });
  const blockTimestamp = Number(block.timestamp);
  if (
    blockTimestamp < expected.notBefore ||
    (expected.notAfter !== undefined && blockTimestamp > expected.notAfter)
  ) {
    const window = `[${expected.notBefore}, ${expected.notAfter ?? '∞'}]`;
    return refuse('outside_window', `mined at ${blockTimestamp}, outside the order window ${window}`, from);
  }

  const latest = await client.getBlockNumber({ cacheTime: 0 });
  const depth = latest - receipt.blockNumber + 1n;
  if (depth < BigInt(expected.confirmations)) {
    return refuse('not_confirmed', `${depth} of ${expected.confirmations} confirmations`, from);
  }

  return {
    ok: true,
    from,
    blockNumber: receipt.blockNumber,
    blockTimestamp,
    variant: call.variant,
    ...(deposited.nonce !== undefined ? { nonce: deposited.nonce } : {}),
  };
}

interface DecodedDeposit {
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

type Refused = { reason: VerifyRefusal; detail: string };

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
function findDeposited(
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
