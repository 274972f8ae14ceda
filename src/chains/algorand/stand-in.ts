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
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import algosdk from 'algosdk';
import { answerAlgod } from './stand-in-algod.js';
import { message } from './stand-in-http.js';
import { answerIndexer } from './stand-in-indexer.js';
import {
  type FakeAccountInput,
  type FakeAlgoPaymentInput,
  type FakeAssetTransferInput,
  type FakeInnerTransferInput,
  FakeLedger,
} from './stand-in-ledger.js';

export type {
  FakeAccountInput,
  FakeAlgoPaymentInput,
  FakeAssetTransferInput,
  FakeInnerTransferInput,
} from './stand-in-ledger.js';

export interface FakeCall {
  service: 'algod' | 'indexer';
  method: string;
  /** Path without the service prefix, e.g. `/v2/transactions`. */
  path: string;
  query: Record<string, string>;
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

/** Starts the fake on a random port. */
export async function startFakeAlgorand(opts: FakeAlgorandOptions = {}): Promise<FakeAlgorand> {
  const ledger = new FakeLedger(opts.round ?? 1000);
  const calls: FakeCall[] = [];
  const server: Server = createServer((req, res) => serve(ledger, calls, opts, req, res));
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
    addAccount: (input: FakeAccountInput) => ledger.addAccount(input),
    addAssetTransfer: (input: FakeAssetTransferInput) => ledger.addAssetTransfer(input),
    addAlgoPayment: (input: FakeAlgoPaymentInput) => ledger.addAlgoPayment(input),
    addAppCallWithInnerTransfer: (input: FakeInnerTransferInput) => ledger.addAppCallWithInnerTransfer(input),
    setRound(round) {
      ledger.head = BigInt(round);
    },
    round: () => ledger.head,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** Records the request, checks the service's token, and routes it to algod or the indexer. */
function serve(
  ledger: FakeLedger,
  calls: FakeCall[],
  opts: FakeAlgorandOptions,
  req: IncomingMessage,
  res: ServerResponse,
) {
  const url = new URL(req.url ?? '/', 'http://fake');
  const [, service, ...rest] = url.pathname.split('/');
  const path = `/${rest.join('/')}`;
  if (service !== 'algod' && service !== 'indexer') return message(res, 404, 'unknown service');
  calls.push({ service, method: req.method ?? 'GET', path, query: Object.fromEntries(url.searchParams) });
  const [header, token] =
    service === 'algod' ? ['x-algo-api-token', opts.algodToken] : ['x-indexer-api-token', opts.indexerToken];
  if (token !== undefined && req.headers[header] !== token) return message(res, 401, 'Invalid API Token');
  if (req.method !== 'GET') return message(res, 405, 'method not allowed');
  try {
    if (service === 'algod') answerAlgod(ledger, path, url.searchParams, res);
    else answerIndexer(ledger, path, url.searchParams, res);
  } catch (err) {
    message(res, 500, err instanceof Error ? err.message : String(err));
  }
}
