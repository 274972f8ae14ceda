/**
 * The core parts of the running app, in the order they depend on each other: the ramp (or the
 * sandbox), conversation state (Redis or memory), the order journal, the tracker, the engine and the
 * HTTP server. Channels and capabilities are wired on top of these (./channels.ts, ./extensions.ts).
 */
import { join } from 'node:path';
import { Gauge, Registry } from 'prom-client';
import type { RedisClientType } from 'redis';
import type { TerminalChannel } from '../channels/terminal/index.js';
import { type Config, httpHostOf } from '../config/env.js';
import type { Engine } from '../engine/index.js';
import { createHttpServer, type HttpServer } from '../http/index.js';
import { loadI18n } from '../i18n/index.js';
import { createMemoryLimiter, createRedisLimiter } from '../limits/index.js';
import type { Logger } from '../log/logger.js';
import type { RampClient } from '../ramp/types.js';
import { compactJournal, createFileJournal, noJournal, type OrderJournal } from '../recovery/index.js';
import { type LazySellDemo, lazySellDemo } from '../sell/lazy.js';
import { evmEscrowConfigured } from '../sell/settings.js';
import { connectRedis, createRedisStore, openStore, type SessionStore } from '../store/index.js';
import { createTracker, type Tracker, trackerConfigFrom } from '../tracker/index.js';
import type { Notifier } from '../tracker/types.js';
import type { AppParts, EscalationSink } from './extensions.js';
import { createEngine } from './flows.js';
import { startRamp } from './ramp.js';
import type { Stops } from './stops.js';

/** The core parts, and where the order journal is kept (undefined without Redis: nothing to recover). */
export interface Core {
  parts: AppParts;
  journalPath?: string;
}

/** Starts the core parts; `terminal()` is the terminal chat once it exists (for the dev-chain notice). */
export async function startCore(
  config: Config,
  logger: Logger,
  stops: Stops,
  opts: { prefix: string; terminal: () => TerminalChannel | undefined },
): Promise<Core> {
  const { prefix } = opts;
  const i18n = loadI18n();
  const sellDemo = localSellDemo(config, logger, opts.terminal);
  if (sellDemo) stops.push(() => sellDemo.stop());
  // The app's own metrics (ramp calls, Redis reachability); the tracker and channels keep theirs.
  const registry = new Registry();
  const { ramp, sandbox } = await startRamp(config, logger, sellDemo, registry);
  if (sandbox) stops.push(() => sandbox.close());
  const { store, redis } = await openState(config, logger, stops, prefix);
  if (redis) redisUpGauge(redis, registry);
  const { journal, journalPath } = await openJournal(config, logger, redis, stops);

  // The tracker notifies through the engine, which is created after it.
  let engineRef: Engine | undefined;
  const notifier: Notifier = {
    notify: async (user, message, scope) => {
      if (!engineRef) throw new Error('the engine is not ready yet');
      await engineRef.notify(user, message, scope);
    },
    orderFinal: async (user, orderId) => {
      // Journaled first: recovery after an empty Redis must know this order's user was told.
      await journal.final(orderId);
      await engineRef?.orderFinal(user, orderId);
    },
  };
  // Escalations go to the support desk, which is wired with the extensions after the tracker exists.
  const escalation: EscalationSink = {};
  const tracker = journaling(wireTracker(config, { ramp, notifier, logger, prefix, escalation }), journal);
  stops.push(() => tracker.stop());
  const engine = wireEngine(config, { store, ramp, tracker, logger, redis, prefix, journal });
  engineRef = engine;
  stops.push(() => engine.idle());
  const { http, publicUrl } = await startHttp(config, logger, stops, { tracker, store, registry });

  const parts: AppParts = {
    ...{ config, logger, i18n, ramp, sandbox, store, engine, tracker, redis },
    ...{ http, publicUrl, prefix, sellDemo, escalation, journal },
    saleRecovery: {},
  };
  return { parts, journalPath };
}

