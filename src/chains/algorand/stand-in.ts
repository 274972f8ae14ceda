/**
 * A local stand-in for an Algorand node (algod) and indexer (the tests' fake, and local mode's
 * offline Algorand for the sell demo), answering in algosdk's own wire
 * encodings: responses are algosdk model objects serialised with `algosdk.encodeJSON` (or
 * `encodeMsgpack` where algosdk asks for `format=msgpack`), so what real algosdk decodes here is
 * exactly what it decodes from a real node. Transaction ids are real: each transfer is built as an
 * algosdk transaction and its `txID()` is used.
 *
 * Rounds: `setRound(n)` moves the chain head. A transaction with a round above the head (or with
 * no round) is still pending: algod's pending endpoint knows it, the indexer does not.
 *
 * Endpoints: algod `/v2/status`, `/v2/accounts/{addr}`, `/v2/accounts/{addr}/assets/{id}`,
 * `/v2/transactions/pending/{txid}` (msgpack); indexer `/health`, `/v2/transactions` (address,
 * address-role, asset-id, tx-type, note-prefix, min-round, max-round, limit, next) and
 * `/v2/transactions/{txid}`.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import algosdk from 'algosdk';

const { indexerModels, modelsv2 } = algosdk;

const GENESIS_ID = 'mainnet-v1.0';
const GENESIS_HASH = algosdk.base64ToBytes('wGHE2Pwdvd7S12BL5FaOP20EGYesN73ktiC1qzkkit8=');
/** Base minimum balance and the extra per opted-in asset, in microAlgos. */
const MIN_BALANCE = 100_000n;
const MIN_BALANCE_PER_ASSET = 100_000n;

export interface FakeAccountInput {
  address: string;
  microAlgos: bigint;
  /** Opted-in assets; an asset absent here is not opted in. */
  assets?: Array<{ assetId: bigint | number; amount: bigint; frozen?: boolean }>;
}

export interface FakeAssetTransferInput {
  sender: string;
  receiver: string;
  assetId: bigint | number;
  amount: bigint;
  note?: string | Uint8Array;
  /** Confirmed round; omitted or above the head = still pending. */
  round?: bigint | number;
  /** Asset close-to address (closes the sender's holding). */
  closeTo?: string;
  /** Makes it a clawback: the asset is taken from this account, `sender` is the clawback. */
  clawbackFrom?: string;
  /** Override the generated id (must still be 52 base32 characters to be found by verifiers). */
  id?: string;
}

export interface FakeAlgoPaymentInput {
  sender: string;
  receiver: string;
  microAlgos: bigint;
  note?: string | Uint8Array;
  round?: bigint | number;
}

export interface FakeInnerTransferInput {
  /** Account calling the app. */
  sender: string;
  appId: bigint | number;
  /** The asset transfer the app makes as an inner transaction. */
  inner: { receiver: string; assetId: bigint | number; amount: bigint; note?: string | Uint8Array };
  note?: string | Uint8Array;
  round?: bigint | number;
}

export interface FakeCall {
  service: 'algod' | 'indexer';
  method: string;
  /** Path without the service prefix, e.g. `/v2/transactions`. */
  path: string;
  query: Record<string, string>;
}

interface Stored {
  id: string;
  round?: bigint;
  /** The transaction as a node holds it (for algod's pending endpoint). */
  txn: algosdk.Transaction;
  /** The transaction as the indexer shows it, without round fields (added when served). */
  view: Omit<ConstructorParameters<typeof indexerModels.Transaction>[0], 'confirmedRound' | 'roundTime'>;
}

export interface FakeAlgorand {
  /** Base URL of the fake algod, e.g. `http://127.0.0.1:PORT/algod`. */
  algodUrl: string;
  /** Base URL of the fake indexer, e.g. `http://127.0.0.1:PORT/indexer`. */
  indexerUrl: string;
  port: number;
  /** Every request received, in order. */
  calls: FakeCall[];
  /** algosdk clients pointed at the fake (port passed explicitly; see below). */
  algod(token?: string): algosdk.Algodv2;
  indexer(token?: string): algosdk.Indexer;
  addAccount(input: FakeAccountInput): void;
  /** Adds an asset transfer; returns its transaction id. */
  addAssetTransfer(input: FakeAssetTransferInput): string;
  addAlgoPayment(input: FakeAlgoPaymentInput): string;
  addAppCallWithInnerTransfer(input: FakeInnerTransferInput): string;
  setRound(round: bigint | number): void;
  round(): bigint;
  close(): Promise<void>;
}

