/**
 * Sellers in `npm run chaos`: a dev chain (hardhat, the test escrow) stands in for Polygon, with a
 * fault proxy between the app and its RPC (5xx, hangs past viem's timeout, bodies that are not JSON,
 * and a node that does not know a transaction yet). Each seller has a wallet of their own, walks
 * `/sell` to Confirm, takes the calls from the signing page's own API (`/sign/<token>/tx`), signs
 * them on the chain and then, as real sellers do: the page reports the hash, or the page is closed
 * before it can (nobody reports it), or a link holder first posts ten junk hashes, or the seller
 * pastes the hash in chat. A share of them sells USDC on Algorand instead, on the algod + indexer
 * stand-in (behind a fault proxy as well): they pay the service wallet with the sale's note from an
 * account of their own, and the app finds the payment by its note (some also paste the transaction
 * id). The ramp sandbox checks filed hashes on the chains itself.
 *
 * Checked from outside: every deposit that reached the escrow ends in an off-ramp order or a support
 * case naming it; no sale filed twice; every seller who deposited gets a final message.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import algosdk from 'algosdk';
import { type Address, bytesToHex, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { type FakeAlgorand, startFakeAlgorand, USDC_ASSET_ID } from '../src/chains/algorand/index.js';
import {
  type DevChain,
  devNetworkConfig,
  type EvmNetworkConfig,
  startDevChain,
} from '../src/chains/evm/index.js';
import type { SandboxOptions } from '../src/sandbox/index.js';
import { checkDevDeposit, checkStandInPayment, standInAlgorand } from '../src/sell/local/local.js';
import { DEV_CHAIN_CONTRACTS, localDemoSandboxTokens } from '../src/sell/local/local-tokens.js';
import { freePort } from '../test/helpers/redis-server.js';
import { forward, readBody, sleep } from './harness.js';

/** How a seller's deposit reaches the app. */
export type SellerMode = 'page' | 'closed' | 'junk' | 'paste';

export interface Seller {
  chat: number;
  chain: 'polygon' | 'algorand';
  phone: string;
  kes: number;
  /** EVM: the wallet's key and address; Algorand: an account of the stand-in (no key needed). */
  key: Hex;
  address: string;
  mode: SellerMode;
  confirmed: boolean;
  link?: string;
  hash?: string;
}

/** Fault rates at the chain's RPC, as the app sees it. */
export interface RpcFaults {
  error5xx: number;
  hang: number;
  garbage: number;
  /** `eth_getTransaction*` answered `null`, as a node that has not seen the transaction yet. */
  unknownTx: number;
}

/** viem's http transport gives up after 10 s: a hang lasts longer. */
const HANG_MS = 11_000;

/**
 * A chain's node behind faults: 5xx, hangs past the client's timeout, bodies that are not JSON, and
 * (JSON-RPC only) a transaction lookup answered `null`, as from a node that has not seen it yet.
 */