/** Local selling starts its dev chain on the first sell, and says so (the terminal chat shows it). */
function localSellDemo(
  config: Config,
  logger: Logger,
  terminal: () => TerminalChannel | undefined,
): LazySellDemo | undefined {
  if (config.RAMP_BASE_URL || evmEscrowConfigured(process.env)) return undefined;
  return lazySellDemo((phase, ms) => {
    if (phase === 'starting') terminal()?.say('terminal-devchain-starting');
    logger.info(
      { ms },
      phase === 'starting'
        ? 'local sell demo: starting the in-process dev chain (first sell)'
        : 'local sell demo: in-process dev chain standing in for Polygon',
    );
  });
}

/** Conversation state: Redis when REDIS_URL is set (plus a client shared by the parts), else memory. */
async function openState(
  config: Config,
  logger: Logger,
  stops: Stops,
  prefix: string,
): Promise<{ store: SessionStore; redis?: RedisClientType }> {
  if (!config.REDIS_URL) {
    logger.warn('REDIS_URL is not set: conversation state lives in memory and is lost on exit (local mode)');
    return { store: await openStore({ prefix, flowTtlSeconds: config.FLOW_TTL_SECONDS, logger }) };
  }
  const redis = await connectRedis({
    url: config.REDIS_URL,
    name: 'app',
    logger,
    connectTimeoutMs: config.START_TIMEOUT_MS,
  });
  stops.push(async () => void (await redis.quit()));
  // One connection for the sessions and the outbox: an update's save and its reply's record, made in
  // the same turn of the event loop, go to Redis in one round trip.
  const store = await createRedisStore({ client: redis, prefix, flowTtlSeconds: config.FLOW_TTL_SECONDS });
  // Only a warning: it does not hold up the start.
  void warnWithoutPersistence(redis, logger);
  return { store, redis };
}

/**
 * The order journal outside Redis (files under DATA_DIR, private, personal fields encrypted with
 * JOURNAL_KEY), pruned to RECOVERY_HORIZON_MS at start and while running; a no-op without Redis.
 */
async function openJournal(
  config: Config,
  logger: Logger,
  redis: RedisClientType | undefined,
  stops: Stops,
): Promise<{ journal: OrderJournal; journalPath?: string }> {
  if (!redis) return { journal: noJournal };
  const journalPath = join(config.DATA_DIR ?? 'data', 'orders.jsonl');
  if (!config.JOURNAL_KEY)
    logger.warn(
      { dir: config.DATA_DIR ?? 'data' },
      'JOURNAL_KEY is not set: the order journal is encrypted with a key generated beside it (local mode)',
    );
  const journal = createFileJournal(journalPath, {
    ...(config.JOURNAL_KEY ? { secret: config.JOURNAL_KEY } : {}),
    horizonMs: config.RECOVERY_HORIZON_MS,
    onError: (err) => logger.error({ err: err.message }, 'order journal: could not write or read'),
  });
  stops.push(async () => journal.close());
  await compactJournal(journalPath, journal, Date.now() - config.RECOVERY_HORIZON_MS).catch((err: unknown) =>
    logger.error({ err: (err as Error).message }, 'order journal: could not prune at start'),
  );
  return { journal, journalPath };
}

/** The order tracker: the sweep scheduler on Redis when REDIS_URL is set, in-process otherwise. */
function wireTracker(
  config: Config,
  deps: { ramp: RampClient; notifier: Notifier; logger: Logger; prefix: string; escalation: EscalationSink },
): Tracker {
  const { escalation } = deps;
  return createTracker({
    ramp: deps.ramp,
    notifier: deps.notifier,
    logger: deps.logger,
    config: trackerConfigFrom(config),
    redisUrl: config.REDIS_URL,
    prefix: deps.prefix,
    onEscalate: async (c) => {
      if (!escalation.escalate) throw new Error('the support desk is not wired yet');
      await escalation.escalate(c);
    },
  });
}

