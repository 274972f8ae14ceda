/**
 * A whole app slice for sell tests: the sandbox over HTTP (short settle), the real ramp client, the
 * engine over the production flows with a Redis store, the tracker, and wireSell (Redis intents,
 * sweep watcher, the signing routes on a real HTTP server). Chains: the in-process dev chain and/or
 * the fake algod + indexer.
 */

import type { RedisClientType } from 'redis';
import { createEngine } from '../../src/app/flows.js';
import type { AlgorandConfig } from '../../src/chains/algorand/index.js';
import type { DevChain, EvmNetworkConfig } from '../../src/chains/evm/index.js';
import { devNetworkConfig } from '../../src/chains/evm/index.js';
import type { OutMessage, Text, UserRef } from '../../src/chat/types.js';
import { envSchema, parseEnv } from '../../src/config/env.js';
import type { Engine } from '../../src/engine/index.js';
import type { Input } from '../../src/flows/types.js';
import { createHttpServer, type HttpServer } from '../../src/http/index.js';
import { loadI18n } from '../../src/i18n/index.js';
import { createLogger } from '../../src/log/logger.js';
import { createRampClient } from '../../src/ramp/index.js';
import type { RampClient } from '../../src/ramp/types.js';
import type { OrderJournal } from '../../src/recovery/index.js';
import { type Sandbox, type SandboxToken, startSandbox } from '../../src/sandbox/index.js';
import { checkDevDeposit, type SellEscalation, type WiredSell, wireSellParts } from '../../src/sell/index.js';
import { createRedisStore } from '../../src/store/index.js';
import { createTracker, type Tracker } from '../../src/tracker/index.js';
import type { Notifier } from '../../src/tracker/types.js';
import { recordingChannel } from '../engine/fixtures.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';
import { startFaultProxy } from './fault-proxy.js';

export const logger = createLogger({ level: (process.env.TEST_LOG_LEVEL as 'silent') ?? 'silent' });

export interface SellHarness {
  sandbox: Sandbox;
  ramp: RampClient;
  engine: Engine;
  channel: ReturnType<typeof recordingChannel>;
  tracker: Tracker;
  sell: WiredSell;
  http: HttpServer;
  escalations: SellEscalation[];
  network?: EvmNetworkConfig;
  redis: RedisClientType;
  prefix: string;
  /** Texts sent to a user, in order. */
  texts(user: UserRef): Text[];
  messages(user: UserRef): OutMessage[];
  say(user: UserRef, input: Input): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  devChain?: DevChain;
  confirmations?: number;
  escrowCall?: EvmNetworkConfig['escrowCall'];
  algorand?: AlgorandConfig;
  linkTtlMs?: number;
  pollIntervalMs?: number;
  graceMs?: number;
  /** How often the escrow is searched for an unreported deposit (SELL_SEARCH_INTERVAL_MS). */
  searchIntervalMs?: number;
  /** How long a filing without an outcome waits before it is reconciled (SELL_FILING_STALE_MS). */
  filingStaleMs?: number;
  /** The ramp client's timeout, and how long the sandbox takes to check a filed hash. */
  rampTimeoutMs?: number;
  verifyDelayMs?: number;
  /** Turns on the signing page's WalletConnect option. */
  walletConnectProjectId?: string;
  /** Where the WalletConnect files are fetched from (a local fake of the CDN). */
  walletConnectCdn?: string;
  /** Further RPC endpoints of the dev chain's network (verification then asks two). */
  fallbackRpcUrls?: string[];
  /** More settings, as environment variables (e.g. LIMIT_SELL_LINKS_PER_USER). */
  env?: Record<string, string>;
  /** The order journal the sell path writes (none by default). */
  journal?: OrderJournal;
  /** Requests to the sandbox whose answer is lost at the wire (502 after the sandbox acted). */
  loseAnswer?: (method: string, path: string) => boolean | 'unsent';
}