async function startFaultProxy(port: number, rate: RpcFaults, random: () => number) {
  const counts = { proxied: 0, faults: 0 };
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    counts.proxied += 1;
    const body = await readBody(req);
    const roll = random();
    let edge = rate.error5xx;
    if (roll < edge) {
      counts.faults += 1;
      res.writeHead(503, { 'content-type': 'text/plain' });
      return res.end('upstream unavailable');
    }
    edge += rate.hang;
    if (roll < edge) {
      counts.faults += 1;
      await sleep(HANG_MS);
      return res.destroy();
    }
    edge += rate.garbage;
    if (roll < edge) {
      counts.faults += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"result":');
    }
    const lookup = roll < edge + rate.unknownTx ? transactionLookup(body) : undefined;
    if (lookup) {
      counts.faults += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ jsonrpc: '2.0', id: lookup.id ?? null, result: null }));
    }
    const answer = await forward(port, req, body);
    if (!answer) {
      res.writeHead(502);
      return res.end();
    }
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  });
  const own = await freePort();
  await new Promise<void>((r) => server.listen(own, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${own}`,
    counts,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A single JSON-RPC call looking up a transaction or its receipt, or undefined. */
function transactionLookup(body: Buffer): { id?: unknown } | undefined {
  try {
    const call = JSON.parse(body.toString('utf8')) as { id?: unknown; method?: unknown };
    return !Array.isArray(call) && /^eth_getTransaction(ByHash|Receipt)$/.test(String(call.method))
      ? call
      : undefined;
  } catch {
    return undefined;
  }
}

export interface SellChain {
  chain: DevChain;
  network: EvmNetworkConfig;
  /** The Algorand stand-in (its rounds advance once a second). */
  algorand: FakeAlgorand;
  /** What the sandbox needs: the dev tokens and the hash check on the chain (not through the proxy). */
  sandboxOptions: Pick<SandboxOptions, 'tokens' | 'verifyOfframpHash'>;
  /** Settings for the app: the dev chain as Polygon, reached through the fault proxy. */
  appEnv: Record<string, string>;
  rpc: { proxied: number; faults: number };
  close(): Promise<void>;
}

/** Starts the dev chain, its RPC fault proxy and a miner (one block a second, for confirmations). */
export async function startSellChain(faults: RpcFaults, random: () => number): Promise<SellChain> {
  const chain = await startDevChain({ accountCount: 3, sameTimestampBlocks: true });
  if (chain.escrow !== DEV_CHAIN_CONTRACTS.escrow || chain.tokens.usdt !== DEV_CHAIN_CONTRACTS.usdt)
    throw new Error('the dev chain deployed to other addresses than the sandbox lists');
  const network = devNetworkConfig(chain);
  const proxy = await startFaultProxy(Number(new URL(chain.rpcUrl).port), faults, random);
  const standIn = await startFakeAlgorand({ round: 1000 });
  const algoProxy = await startFaultProxy(standIn.port, { ...faults, unknownTx: 0 }, random);
  const local = standInAlgorand(standIn, '', 3);
  let mining = true;
  const miner = (async () => {
    while (mining) {
      await sleep(1_000);
      await chain.request('evm_mine').catch(() => undefined);
      standIn.setRound(standIn.round() + 1n);
    }
  })();
  return {
    chain,
    network,
    sandboxOptions: {
      tokens: localDemoSandboxTokens('polygon'),
      verifyOfframpHash: (o) =>
        o.chain === 'algorand' ? checkStandInPayment(local, o) : checkDevDeposit(chain, network, o),
    },
    appEnv: {
      EVM_POLYGON_ESCROW: chain.escrow,
      EVM_POLYGON_RPC_URL: proxy.url,
      EVM_POLYGON_CHAIN_ID: String(chain.chainId),
      EVM_POLYGON_CONFIRMATIONS: '3',
      EVM_POLYGON_TOKENS: `USDT:${chain.tokens.usdt}:6`,
      SELL_POLL_INTERVAL_MS: '1000',
      SELL_SEARCH_INTERVAL_MS: '5000',
      SIGNING_LINK_TTL_MS: '180000',
      SELL_GRACE_MS: '60000',
      SELL_ALGORAND_ENABLED: '1',
      ALGOD_URL: `${algoProxy.url}/algod`,
      INDEXER_URL: `${algoProxy.url}/indexer`,
      ALGORAND_CONFIRMATIONS: '3',
    },
    algorand: standIn,
    rpc: {
      get proxied() {
        return proxy.counts.proxied + algoProxy.counts.proxied;
      },
      get faults() {
        return proxy.counts.faults + algoProxy.counts.faults;
      },
    },
    async close() {
      mining = false;
      await miner;
      await proxy.close();
      await algoProxy.close();
      await chain.close();
      await standIn.close();
    },
  };
}

/**
 * Sellers with funded wallets of their own: on Polygon gas and 100 test USDT each; a quarter on
 * Algorand with ALGO and 100 USDC.
 */
export async function makeSellers(
  sell: SellChain,
  p: { count: number; firstChat: number; random: () => number },
): Promise<Seller[]> {
  const { chain } = sell;
  const funder = chain.walletClient(chain.accounts[0]!);
  const sellers: Seller[] = [];
  for (let i = 0; i < p.count; i++) {
    const key = bytesToHex(Uint8Array.from({ length: 32 }, () => Math.floor(p.random() * 256))) as Hex;
    const onAlgorand = p.random() < 0.25;
    const address = onAlgorand
      ? algosdk.encodeAddress(Uint8Array.from({ length: 32 }, () => Math.floor(p.random() * 256)))
      : privateKeyToAccount(key).address;
    const r = p.random();
    // Algorand payments are found by their note: the page plays no part, some paste the id.
    const mode: SellerMode = onAlgorand
      ? r < 0.8
        ? 'closed'
        : 'paste'
      : r < 0.6
        ? 'page'
        : r < 0.8
          ? 'closed'
          : r < 0.9
            ? 'junk'
            : 'paste';
    const amounts = [500, 1000, 2500, 5000];
    sellers.push({
      chat: p.firstChat + i,
      chain: onAlgorand ? 'algorand' : 'polygon',
      phone: `07${String(2000 + i).slice(-4)}5678`,
      kes: amounts[Math.floor(p.random() * amounts.length)]!,
      key,
      address,
      mode,
      confirmed: false,
    });
    if (onAlgorand) {
      sell.algorand.addAccount({
        address,
        microAlgos: 10_000_000n,
        assets: [{ assetId: USDC_ASSET_ID, amount: 100_000_000n }],
      });
      continue;
    }
    await funder.sendTransaction({ to: address as Address, value: 10n ** 18n });
    await chain.mintTokens(chain.tokens.usdt, address as Address, 100_000_000n);
  }
  return sellers;
}

type Call = { to: Address; data: Hex };

/** Answers of 404 to a seller's valid link (a half-wired replica, or a sale Redis lost): none is right. */
export const linkAnswers = { notFound: 0 };

/** A request to the app through the balancer, tried again while replicas die and come back. */
async function persist(url: string, init: RequestInit = {}, tries = 30): Promise<Response | undefined> {
  for (let i = 0; i < tries; i++) {
    try {
      const res = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
      if (res.status === 404) linkAnswers.notFound += 1;
      if (res.status < 500) return res;
    } catch {
      // A killed replica or the balancer's 502: try again.
    }
    await sleep(1_000);
  }
  return undefined;
}

const junkHash = (random: () => number) =>
  `0x${Array.from({ length: 64 }, () => Math.floor(random() * 16).toString(16)).join('')}`;

/**
 * The seller's side once the link is in the chat: the calls from the page's API, signed on the chain,
 * then reported as the seller's mode says. Records the hash once the deposit is mined.
 */
export async function depositAndReport(
  chain: DevChain,
  s: Seller,
  p: { random: () => number; paste: (text: string) => Promise<void> },
): Promise<void> {
  if (!s.link) return;
  const served = await persist(`${s.link}/tx?from=${s.address}`);
  if (served?.status !== 200) return;
  const calls = (await served.json()) as { approve: Call; withdraw: Call; allowance: string; total: string };
  const wallet = chain.walletClient(s.key);
  if (BigInt(calls.allowance) < BigInt(calls.total))
    await chain.publicClient.waitForTransactionReceipt({
      hash: await wallet.sendTransaction({ ...calls.approve, value: 0n }),
    });
  const hash = await wallet.sendTransaction({ ...calls.withdraw, value: 0n });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') return;
  s.hash = hash.toLowerCase();
  const post = (h: string) =>
    persist(`${s.link}/hash`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hash: h }),
    });
  if (s.mode === 'junk') for (let i = 0; i < 10; i++) await post(junkHash(p.random));
  if (s.mode === 'page' || s.mode === 'junk') await post(hash);
  if (s.mode === 'paste') await p.paste(hash);
}

/** Fluent's isolation marks around placeables, which a person copying the text does not see. */
const plain = (t: string) => t.replace(/[\u2068\u2069]/g, '');

/** An Algorand sale's payment request in the seller's chat: the total, the receiver and the note. */
export function algorandRequest(
  texts: readonly string[],
): { total: string; receiver: string; note: string } | undefined {
  const all = texts.map(plain).join('\n');
  const pay = /Send exactly ([\d.]+) USDC on Algorand to ([A-Z2-7]{58})/.exec(all);
  const note = /Use the note (\S+) exactly/.exec(all);
  return pay && note ? { total: pay[1]!, receiver: pay[2]!, note: note[1]! } : undefined;
}

/** The Algorand seller pays from their account on the stand-in, then maybe pastes the id in chat. */
export async function payOnAlgorand(
  sell: SellChain,
  s: Seller,
  request: { total: string; receiver: string; note: string },
  paste: (text: string) => Promise<void>,
): Promise<void> {
  const [whole, frac = ''] = request.total.split('.');
  const units = BigInt(whole!) * 1_000_000n + BigInt(`${frac}000000`.slice(0, 6));
  s.hash = sell.algorand.addAssetTransfer({
    sender: s.address,
    receiver: request.receiver,
    assetId: USDC_ASSET_ID,
    amount: units,
    note: request.note,
    // Confirmed in the next round, as a transaction sent now is (the sale's own round is before it).
    round: sell.algorand.round() + 1n,
  });
  if (s.mode === 'paste') await paste(s.hash);
}

/** The link in the seller's chat, if it came. */
export const linkIn = (texts: readonly string[]): string | undefined => {
  for (const t of texts) {
    const m = /(https?:\/\/[^\s]+\/sign\/[A-Za-z0-9_-]+)/.exec(t);
    if (m) return m[1];
  }
  return undefined;
};

/** A message that ends a sale whose tokens reached the escrow. */
export const sellFinalText =
  /M-Pesa receipt|payout of KES .* failed|taking longer than it should|support team has been alerted|alerted our support team/;