function wireEngine(
  config: Config,
  deps: {
    store: SessionStore;
    ramp: RampClient;
    tracker: Tracker;
    logger: Logger;
    redis?: RedisClientType;
    prefix: string;
    journal: OrderJournal;
  },
): Engine {
  return createEngine({
    store: deps.store,
    ramp: deps.ramp,
    tracker: deps.tracker,
    logger: deps.logger,
    config: { rateTolerancePct: config.RATE_TOLERANCE_PCT, project: config.RAMP_PROJECT },
    limiter: deps.redis ? createRedisLimiter(deps.redis, deps.prefix) : createMemoryLimiter(),
    journal: deps.journal,
    stkLimits: {
      inFlightMs: config.LIMIT_STK_INFLIGHT_MS,
      perPhone: config.LIMIT_STK_PER_PHONE,
      perPhoneWindowMs: config.LIMIT_STK_PHONE_WINDOW_MS,
      perUser: config.LIMIT_STK_PER_USER,
      perUserWindowMs: config.LIMIT_STK_USER_WINDOW_MS,
    },
  });
}

/**
 * The HTTP server (/healthz, /readyz, /metrics; capabilities add routes), listening before anything
 * is wired so its address is known, and serving nothing else until `startApp` marks it ready.
 */
async function startHttp(
  config: Config,
  logger: Logger,
  stops: Stops,
  deps: { tracker: Tracker; store: SessionStore; registry: Registry },
): Promise<{ http: HttpServer; publicUrl: string }> {
  const http = createHttpServer({
    registries: [deps.tracker.registry, deps.registry],
    metricsToken: config.METRICS_TOKEN,
    health: async () => {
      const report = await deps.tracker.health();
      return { ok: report.ok, details: { tracker: report.details, store: deps.store.kind } };
    },
    logger,
    startsReady: false,
  });
  const { url: localUrl } = await http.listen(config.HTTP_PORT, httpHostOf(config));
  stops.push(() => http.close());
  logger.info({ url: localUrl }, 'HTTP server listening (/healthz, /metrics; the rest once ready)');
  return { http, publicUrl: (config.PUBLIC_URL ?? localUrl).replace(/\/$/, '') };
}

/**
 * Conversation state, idempotency keys and tracking jobs live in Redis: a restart without AOF or RDB
 * forgets orders in flight (the reconciler can recover only what the ramp still lists).
 */
async function warnWithoutPersistence(redis: RedisClientType, logger: Logger): Promise<void> {
  try {
    const info = await redis.info('persistence');
    const aof = /aof_enabled:1/.test(info);
    let rdb = false;
    try {
      const save = (await redis.configGet('save')) as Record<string, string>;
      rdb = Boolean(save.save?.trim());
    } catch {
      rdb = /rdb_last_save_time:[1-9]/.test(info) && !/rdb_saves:0\b/.test(info);
    }
    if (!aof && !rdb)
      logger.warn(
        'Redis has no persistence (neither AOF nor RDB): a Redis restart loses conversations, idempotency keys and order tracking; orders in flight then depend on recovery from the ramp history. Turn on appendonly yes.',
      );
  } catch (err) {
    logger.warn(
      { err: err instanceof Error ? err.message : String(err) },
      'could not read Redis persistence settings',
    );
  }
}

/** The tracker, noting each order it is given in the journal (outside Redis) first. */
function journaling(tracker: Tracker, journal: OrderJournal): Tracker {
  return new Proxy(tracker, {
    get(target, prop, receiver) {
      if (prop === 'track')
        return async (order: Parameters<Tracker['track']>[0]) => {
          await journal.order(order);
          return target.track(order);
        };
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** rampchat_redis_up: 1 when Redis answers a PING within a second at scrape time, else 0. */
function redisUpGauge(redis: RedisClientType, registry: Registry): void {
  new Gauge({
    name: 'rampchat_redis_up',
    help: 'Whether Redis answered a PING within a second when /metrics was read (1) or not (0)',
    registers: [registry],
    async collect() {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), 1000);
      });
      const up = await Promise.race([
        redis.ping().then(
          () => true,
          () => false,
        ),
        late,
      ]);
      clearTimeout(timer);
      this.set(up ? 1 : 0);
    },
  });
}
