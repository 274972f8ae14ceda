/**
 * Composition of the whole app: settings in, running parts out. `src/main.ts` calls `startApp`
 * with the process's streams; tests call it in-process with their own streams.
 */
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import pino, { type DestinationStream } from 'pino';
import type { RedisClientType } from 'redis';
import type { TelegramChannel } from '../channels/telegram/index.js';
import {
  createTerminalChannel,
  type TerminalChannel,
  type TerminalConfig,
} from '../channels/terminal/index.js';
import type { MakeWhatsAppSocket, PacingOptions, WhatsAppChannel } from '../channels/whatsapp/index.js';
import type { CloudSeams } from '../channels/whatsapp-cloud/wire.js';
import type { Config } from '../config/env.js';
import { createClaimReconciler, type Engine } from '../engine/index.js';
import { createHttpServer } from '../http/index.js';
import { loadI18n, pickLocale } from '../i18n/index.js';
import { createMemoryLimiter, createRedisLimiter } from '../limits/index.js';
import { createLogger, type Logger } from '../log/logger.js';
import { createRampClient } from '../ramp/index.js';
import type { RampClient } from '../ramp/types.js';
import {
  compactJournal,
  createFileJournal,
  noJournal,
  type OrderJournal,
  type RecoveryReport,
  recoverLostOrders,
} from '../recovery/index.js';
import type { Sandbox } from '../sandbox/index.js';
import { type LazySellDemo, lazySellDemo } from '../sell/lazy.js';
import { evmEscrowConfigured } from '../sell/settings.js';
import { connectRedis, openStore } from '../store/index.js';
import { createTracker, type Tracker, trackerConfigFrom } from '../tracker/index.js';
import type { Notifier } from '../tracker/types.js';
import { type AppParts, type EscalationSink, wireExtensions } from './extensions.js';
import { createEngine } from './flows.js';

export interface AppIo {
  /** The terminal chat's input and output (default the process's). */
  stdin?: Readable;
  stdout?: Writable;
  /** Where JSON logs go (default stderr in terminal mode, stdout otherwise). */
  logDestination?: DestinationStream;
  /** Terminal chat settings (`terminalEnvSchema`). */
  terminal?: Partial<TerminalConfig>;
  /** The LANG of the environment, a fallback for the terminal's language. */
  lang?: string;
  /** Prefix of every Redis key of the store, tracker and Telegram state (default `rampchat:`). */
  redisPrefix?: string;
  /** Test seams of the WhatsApp transports: baileys' socket and pacing, the Cloud API's pacing and retries. */
  whatsapp?: { makeSocket?: MakeWhatsAppSocket; pacing?: PacingOptions; cloud?: CloudSeams };
}

export interface App extends AppParts {
  /** Resolves when the terminal input has ended and all its work is done; never in bot mode. */
  done: Promise<void>;
  /** The recovery pass run at start when Redis came back empty (undefined when none ran). */
  recovery: Promise<RecoveryReport | undefined>;
  /** Stops everything started here, in reverse order. Safe to call twice. */
  stop(): Promise<void>;
}

