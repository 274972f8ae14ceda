/**
 * The stand-in's algod routes: `/v2/status`, `/v2/accounts/{addr}`,
 * `/v2/accounts/{addr}/assets/{id}` and `/v2/transactions/pending/{txid}` (JSON, or msgpack when
 * asked with `format=msgpack`). Accounts have the base minimum balance plus one per opted-in asset.
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import algosdk from 'algosdk';
import { json, message, msgpack } from './stand-in-http.js';
import type { FakeLedger } from './stand-in-ledger.js';

const { modelsv2 } = algosdk;

/** Base minimum balance and the extra per opted-in asset, in microAlgos. */
const MIN_BALANCE = 100_000n;
const MIN_BALANCE_PER_ASSET = 100_000n;

/** Answers one algod request. */
export function answerAlgod(ledger: FakeLedger, path: string, q: URLSearchParams, res: ServerResponse) {
  if (path === '/v2/status') return status(ledger, res);
  let m = /^\/v2\/accounts\/([A-Z2-7]+)\/assets\/(\d+)$/.exec(path);
  if (m) return assetHolding(ledger, m[1]!, m[2]!, res);
  m = /^\/v2\/accounts\/([A-Z2-7]+)$/.exec(path);
  if (m) return account(ledger, m[1]!, q, res);
  m = /^\/v2\/transactions\/pending\/([A-Z2-7]+)$/.exec(path);
  if (m) return pending(ledger, m[1]!, q, res);
  return message(res, 404, `no such algod endpoint: ${path}`);
}

function status(ledger: FakeLedger, res: ServerResponse) {
  return json(
    res,
    200,
    algosdk.encodeJSON(
      new modelsv2.NodeStatusResponse({
        catchupTime: 0,
        lastRound: ledger.head,
        lastVersion: 'https://github.com/algorandfoundation/specs/tree/fake',
        nextVersion: 'https://github.com/algorandfoundation/specs/tree/fake',
        nextVersionRound: ledger.head + 1n,
        nextVersionSupported: true,
        stoppedAtUnsupportedRound: false,
        timeSinceLastRound: 1_000_000_000,
      }),
    ),
  );
}

function assetHolding(ledger: FakeLedger, address: string, id: string, res: ServerResponse) {
  if (!algosdk.isValidAddress(address)) return message(res, 400, 'failed to parse the address');
  const holding = ledger.accounts.get(address)?.assets?.find((a) => BigInt(a.assetId) === BigInt(id));
  if (!holding) return message(res, 404, 'account asset info not found');
  return json(
    res,
    200,
    algosdk.encodeJSON(
      new modelsv2.AccountAssetResponse({
        round: ledger.head,
        assetHolding: new modelsv2.AssetHolding({
          amount: holding.amount,
          assetId: BigInt(holding.assetId),
          isFrozen: holding.frozen ?? false,
        }),
      }),
    ),
  );
}

function account(ledger: FakeLedger, address: string, q: URLSearchParams, res: ServerResponse) {
  if (!algosdk.isValidAddress(address)) return message(res, 400, 'failed to parse the address');
  const acct = ledger.accounts.get(address);
  const assets = acct?.assets ?? [];
  const amount = acct?.microAlgos ?? 0n;
  return json(
    res,
    200,
    algosdk.encodeJSON(
      new modelsv2.Account({
        address,
        amount,
        amountWithoutPendingRewards: amount,
        minBalance: acct ? MIN_BALANCE + MIN_BALANCE_PER_ASSET * BigInt(assets.length) : MIN_BALANCE,
        pendingRewards: 0,
        rewards: 0,
        round: ledger.head,
        status: 'Offline',
        totalAppsOptedIn: 0,
        totalAssetsOptedIn: assets.length,
        totalCreatedApps: 0,
        totalCreatedAssets: 0,
        assets:
          q.get('exclude') === 'all'
            ? undefined
            : assets.map(
                (a) =>
                  new modelsv2.AssetHolding({
                    amount: a.amount,
                    assetId: BigInt(a.assetId),
                    isFrozen: a.frozen ?? false,
                  }),
              ),
      }),
    ),
  );
}

function pending(ledger: FakeLedger, id: string, q: URLSearchParams, res: ServerResponse) {
  const t = ledger.txns.find((x) => x.id === id);
  if (!t) return message(res, 404, 'txn does not exist');
  const response = new modelsv2.PendingTransactionResponse({
    poolError: '',
    txn: new algosdk.SignedTransaction({ txn: t.txn, sig: randomBytes(64) }),
    confirmedRound: ledger.isVisible(t) ? t.round : undefined,
  });
  if (q.get('format') === 'msgpack') return msgpack(res, algosdk.encodeMsgpack(response));
  return json(res, 200, algosdk.encodeJSON(response));
}