export async function startSellHarness(opts: HarnessOptions = {}): Promise<SellHarness> {
  const network = opts.devChain
    ? {
        ...devNetworkConfig(opts.devChain, { escrowCall: opts.escrowCall }),
        confirmations: opts.confirmations ?? 1,
        ...(opts.fallbackRpcUrls ? { fallbackRpcUrls: opts.fallbackRpcUrls } : {}),
      }
    : undefined;
  const tokens: SandboxToken[] = (network?.tokens ?? []).map((t) => ({
    network: network!.network,
    symbol: t.symbol,
    name: `${t.symbol} (dev)`,
    decimals: t.decimals,
    address: t.address,
    usd: 1,
  }));
  const sandbox = await startSandbox({
    port: 0,
    settleMs: 150,
    tokens,
    logger: logger as never,
    verifyOfframpHash: async (o) => {
      if (opts.verifyDelayMs) await new Promise((r) => setTimeout(r, opts.verifyDelayMs));
      if (o.chain === 'algorand' || !opts.devChain || !network) return undefined;
      return checkDevDeposit(opts.devChain, network, o);
    },
  });
  const proxy = opts.loseAnswer ? await startFaultProxy(sandbox.url, opts.loseAnswer) : undefined;
  const ramp = createRampClient({
    baseUrl: proxy?.url ?? sandbox.url,
    apiKey: sandbox.options.apiKey,
    apiSecret: sandbox.options.apiSecret,
    timeoutMs: opts.rampTimeoutMs ?? 5_000,
  });
  const redis = await connectTestRedis();
  const prefix = uniquePrefix('sell');
  // The deployment's marker, as the app's recovery gate sets it at start: this Redis is not "emptied".
  await redis.set(`${prefix}epoch`, String(Date.now()));
  const redisUrl = testRedisUrl();
  const config = parseEnv(envSchema, {
    REDIS_URL: redisUrl,
    HTTP_PORT: '0',
    SIGNING_LINK_TTL_MS: String(opts.linkTtlMs ?? 30 * 60_000),
    RAMP_PROJECT: 'rampchat-test',
    ...(opts.walletConnectProjectId ? { WALLETCONNECT_PROJECT_ID: opts.walletConnectProjectId } : {}),
    ...opts.env,
  });
  const channel = recordingChannel('telegram');
  let engineRef: Engine | undefined;
  const notifier: Notifier = { notify: (user, message) => engineRef!.notify(user, message) };
  const tracker = createTracker({
    ramp,
    notifier,
    logger,
    redisUrl,
    prefix,
    config: {
      pollIntervalMs: 60,
      onrampHorizonMs: 60_000,
      offrampHorizonMs: 60_000,
      concurrency: 10,
      project: 'rampchat-test',
      maxBackoffMs: 500,
      claimStaleMs: 1_500,
      lockDurationMs: 2_000,
    },
  });
  const store = await createRedisStore({ client: redis, prefix, flowTtlSeconds: 600 });
  const engine = createEngine({
    store,
    ramp,
    tracker,
    logger,
    config: { rateTolerancePct: 1, project: 'rampchat-test' },
    channels: [channel],
  });
  engineRef = engine;
  const http = createHttpServer({ health: async () => ({ ok: true, details: {} }), processMetrics: false });
  const { url: publicUrl } = await http.listen(0, '127.0.0.1');
  const escalations: SellEscalation[] = [];
  const sell = await wireSellParts(
    {
      config,
      logger,
      i18n: loadI18n(),
      ramp,
      engine,
      tracker,
      redis,
      http,
      publicUrl,
      prefix,
      ...(opts.journal ? { journal: opts.journal } : {}),
    },
    {
      env: {
        SELL_POLL_INTERVAL_MS: String(opts.pollIntervalMs ?? 200),
        SELL_GRACE_MS: String(opts.graceMs ?? 60_000),
        ...(opts.searchIntervalMs ? { SELL_SEARCH_INTERVAL_MS: String(opts.searchIntervalMs) } : {}),
        ...(opts.filingStaleMs ? { SELL_FILING_STALE_MS: String(opts.filingStaleMs) } : {}),
      },
      http,
      prefix,
      ...(opts.walletConnectCdn ? { walletConnectCdn: opts.walletConnectCdn } : {}),
      evmNetworks: network ? [network] : [],
      localDemo:
        opts.devChain && network
          ? {
              devChain: opts.devChain,
              network,
              devWallet: opts.devChain.walletClient(),
              sandboxOptions: {
                tokens,
                verifyOfframpHash: (o) => checkDevDeposit(opts.devChain!, network, o),
              },
              stop: async () => {},
            }
          : undefined,
      algorand: opts.algorand,
      onEscalate: async (c) => {
        escalations.push(c);
      },
    },
  );
  await tracker.start();
  const forUser = (user: UserRef) => channel.sent.filter((s) => s.userId === user.id);
  return {
    sandbox,
    ramp,
    engine,
    channel,
    tracker,
    sell,
    http,
    escalations,
    network,
    redis,
    prefix,
    texts: (user) => forUser(user).flatMap((s) => s.message.texts),
    messages: (user) => forUser(user).map((s) => s.message),
    say: (user, input) => engine.handle(user, input),
    async close() {
      await sell.stop();
      await tracker.stop();
      await engine.idle();
      await http.close();
      await flushPrefix(redis, prefix);
      await redis.quit();
      await proxy?.close();
      await sandbox.close();
    },
  };
}

let userSeq = 0;
/** A fresh chat user per test. */
export const newUser = (): UserRef => ({ channel: 'telegram', id: `${Date.now() % 1e6}${++userSeq}` });

export { waitFor } from '../helpers/wait.js';

/** The button with this label id in the last message that has one. */
export function findButton(h: SellHarness, user: UserRef, labelId: string): string {
  const messages = h.messages(user);
  for (let i = messages.length - 1; i >= 0; i--) {
    const b = messages[i]!.buttons?.flat().find((x) => x.label.id === labelId);
    if (b) return b.id;
  }
  throw new Error(`no button ${labelId}; texts: ${JSON.stringify(h.texts(user).map((t) => t.id))}`);
}

/** The args of the last text with this id. */
export function lastText(h: SellHarness, user: UserRef, id: string): Text | undefined {
  return h
    .texts(user)
    .filter((t) => t.id === id)
    .at(-1);
}
