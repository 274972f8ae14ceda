/**
 * Selling (off-ramp) end to end: the pure sell flow (./flow.ts, registered in the flow table), the
 * sell service (intents, verification, filing), the watcher, the signing page routes and the local
 * dev-chain demo. `wireSell(parts)` plugs it all into a running app and returns how to stop it.
 *
 * Where things are: ./flow/ (the conversation's parts, pure), ./intents/ (what a sale binds, its
 * states, creating and cancelling), ./chain/ (a reported or searched deposit checked on chain, the
 * watcher), ./filing/ (the ramp order, recovery of lost and doubted filings), ./local/ (the dev
 * chain and dev wallet). At the top: this file, the service that assembles the steps, what every step
 * takes (context.ts), the flow, the settings and the lazy local start the app imports.
 */

import { type AlgorandConfig, createAlgorandClients, loadAlgorandConfig } from '../chains/algorand/index.js';
import {
  createEvmPublicClient,
  createEvmVerifierClients,
  type EvmNetworkConfig,
  loadEvmNetworks,
} from '../chains/evm/index.js';
import { parseEnv } from '../config/env.js';
import type { HttpServer } from '../http/index.js';
import { createMemoryLimiter, createRedisLimiter } from '../limits/index.js';
import { recoveryPending } from '../recovery/index.js';
import { signingRoutes } from '../signing/routes.js';
import { walletConnectRoute } from '../signing/walletconnect.js';
import { createSellWatcher } from './chain/watcher.js';
import { registerSellEffects } from './effects.js';
import { createMemoryIntentStore, createRedisIntentStore } from './intents/intents.js';
import { createDevSigner } from './local/devsign.js';
import type { LocalSellDemo } from './local/local.js';
import type { SellParts } from './parts.js';
import { createSellService, type SellEscalation, type SellService } from './service.js';
import { sellEnvSchema } from './settings.js';

export { createRedisIntentStore, type SellIntent } from './intents/intents.js';
export { checkDevDeposit } from './local/local.js';
export { createSellService, type SellEscalation, type SellService } from './service.js';

export interface WireSellOptions {
  /** Where EVM_*, ALGOD_*, ALGORAND_* and SELL_* are read from (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Where the pinned WalletConnect files are fetched from (default the jsDelivr release; tests). */
  walletConnectCdn?: string;
  /** Overrides `parts.http` (the server `/sign/*` is mounted on). */
  http?: HttpServer;
  /** Overrides `parts.publicUrl` (the base of signing links). */
  publicUrl?: string;
  /** Local mode: the dev chain from startLocalSellDemo (refused when a real EVM network is configured). */
  localDemo?: LocalSellDemo;
  /** Support hand-over of sells that cannot finish on their own. */
  onEscalate?: (c: SellEscalation) => Promise<void>;
  /** Overrides `parts.prefix` (Redis keys). */
  prefix?: string;
  /** Overrides, for tests. */
  evmNetworks?: EvmNetworkConfig[];
  algorand?: AlgorandConfig;
  now?: () => number;
}

export interface WiredSell {
  service: SellService;
  /** Base of the signing links. */
  publicUrl: string;
  stop(): Promise<void>;
}

/**
 * Registers the sell effects on the engine, mounts `/sign/*` on the HTTP server, starts the watcher.
 * Resolves with the stop function (the lead's wiring contract); `wireSellParts` also returns the service.
 */
export async function wireSell(parts: SellParts, opts: WireSellOptions = {}): Promise<() => Promise<void>> {
  return (await wireSellParts(parts, opts)).stop;
}

