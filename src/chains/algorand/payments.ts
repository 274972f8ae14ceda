/**
 * Finding and verifying a seller's asset transfer to the service wallet through the indexer.
 * A transfer counts only when it is a top-level asset transfer of exactly the expected amount of
 * the expected asset to the receiver, carries the order's note, closes nothing out, and was
 * confirmed after the order started.
 */
import type algosdk from 'algosdk';
import { isNotFound } from './errors.js';

type IndexerTxn = algosdk.indexerModels.Transaction;

const TX_ID = /^[A-Z2-7]{51}[AQ]$/;
const TX_ID_IN_TEXT = /(?:^|[^A-Z2-7])([A-Z2-7]{51}[AQ])(?![A-Z2-7])/;

/**
 * True for a transaction id: 52 characters of base32 (A-Z, 2-7) encoding 32 bytes, so the last
 * character is A or Q.
 */
export function isAlgorandTxId(text: string): boolean {
  return TX_ID.test(text);
}

/**
 * The transaction id in what a user pasted: the bare id (any case, spaces around it) or an
 * explorer link ending in it. Undefined when there is none.
 */
export function parseAlgorandTxId(text: string): string | undefined {
  return TX_ID_IN_TEXT.exec(text.trim().toUpperCase())?.[1];
}

/** The last round the node has committed; record it when an order starts (`minRound`). */
export async function currentRound(algod: algosdk.Algodv2): Promise<bigint> {
  const status = await algod.status().do();
  return status.lastRound;
}

const utf8 = new TextEncoder();
const sameBytes = (a: Uint8Array | undefined, b: Uint8Array) =>
  a !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);

export interface FindPaymentQuery {
  receiver: string;
  assetId: bigint | number;
  note: string;
  /** The order's start round; only transfers confirmed after it are considered. */
  minRound: bigint;
  /** When given, a transfer of exactly this amount is preferred over other candidates. */
  amount?: bigint;
}

const MAX_PAGES = 5;

/**
 * Searches the indexer for the seller's transfer (receiver, asset, exact note, after minRound) and
 * returns its transaction id, or undefined when none is there yet. Among several candidates the
 * first that also has the right amount and no close-out wins; failing that, the earliest, so
 * verifyPayment can say what is wrong with it. Throws when the indexer cannot be reached.
 */
export async function findPayment(
  indexer: algosdk.Indexer,
  query: FindPaymentQuery,
): Promise<string | undefined> {
  const assetId = BigInt(query.assetId);
  const note = utf8.encode(query.note);
  const candidates: IndexerTxn[] = [];
  let next: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const search = indexer
      .searchForTransactions()
      .address(query.receiver)
      .addressRole('receiver')
      .assetID(assetId)
      .txType('axfer')
      .notePrefix(note)
      .minRound(query.minRound + 1n)
      .limit(100);
    if (next) search.nextToken(next);
    const res = await search.do();
    for (const txn of res.transactions) {
      const xfer = txn.assetTransferTransaction;
      if (
        txn.txType === 'axfer' &&
        txn.id &&
        xfer &&
        xfer.receiver === query.receiver &&
        xfer.assetId === assetId &&
        xfer.sender === undefined &&
        sameBytes(txn.note, note) &&
        (txn.confirmedRound ?? 0n) > query.minRound
      ) {
        candidates.push(txn);
      }
    }
    next = res.nextToken;
    if (!next || res.transactions.length === 0) break;
  }
  const roundOf = (t: IndexerTxn) => t.confirmedRound ?? 0n;
  candidates.sort((a, b) => (roundOf(a) < roundOf(b) ? -1 : roundOf(a) > roundOf(b) ? 1 : 0));
  const clean = candidates.find(
    (t) =>
      !t.assetTransferTransaction?.closeTo &&
      (query.amount === undefined || t.assetTransferTransaction?.amount === query.amount),
  );
  return (clean ?? candidates[0])?.id;
}

export interface ExpectedPayment {
  receiver: string;
  assetId: bigint | number;
  /** Exact amount in base units (quote input plus fee). */
  total: bigint;
  note: string;
  /** The order's start round (`currentRound` when it began); the transfer must come later. */
  minRound: bigint;
  /** When the order is bound to a wallet, only that wallet may be the sender. */
  sender?: string;
  /** Rounds the transfer must be buried under, counting its own; default 1. */
  confirmations?: number;
}