/** Starts the ramp (sandbox or remote), store, engine, tracker and channels the settings ask for. */
export async function startApp(config: Config, io: AppIo = {}): Promise<App> {
  const terminalMode = !config.TELEGRAM_BOT_TOKEN;
  const logger = createLogger({
    level: config.LOG_LEVEL ?? (terminalMode ? 'warn' : 'info'),
    destination: io.logDestination ?? (terminalMode ? pino.destination(2) : undefined),
  });
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    while (stops.length) {
      const stop = stops.pop();
      try {
        await stop?.();
      } catch (err) {
        logger.error({ err: err instanceof Error ? err.message : String(err) }, 'stopping a part failed');
      }
    }
  };

  try {
    const i18n = loadI18n();
    // Local selling starts its dev chain on the first sell, and says so (the terminal chat shows it).
    let terminalRef: TerminalChannel | undefined;
    const sellDemo =
      config.RAMP_BASE_URL || evmEscrowConfigured(process.env)
        ? undefined
        : lazySellDemo((phase, ms) => {
            if (phase === 'starting' && terminalRef) terminalRef.say('terminal-devchain-starting');
            logger.info(
              { ms },
              phase === 'starting'
                ? 'local sell demo: starting the in-process dev chain (first sell)'
                : 'local sell demo: in-process dev chain standing in for Polygon',
            );
          });
    if (sellDemo) stops.push(() => sellDemo.stop());
    const { ramp, sandbox } = await startRamp(config, logger, sellDemo);
    if (sandbox) stops.push(() => sandbox.close());

    const prefix = io.redisPrefix ?? 'rampchat:';
    const store = await openStore({
      redisUrl: config.REDIS_URL,
      prefix,
      flowTtlSeconds: config.FLOW_TTL_SECONDS,
      logger,
    });
    stops.push(() => store.close());
    if (store.kind === 'memory')
      logger.warn(
        'REDIS_URL is not set: conversation state lives in memory and is lost on exit (local mode)',
      );
    const redis = config.REDIS_URL
      ? await connectRedis({ url: config.REDIS_URL, name: 'app', logger })
      : undefined;
    if (redis) stops.push(async () => void (await redis.quit()));
    // Only a warning: it does not hold up the start.
    if (redis) void warnWithoutPersistence(redis, logger);

    // The tracker notifies through the engine, which is created after it.
    let engineRef: Engine | undefined;
    const notifier: Notifier = {
      notify: async (user, message) => {
        if (!engineRef) throw new Error('the engine is not ready yet');
        await engineRef.notify(user, message);
      },
      orderFinal: async (user, orderId) => {
        await engineRef?.orderFinal(user, orderId);
      },
    };
    // Escalations go to the support desk, which is wired with the extensions after the tracker exists.
    const escalation: EscalationSink = {};
    const journalPath = redis ? join(config.DATA_DIR ?? 'data', 'orders.jsonl') : undefined;
    const journal = journalPath
      ? createFileJournal(journalPath, {
          onError: (err) => logger.error({ err: err.message }, 'could not write the order journal'),
        })
      : noJournal;
    if (journalPath)
      await compactJournal(journalPath, journal, Date.now() - config.RECOVERY_HORIZON_MS).catch(() => {});
    const tracker = journaling(wireTracker(config, ramp, notifier, logger, prefix, escalation), journal);
    stops.push(() => tracker.stop());
    const engine = createEngine({
      store,
      ramp,
      tracker,
      logger,
      config: { rateTolerancePct: config.RATE_TOLERANCE_PCT, project: config.RAMP_PROJECT },
      limiter: redis ? createRedisLimiter(redis, prefix) : createMemoryLimiter(),
      journal,
      stkLimits: {
        inFlightMs: config.LIMIT_STK_INFLIGHT_MS,
        perPhone: config.LIMIT_STK_PER_PHONE,
        perPhoneWindowMs: config.LIMIT_STK_PHONE_WINDOW_MS,
        perUser: config.LIMIT_STK_PER_USER,
        perUserWindowMs: config.LIMIT_STK_USER_WINDOW_MS,
      },
    });
    engineRef = engine;
    stops.push(() => engine.idle());

    const http = createHttpServer({
      registries: [tracker.registry],
      metricsToken: config.METRICS_TOKEN,
      health: async () => {
        const report = await tracker.health();
        return { ok: report.ok, details: { tracker: report.details, store: store.kind } };
      },
      logger,
    });
    const { url: localUrl } = await http.listen(config.HTTP_PORT, httpHost(config));
    stops.push(() => http.close());
    const publicUrl = (config.PUBLIC_URL ?? localUrl).replace(/\/$/, '');
    logger.info({ url: localUrl }, 'HTTP server listening (/healthz, /metrics)');

    const parts: AppParts = {
      config,
      logger,
      i18n,
      ramp,
      sandbox,
      store,
      engine,
      tracker,
      redis,
      http,
      publicUrl,
      prefix,
      sellDemo,
      escalation,
      journal,
    };

    // Channels are stopped first (pushed last), so no new input arrives while the rest winds down.
    if (config.WHATSAPP_ENABLED && config.WHATSAPP_TRANSPORT === 'cloud') {
      const { wireWhatsAppCloud } = await import('../channels/whatsapp-cloud/wire.js');
      const cloud = wireWhatsAppCloud(parts, io.whatsapp?.cloud);
      parts.whatsappCloud = cloud;
      stops.push(() => cloud.stop());
    } else if (config.WHATSAPP_ENABLED) {
      const whatsapp = await wireWhatsApp(config, parts, io.whatsapp);
      parts.whatsapp = whatsapp;
      if (whatsapp) stops.push(() => whatsapp.stop());
    }
    if (config.TELEGRAM_BOT_TOKEN) {
      const telegram = await wireTelegram(config, parts, prefix);
      parts.telegram = telegram;
      stops.push(() => telegram.stop());
    } else {
      parts.terminal = createTerminalChannel({
        input: io.stdin ?? process.stdin,
        output: io.stdout ?? process.stdout,
        i18n,
        locale:
          io.terminal?.TERMINAL_LOCALE ??
          (io.lang ? pickLocale(io.lang.split('.')[0]?.replace('_', '-')) : undefined),
        eofGraceMs: io.terminal?.TERMINAL_EOF_GRACE_MS ?? 0,
      });
      engine.registerChannel(parts.terminal);
      terminalRef = parts.terminal;
      stops.push(async () => parts.terminal?.close());
    }

    stops.push(...(await wireExtensions(parts)));

    // Started last, once every effect handler and middleware is in place.
    await tracker.start();
    await parts.whatsapp?.start();
    await parts.whatsappCloud?.start();
    await parts.telegram?.start();

    // Follows up STK pushes whose process died before recording the outcome (src/engine/reconciler.ts):
    // found at the ramp -> tracked and the user told; not found -> support, late-bound like the tracker's.
    const reconciler = createClaimReconciler({
      store,
      ramp,
      tracker,
      conversation: engine,
      logger,
      staleAfterMs: 2 * config.RAMP_TIMEOUT_MS,
      onEscalate: async (c) => {
        if (!escalation.escalate) throw new Error('the support desk is not wired yet');
        await escalation.escalate(c);
      },
    });
    reconciler.start();
    stops.push(() => reconciler.stop());

    // Redis without our marker was emptied (or is new): orders the journal knows and Redis lost are
    // looked up in the ramp's history and tracked again, or handed to support.
    // A running process notices too (checked every RECOVERY_CHECK_MS): one of them wins the marker.
    let recovery: Promise<RecoveryReport | undefined> = Promise.resolve(undefined);
    if (redis && journalPath) {
      const recoverIfEmptied = async (): Promise<RecoveryReport | undefined> => {
        const fresh = (await redis.set(`${prefix}epoch`, String(Date.now()), { condition: 'NX' })) === 'OK';
        if (!fresh) return undefined;
        return recoverLostOrders({
          journal,
          ramp,
          tracker,
          logger,
          horizonMs: config.RECOVERY_HORIZON_MS,
          onEscalate: async (c) => {
            if (!escalation.escalate) throw new Error('the support desk is not wired yet');
            await escalation.escalate(c);
          },
        });
      };
      const guarded = () =>
        recoverIfEmptied().catch((err: unknown) => {
          logger.error({ err: (err as Error).message }, 'recovery after an empty Redis failed');
          return undefined;
        });
      recovery = guarded();
      const check = setInterval(() => void guarded(), config.RECOVERY_CHECK_MS);
      check.unref();
      stops.push(async () => clearInterval(check));
    }

    let done: Promise<void> = new Promise<void>(() => {});
    if (parts.terminal) {
      printBanner(parts.terminal, config, parts);
      done = parts.terminal.run(engine);
    }

    let stopped: Promise<void> | undefined;
    return {
      ...parts,
      recovery,
      done,
      stop: () => {
        stopped ??= stopAll();
        return stopped;
      },
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

async function startRamp(
  config: Config,
  logger: Logger,
  sellDemo?: LazySellDemo,
): Promise<{ ramp: RampClient; sandbox?: Sandbox }> {
  if (config.RAMP_BASE_URL) {
    if (!config.RAMP_API_KEY || !config.RAMP_API_SECRET)
      throw new Error('RAMP_BASE_URL is set, so RAMP_API_KEY and RAMP_API_SECRET are needed too');
    const ramp = createRampClient({
      baseUrl: config.RAMP_BASE_URL,
      apiKey: config.RAMP_API_KEY,
      apiSecret: config.RAMP_API_SECRET,
      generation: config.RAMP_API_GENERATION,
      legacyBrand: config.RAMP_LEGACY_BRAND,
      checkoutUrl: config.RAMP_CHECKOUT_URL,
      checkoutSecret: config.RAMP_CHECKOUT_SECRET,
      timeoutMs: config.RAMP_TIMEOUT_MS,
      logger,
    });
    return { ramp };
  }
  const { startSandbox } = await import('../sandbox/index.js');
  const sandbox = await startSandbox({
    port: 0,
    apiKey: config.SANDBOX_API_KEY,
    apiSecret: config.SANDBOX_API_SECRET,
    checkoutSecret: config.SANDBOX_CHECKOUT_SECRET,
    kesPerUsd: config.SANDBOX_KES_PER_USD,
    settleMs: config.SANDBOX_SETTLE_MS,
    legacyBrand: config.RAMP_LEGACY_BRAND,
    tokens: sellDemo?.sandboxOptions.tokens,
    verifyOfframpHash: sellDemo?.sandboxOptions.verifyOfframpHash,
    logger,
  });
  logger.info({ url: sandbox.url }, 'no RAMP_BASE_URL: using the in-process ramp sandbox');
  const ramp = createRampClient({
    baseUrl: sandbox.url,
    apiKey: config.SANDBOX_API_KEY,
    apiSecret: config.SANDBOX_API_SECRET,
    generation: config.RAMP_API_GENERATION,
    legacyBrand: config.RAMP_LEGACY_BRAND,
    checkoutUrl: sandbox.url,
    checkoutSecret: config.SANDBOX_CHECKOUT_SECRET,
    timeoutMs: config.RAMP_TIMEOUT_MS,
    logger,
  });
  return { ramp, sandbox };
}

/** The order tracker: BullMQ on Redis when REDIS_URL is set, in-process otherwise. */
function wireTracker(
  config: Config,
  ramp: RampClient,
  notifier: Notifier,
  logger: Logger,
  prefix: string,
  escalation: EscalationSink,
): Tracker {
  return createTracker({
    ramp,
    notifier,
    logger,
    config: trackerConfigFrom(config),
    redisUrl: config.REDIS_URL,
    prefix,
    onEscalate: async (c) => {
      if (!escalation.escalate) throw new Error('the support desk is not wired yet');
      await escalation.escalate(c);
    },
  });
}

/**
 * Telegram (long polling, or a webhook served on HTTP_PORT when TELEGRAM_WEBHOOK_URL is set).
 * Imported on demand, like WhatsApp, so the terminal chat starts without loading bot libraries.
 */
async function wireTelegram(config: Config, parts: AppParts, prefix: string): Promise<TelegramChannel> {
  const { createTelegramChannel } = await import('../channels/telegram/index.js');
  const token = config.TELEGRAM_BOT_TOKEN as string;
  const webhook = config.TELEGRAM_WEBHOOK_URL
    ? { url: config.TELEGRAM_WEBHOOK_URL, secretToken: config.TELEGRAM_WEBHOOK_SECRET ?? '' }
    : undefined;
  if (webhook && !webhook.secretToken)
    throw new Error('TELEGRAM_WEBHOOK_URL is set, so TELEGRAM_WEBHOOK_SECRET is needed too');
  const telegram = createTelegramChannel({
    token,
    conversation: parts.engine,
    i18n: parts.i18n,
    logger: parts.logger,
    apiRoot: config.TELEGRAM_API_ROOT,
    redis: parts.redis,
    redisPrefix: prefix,
    webhook,
  });
  parts.engine.registerChannel(telegram.adapter);
  const handler = telegram.webhookHandler;
  if (handler && telegram.webhookPath)
    parts.http.addRoute({ method: 'POST', path: telegram.webhookPath, handler });
  return telegram;
}

/** WhatsApp (baileys) keeps its auth state and number lease in Redis, so it needs REDIS_URL. */
async function wireWhatsApp(
  config: Config,
  parts: AppParts,
  seams: AppIo['whatsapp'] = {},
): Promise<WhatsAppChannel | undefined> {
  if (!parts.redis) {
    parts.logger.error(
      'WHATSAPP_ENABLED=1 needs REDIS_URL (auth state and number lease live there); WhatsApp is off',
    );
    return undefined;
  }
  const { createWhatsAppChannel } = await import('../channels/whatsapp/index.js');
  const whatsapp = createWhatsAppChannel({
    conversation: parts.engine,
    i18n: parts.i18n,
    redis: parts.redis,
    logger: parts.logger,
    keyPrefix: `${parts.prefix}wa:`,
    registry: parts.tracker.registry,
    pairingNumber: config.WHATSAPP_PAIRING_NUMBER,
    ...(seams.makeSocket ? { makeSocket: seams.makeSocket } : {}),
    ...(seams.pacing ? { pacing: seams.pacing } : {}),
  });
  parts.engine.registerChannel(whatsapp.adapter);
  return whatsapp;
}

/**
 * Local mode (nothing reaches in from outside) listens on loopback only; a webhook (Telegram's, the
 * WhatsApp Cloud API's) or a public signing-page address needs all interfaces. HTTP_HOST overrides.
 */
function httpHost(config: Config): string {
  if (config.HTTP_HOST) return config.HTTP_HOST;
  const cloudWebhook = config.WHATSAPP_ENABLED && config.WHATSAPP_TRANSPORT === 'cloud';
  return config.TELEGRAM_WEBHOOK_URL || config.PUBLIC_URL || cloudWebhook ? '0.0.0.0' : '127.0.0.1';
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

function printBanner(terminal: TerminalChannel, config: Config, parts: AppParts): void {
  terminal.say('terminal-welcome');
  if (parts.sandbox) terminal.say('terminal-ramp-sandbox', { url: parts.sandbox.url });
  else
    terminal.say('terminal-ramp-remote', {
      url: config.RAMP_BASE_URL ?? '',
      generation: config.RAMP_API_GENERATION,
    });
  terminal.say(parts.store.kind === 'redis' ? 'terminal-state-redis' : 'terminal-state-memory');
  terminal.say('terminal-telegram-hint');
  terminal.say(parts.whatsapp || parts.whatsappCloud ? 'terminal-whatsapp-on' : 'terminal-whatsapp-hint');
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