export async function wireSellParts(parts: SellParts, opts: WireSellOptions = {}): Promise<WiredSell> {
  const env = opts.env ?? process.env;
  const settings = sellSettings(env);
  const { config, logger } = parts;
  const chains = sellChains(env, settings, opts);
  const http = opts.http ?? parts.http;
  const publicUrl = (opts.publicUrl ?? parts.publicUrl).replace(/\/$/, '');
  if (!config.PUBLIC_URL && !opts.publicUrl) {
    logger.warn({ publicUrl }, 'PUBLIC_URL is not set: signing links point at this machine');
  }

  const prefix = opts.prefix ?? parts.prefix;
  const watcher = createSellWatcher({ redisUrl: parts.redis ? config.REDIS_URL : undefined, prefix, logger });
  const service = createSellService({
    intents: parts.redis ? createRedisIntentStore(parts.redis, prefix) : createMemoryIntentStore(),
    ramp: parts.ramp,
    tracker: parts.tracker,
    logger,
    evm: chains.evm,
    algorand: chains.algorand,
    publicUrl,
    linkTtlMs: config.SIGNING_LINK_TTL_MS,
    graceMs: settings.SELL_GRACE_MS,
    project: config.RAMP_PROJECT,
    deliver: (user, input) => parts.engine.handle(user, input),
    schedule: (id, delay, kind) => watcher.schedule(id, delay, kind),
    onEscalate: opts.onEscalate,
    pollIntervalMs: settings.SELL_POLL_INTERVAL_MS,
    searchIntervalMs: settings.SELL_SEARCH_INTERVAL_MS,
    filingStaleMs: settings.SELL_FILING_STALE_MS,
    now: opts.now,
    ...(parts.journal ? { journal: parts.journal } : {}),
    limits: {
      limiter: parts.redis ? createRedisLimiter(parts.redis, prefix) : createMemoryLimiter(),
      linksPerUser: config.LIMIT_SELL_LINKS_PER_USER,
      linksWindowMs: config.LIMIT_SELL_LINKS_WINDOW_MS,
      hashesPerUser: config.LIMIT_SELL_HASHES_PER_USER,
      hashesWindowMs: config.LIMIT_SELL_HASHES_WINDOW_MS,
      page: {
        perLink: settings.SELL_PAGE_HASHES_PER_LINK,
        perAddress: settings.SELL_PAGE_HASHES_PER_ADDRESS,
        windowMs: config.LIMIT_SELL_HASHES_WINDOW_MS,
      },
    },
  });
  const devSigner = opts.localDemo
    ? createDevSigner(service, opts.localDemo.devWallet, chains.localAlgorand)
    : undefined;
  registerSellEffects(parts.engine, service, devSigner);
  if (parts.saleRecovery)
    parts.saleRecovery.recover = (entries, known) => service.recoverSales(entries, known);
  mountSigning(http, parts, service, opts.walletConnectCdn);
  await watcher.start(service);
  logger.info(
    { networks: chains.evm.map((n) => n.config.network), algorand: Boolean(chains.algorand), publicUrl },
    'selling is wired',
  );
  return { service, publicUrl, stop: () => watcher.stop() };
}

/** The chains selling verifies on: the configured EVM networks (or the dev chain) and Algorand. */
function sellChains(
  env: NodeJS.ProcessEnv,
  settings: ReturnType<typeof sellSettings>,
  opts: WireSellOptions,
) {
  const configured = opts.evmNetworks ?? loadEvmNetworks(env);
  if (opts.localDemo && configured.some((n) => !n.local)) {
    throw new Error(
      'The dev-wallet demo runs only when no real EVM network (EVM_<NETWORK>_ESCROW) is configured',
    );
  }
  const evmConfigs = opts.localDemo ? [opts.localDemo.network] : configured;
  const evm = evmConfigs.map((c) => ({
    config: c,
    client: createEvmPublicClient(c, { pollingIntervalMs: 500 }),
    ...(c.fallbackRpcUrls?.length ? { verifiers: createEvmVerifierClients(c) } : {}),
  }));
  // Local mode sells on the Algorand stand-in too, unless Algorand is configured for real.
  const localAlgorand =
    opts.algorand || settings.SELL_ALGORAND_ENABLED ? undefined : opts.localDemo?.algorand;
  const algorandConfig =
    opts.algorand ??
    (settings.SELL_ALGORAND_ENABLED ? loadAlgorandConfig(env) : undefined) ??
    localAlgorand?.config;
  const algorand = algorandConfig
    ? {
        config: algorandConfig,
        clients: createAlgorandClients(algorandConfig),
        ...(localAlgorand ? { local: true } : {}),
      }
    : undefined;
  return { evm, algorand, localAlgorand };
}

const sellSettings = (env: NodeJS.ProcessEnv) => parseEnv(sellEnvSchema, env);

/** `/sign/*` on the HTTP server, and the pinned WalletConnect files when a project id is set. */
function mountSigning(
  http: HttpServer,
  parts: SellParts,
  service: SellService,
  walletConnectCdn?: string,
): void {
  const { config, logger, redis } = parts;
  const routes = signingRoutes({
    service,
    i18n: parts.i18n,
    logger,
    walletConnectProjectId: config.WALLETCONNECT_PROJECT_ID,
    ...(redis ? { restoring: () => recoveryPending(redis, parts.prefix) } : {}),
  });
  for (const route of routes) http.addRoute(route);
  if (config.WALLETCONNECT_PROJECT_ID) {
    http.addRoute(walletConnectRoute({ logger, ...(walletConnectCdn ? { cdnBase: walletConnectCdn } : {}) }));
  }
}