export type PaymentRefusal =
  | 'invalid_id'
  | 'not_found'
  | 'not_confirmed'
  | 'wrong_type'
  | 'inner_transfer'
  | 'clawback'
  | 'wrong_asset'
  | 'wrong_receiver'
  | 'close_out'
  | 'wrong_amount'
  | 'wrong_note'
  | 'too_early'
  | 'wrong_sender';

export type PaymentVerdict =
  | { ok: true; txId: string; sender: string; round: bigint; amount: bigint }
  | {
      ok: false;
      reason: PaymentRefusal;
      /** English, for logs and support tickets; chats show a localized text chosen by `reason`. */
      detail: string;
      /** Present when the transaction was found. */
      sender?: string;
      round?: bigint;
    };

/**
 * Checks one transaction against an order. `not_found` and `not_confirmed` may change with time
 * (poll again); every other refusal is final for that transaction. With algod given, an id the
 * indexer does not know yet but the node holds as pending reads `not_confirmed`. Throws when the
 * indexer cannot be reached.
 */
export async function verifyPayment(
  clients: { indexer: algosdk.Indexer; algod?: algosdk.Algodv2 },
  expected: ExpectedPayment,
  txId: string,
): Promise<PaymentVerdict> {
  if (!isAlgorandTxId(txId)) {
    return { ok: false, reason: 'invalid_id', detail: `${JSON.stringify(txId)} is not a transaction id` };
  }
  let found: algosdk.indexerModels.TransactionResponse;
  try {
    found = await clients.indexer.lookupTransactionByID(txId).do();
  } catch (err) {
    if (!isNotFound(err)) throw err;
    if (clients.algod && (await isPendingOnNode(clients.algod, txId))) {
      return {
        ok: false,
        reason: 'not_confirmed',
        detail: `${txId} is known to the node but not yet indexed`,
      };
    }
    return { ok: false, reason: 'not_found', detail: `no transaction ${txId}` };
  }
  const txn = found.transaction;
  const round = txn.confirmedRound;
  if (round === undefined) {
    return { ok: false, reason: 'not_confirmed', detail: `${txId} has no confirmed round yet` };
  }
  const refuse = (reason: PaymentRefusal, detail: string): PaymentVerdict => ({
    ok: false,
    reason,
    detail: `${txId}: ${detail}`,
    sender: txn.sender,
    round,
  });

  const receiver = expected.receiver;
  const assetId = BigInt(expected.assetId);
  const xfer = txn.assetTransferTransaction;
  if (txn.txType !== 'axfer' || !xfer) {
    const inner = (txn.innerTxns ?? []).some((t) => t.assetTransferTransaction?.receiver === receiver);
    return inner
      ? refuse(
          'inner_transfer',
          'the transfer is an inner transaction of an app call, not a top-level transfer',
        )
      : refuse('wrong_type', `a ${txn.txType ?? 'unknown'} transaction, not an asset transfer`);
  }
  if (xfer.sender !== undefined) return refuse('clawback', `a clawback from ${xfer.sender}`);
  if (xfer.assetId !== assetId) return refuse('wrong_asset', `asset ${xfer.assetId}, expected ${assetId}`);
  if (xfer.receiver !== receiver)
    return refuse('wrong_receiver', `sent to ${xfer.receiver}, expected ${receiver}`);
  if (xfer.closeTo) return refuse('close_out', `closes the asset holding out to ${xfer.closeTo}`);
  if (xfer.amount !== expected.total) {
    return refuse('wrong_amount', `amount ${xfer.amount}, expected ${expected.total}`);
  }
  if (!sameBytes(txn.note, utf8.encode(expected.note))) {
    return refuse(
      'wrong_note',
      `note ${JSON.stringify(new TextDecoder().decode(txn.note ?? new Uint8Array()))}`,
    );
  }
  if (round <= expected.minRound) {
    return refuse(
      'too_early',
      `confirmed in round ${round}, at or before the order's start round ${expected.minRound}`,
    );
  }
  if (expected.sender !== undefined && txn.sender !== expected.sender) {
    return refuse('wrong_sender', `sent by ${txn.sender}, expected ${expected.sender}`);
  }
  const depth = found.currentRound - round + 1n;
  const needed = BigInt(expected.confirmations ?? 1);
  if (depth < needed) {
    return refuse('not_confirmed', `${depth} of ${needed} confirmations`);
  }
  return { ok: true, txId, sender: txn.sender, round, amount: xfer.amount };
}

async function isPendingOnNode(algod: algosdk.Algodv2, txId: string): Promise<boolean> {
  try {
    const pending = await algod.pendingTransactionInformation(txId).do();
    return pending.poolError === '';
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}
