/**
 * The stand-in's indexer routes: `/health`, `/v2/transactions` (address, address-role, asset-id,
 * tx-type, note-prefix, min-round, max-round, limit, next) and `/v2/transactions/{txid}`. Only
 * transactions at or below the head round are shown, ordered by round and place in the round.
 */
import type { ServerResponse } from 'node:http';
import algosdk from 'algosdk';
import { json, message } from './stand-in-http.js';
import { type FakeLedger, type Stored, toBytes } from './stand-in-ledger.js';

const { indexerModels } = algosdk;

/** Answers one indexer request. */
export function answerIndexer(ledger: FakeLedger, path: string, q: URLSearchParams, res: ServerResponse) {
  if (path === '/health') {
    return json(
      res,
      200,
      algosdk.encodeJSON(
        new indexerModels.HealthCheck({
          dbAvailable: true,
          isMigrating: false,
          message: String(ledger.head),
          round: ledger.head,
          version: 'fake',
        }),
      ),
    );
  }
  if (path === '/v2/transactions') return search(ledger, q, res);
  const m = /^\/v2\/transactions\/([^/]+)$/.exec(path);
  if (m) {
    const t = ledger.txns.find((x) => x.id === m[1] && ledger.isVisible(x));
    if (!t) return message(res, 404, `no transaction found for transaction id: ${m[1]}`);
    return json(
      res,
      200,
      algosdk.encodeJSON(
        new indexerModels.TransactionResponse({
          currentRound: ledger.head,
          transaction: ledger.indexerView(t),
        }),
      ),
    );
  }
  return message(res, 404, `no such indexer endpoint: ${path}`);
}

/** `/v2/transactions`: the matching transactions, a page at a time (`next` is the offset). */
function search(ledger: FakeLedger, q: URLSearchParams, res: ServerResponse) {
  const matched = ledger.txns
    .filter((t) => ledger.isVisible(t) && matchesSearch(t, q))
    .sort((a, b) => Number(a.round! - b.round!) || ledger.offsetInRound(a) - ledger.offsetInRound(b));
  const start = Number(q.get('next') ?? 0);
  const limit = Math.max(1, Math.min(Number(q.get('limit') ?? 1000), 1000));
  const page = matched.slice(start, start + limit);
  const more = start + limit < matched.length;
  return json(
    res,
    200,
    algosdk.encodeJSON(
      new indexerModels.TransactionsResponse({
        currentRound: ledger.head,
        transactions: page.map((t) => ledger.indexerView(t)),
        nextToken: more ? String(start + limit) : undefined,
      }),
    ),
  );
}

/** Whether a transaction (or one of its inner transactions) matches the search parameters. */
function matchesSearch(t: Stored, q: URLSearchParams): boolean {
  const v = t.view;
  const all = [v, ...(v.innerTxns ?? [])];
  const address = q.get('address');
  if (address && !matchesAddress(all, address, q.get('address-role'))) return false;
  const assetId = q.get('asset-id');
  if (assetId && !all.some((x) => x.assetTransferTransaction?.assetId === BigInt(assetId))) return false;
  const txType = q.get('tx-type');
  if (txType && !all.some((x) => x.txType === txType)) return false;
  const prefix = q.get('note-prefix');
  if (prefix) {
    const p = algosdk.base64ToBytes(prefix);
    const note = v.note instanceof Uint8Array ? v.note : toBytes(v.note);
    if (!note || note.length < p.length || !p.every((b, i) => b === note[i])) return false;
  }
  const minRound = q.get('min-round');
  if (minRound && t.round! < BigInt(minRound)) return false;
  const maxRound = q.get('max-round');
  if (maxRound && t.round! > BigInt(maxRound)) return false;
  return true;
}

type View = Stored['view'] | algosdk.indexerModels.Transaction;

/** The address receives (also as close-to) or sends, as `role` asks (either when unset). */
function matchesAddress(all: View[], address: string, role: string | null): boolean {
  const asReceiver = all.some(
    (x) =>
      x.assetTransferTransaction?.receiver === address ||
      x.assetTransferTransaction?.closeTo === address ||
      x.paymentTransaction?.receiver === address ||
      x.paymentTransaction?.closeRemainderTo === address,
  );
  const asSender = all.some((x) => x.sender === address || x.assetTransferTransaction?.sender === address);
  return role === 'receiver' ? asReceiver : role === 'sender' ? asSender : asReceiver || asSender;
}