export interface FakeAlgorandOptions {
  /** Head round at start; default 1000. */
  round?: bigint | number;
  /** When set, algod requests must carry it in X-Algo-API-Token (else 401). */
  algodToken?: string;
  /** When set, indexer requests must carry it in X-Indexer-API-Token (else 401). */
  indexerToken?: string;
}

const toBytes = (note: string | Uint8Array | undefined) =>
  note === undefined ? undefined : typeof note === 'string' ? new TextEncoder().encode(note) : note;

/** Starts the fake on a random port. */
export async function startFakeAlgorand(opts: FakeAlgorandOptions = {}): Promise<FakeAlgorand> {
  let head = BigInt(opts.round ?? 1000);
  let seq = 0;
  const accounts = new Map<string, FakeAccountInput>();
  const txns: Stored[] = [];
  const calls: FakeCall[] = [];

  const suggested = (round: bigint | undefined): algosdk.SuggestedParams => {
    seq += 1;
    const anchor = round ?? head;
    // A distinct validity window per transaction keeps ids unique even for identical transfers.
    const firstValid = anchor > BigInt(seq) ? anchor - BigInt(seq) : 1n;
    return {
      flatFee: true,
      fee: 1000,
      minFee: 1000,
      firstValid,
      lastValid: firstValid + 1000n,
      genesisID: GENESIS_ID,
      genesisHash: GENESIS_HASH,
    };
  };
  const common = (txn: algosdk.Transaction, id: string) => ({
    fee: txn.fee,
    firstValid: txn.firstValid,
    lastValid: txn.lastValid,
    sender: txn.sender.toString(),
    genesisHash: GENESIS_HASH,
    genesisId: GENESIS_ID,
    id,
    note: txn.note.length > 0 ? txn.note : undefined,
    signature: new indexerModels.TransactionSignature({ sig: randomBytes(64) }),
  });
  const store = (txn: algosdk.Transaction, view: Stored['view'], round?: bigint | number) => {
    txns.push({ id: view.id!, round: round === undefined ? undefined : BigInt(round), txn, view });
    return view.id!;
  };

  const isVisible = (t: Stored) => t.round !== undefined && t.round <= head;
  const indexerView = (t: Stored, intraRoundOffset: number) =>
    new indexerModels.Transaction({
      ...t.view,
      confirmedRound: t.round,
      roundTime: 1_700_000_000 + Number(t.round ?? 0n) * 3,
      intraRoundOffset,
    });

  const matchesSearch = (t: Stored, q: URLSearchParams): boolean => {
    const v = t.view;
    const all = [v, ...(v.innerTxns ?? [])];
    const address = q.get('address');
    if (address) {
      const role = q.get('address-role');
      const asReceiver = all.some(
        (x) =>
          x.assetTransferTransaction?.receiver === address ||
          x.assetTransferTransaction?.closeTo === address ||
          x.paymentTransaction?.receiver === address ||
          x.paymentTransaction?.closeRemainderTo === address,
      );
      const asSender = all.some(
        (x) => x.sender === address || x.assetTransferTransaction?.sender === address,
      );
      if (role === 'receiver' ? !asReceiver : role === 'sender' ? !asSender : !(asReceiver || asSender))
        return false;
    }
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
  };

  const offsetInRound = (t: Stored) => txns.filter((x) => x.round === t.round).indexOf(t);

  function answerAlgod(path: string, q: URLSearchParams, res: ServerResponse) {
    if (path === '/v2/status') {
      return json(
        res,
        200,
        algosdk.encodeJSON(
          new modelsv2.NodeStatusResponse({
            catchupTime: 0,
            lastRound: head,
            lastVersion: 'https://github.com/algorandfoundation/specs/tree/fake',
            nextVersion: 'https://github.com/algorandfoundation/specs/tree/fake',
            nextVersionRound: head + 1n,
            nextVersionSupported: true,
            stoppedAtUnsupportedRound: false,
            timeSinceLastRound: 1_000_000_000,
          }),
        ),
      );
    }
    let m = /^\/v2\/accounts\/([A-Z2-7]+)\/assets\/(\d+)$/.exec(path);
    if (m) {
      const [, address, id] = m as unknown as [string, string, string];
      if (!algosdk.isValidAddress(address)) return message(res, 400, 'failed to parse the address');
      const holding = accounts.get(address)?.assets?.find((a) => BigInt(a.assetId) === BigInt(id));
      if (!holding) return message(res, 404, 'account asset info not found');
      return json(
        res,
        200,
        algosdk.encodeJSON(
          new modelsv2.AccountAssetResponse({
            round: head,
            assetHolding: new modelsv2.AssetHolding({
              amount: holding.amount,
              assetId: BigInt(holding.assetId),
              isFrozen: holding.frozen ?? false,
            }),
          }),
        ),
      );
    }
    m = /^\/v2\/accounts\/([A-Z2-7]+)$/.exec(path);
    if (m) {
      const address = m[1]!;
      if (!algosdk.isValidAddress(address)) return message(res, 400, 'failed to parse the address');
      const acct = accounts.get(address);
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
            round: head,
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
    m = /^\/v2\/transactions\/pending\/([A-Z2-7]+)$/.exec(path);
    if (m) {
      const t = txns.find((x) => x.id === m![1]);
      if (!t) return message(res, 404, 'txn does not exist');
      const response = new modelsv2.PendingTransactionResponse({
        poolError: '',
        txn: new algosdk.SignedTransaction({ txn: t.txn, sig: randomBytes(64) }),
        confirmedRound: isVisible(t) ? t.round : undefined,
      });
      if (q.get('format') === 'msgpack') return msgpack(res, algosdk.encodeMsgpack(response));
      return json(res, 200, algosdk.encodeJSON(response));
    }
    return message(res, 404, `no such algod endpoint: ${path}`);
  }

  function answerIndexer(path: string, q: URLSearchParams, res: ServerResponse) {
    if (path === '/health') {
      return json(
        res,
        200,
        algosdk.encodeJSON(
          new indexerModels.HealthCheck({
            dbAvailable: true,
            isMigrating: false,
            message: String(head),
            round: head,
            version: 'fake',
          }),
        ),
      );
    }
    if (path === '/v2/transactions') {
      const matched = txns
        .filter((t) => isVisible(t) && matchesSearch(t, q))
        .sort((a, b) => Number(a.round! - b.round!) || offsetInRound(a) - offsetInRound(b));
      const start = Number(q.get('next') ?? 0);
      const limit = Math.max(1, Math.min(Number(q.get('limit') ?? 1000), 1000));
      const page = matched.slice(start, start + limit);
      const more = start + limit < matched.length;
      return json(
        res,
        200,
        algosdk.encodeJSON(
          new indexerModels.TransactionsResponse({
            currentRound: head,
            transactions: page.map((t) => indexerView(t, offsetInRound(t))),
            nextToken: more ? String(start + limit) : undefined,
          }),
        ),
      );
    }
    const m = /^\/v2\/transactions\/([^/]+)$/.exec(path);
    if (m) {
      const t = txns.find((x) => x.id === m[1] && isVisible(x));
      if (!t) return message(res, 404, `no transaction found for transaction id: ${m[1]}`);
      return json(
        res,
        200,
        algosdk.encodeJSON(
          new indexerModels.TransactionResponse({
            currentRound: head,
            transaction: indexerView(t, offsetInRound(t)),
          }),
        ),
      );
    }
    return message(res, 404, `no such indexer endpoint: ${path}`);
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const [, service, ...rest] = url.pathname.split('/');
    const path = `/${rest.join('/')}`;
    if (service !== 'algod' && service !== 'indexer') return message(res, 404, 'unknown service');
    calls.push({ service, method: req.method ?? 'GET', path, query: Object.fromEntries(url.searchParams) });
    const [header, token] =
      service === 'algod'
        ? ['x-algo-api-token', opts.algodToken]
        : ['x-indexer-api-token', opts.indexerToken];
    if (token !== undefined && req.headers[header] !== token) return message(res, 401, 'Invalid API Token');
    if (req.method !== 'GET') return message(res, 405, 'method not allowed');
    try {
      if (service === 'algod') answerAlgod(path, url.searchParams, res);
      else answerIndexer(path, url.searchParams, res);
    } catch (err) {
      message(res, 500, err instanceof Error ? err.message : String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;

  return {
    algodUrl: `${base}/algod`,
    indexerUrl: `${base}/indexer`,
    port,
    calls,
    // algosdk replaces the URL's port with its `port` argument ('' means 80; the Indexer's default
    // is 8080), so the real port goes in explicitly.
    algod: (token = opts.algodToken ?? '') => new algosdk.Algodv2(token, `${base}/algod`, port),
    indexer: (token = opts.indexerToken ?? '') => new algosdk.Indexer(token, `${base}/indexer`, port),
    addAccount(input) {
      if (!algosdk.isValidAddress(input.address)) throw new TypeError(`bad address ${input.address}`);
      accounts.set(input.address, input);
    },
    addAssetTransfer(input) {
      const txn = algosdk.makeAssetTransferTxnWithSuggestedParamsFromObject({
        sender: input.sender,
        receiver: input.receiver,
        amount: input.amount,
        assetIndex: input.assetId,
        note: toBytes(input.note),
        closeRemainderTo: input.closeTo,
        assetSender: input.clawbackFrom,
        suggestedParams: suggested(input.round === undefined ? undefined : BigInt(input.round)),
      });
      const id = input.id ?? txn.txID();
      return store(
        txn,
        {
          ...common(txn, id),
          txType: 'axfer',
          assetTransferTransaction: new indexerModels.TransactionAssetTransfer({
            amount: input.amount,
            assetId: input.assetId,
            receiver: input.receiver,
            closeTo: input.closeTo,
            closeAmount: input.closeTo ? 0n : undefined,
            sender: input.clawbackFrom,
          }),
        },
        input.round,
      );
    },
    addAlgoPayment(input) {
      const txn = algosdk.makePaymentTxnWithSuggestedParamsFromObject({
        sender: input.sender,
        receiver: input.receiver,
        amount: input.microAlgos,
        note: toBytes(input.note),
        suggestedParams: suggested(input.round === undefined ? undefined : BigInt(input.round)),
      });
      const id = txn.txID();
      return store(
        txn,
        {
          ...common(txn, id),
          txType: 'pay',
          paymentTransaction: new indexerModels.TransactionPayment({
            amount: input.microAlgos,
            receiver: input.receiver,
          }),
        },
        input.round,
      );
    },
    addAppCallWithInnerTransfer(input) {
      const txn = algosdk.makeApplicationNoOpTxnFromObject({
        sender: input.sender,
        appIndex: input.appId,
        note: toBytes(input.note),
        suggestedParams: suggested(input.round === undefined ? undefined : BigInt(input.round)),
      });
      const id = txn.txID();
      const appAddress = algosdk.getApplicationAddress(input.appId).toString();
      const inner = new indexerModels.Transaction({
        fee: 0,
        firstValid: txn.firstValid,
        lastValid: txn.lastValid,
        sender: appAddress,
        txType: 'axfer',
        note: toBytes(input.inner.note),
        confirmedRound: input.round,
        assetTransferTransaction: new indexerModels.TransactionAssetTransfer({
          amount: input.inner.amount,
          assetId: input.inner.assetId,
          receiver: input.inner.receiver,
        }),
      });
      return store(
        txn,
        {
          ...common(txn, id),
          txType: 'appl',
          applicationTransaction: new indexerModels.TransactionApplication({
            applicationId: input.appId,
            onCompletion: 'noop',
          }),
          innerTxns: [inner],
        },
        input.round,
      );
    },
    setRound(round) {
      head = BigInt(round);
    },
    round: () => head,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

function json(res: ServerResponse, status: number, body: string) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(body);
}

function msgpack(res: ServerResponse, body: Uint8Array) {
  res.writeHead(200, { 'content-type': 'application/msgpack' });
  res.end(Buffer.from(body));
}

function message(res: ServerResponse, status: number, text: string) {
  json(res, status, JSON.stringify({ message: text }));
}
