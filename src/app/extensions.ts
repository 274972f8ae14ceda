/**
 * Where capabilities beyond buying plug into the running app. Each one gets the parts it needs,
 * registers its effects (`parts.engine.registerEffect(type, handler)`) or middleware (on
 * `parts.telegram.bot` before it starts), and returns how to stop what it started.
 */

import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { TelegramChannel } from '../channels/telegram/index.js';
import type { TerminalChannel } from '../channels/terminal/index.js';
import type { WhatsAppChannel } from '../channels/whatsapp/index.js';
import type { WhatsAppCloudChannel } from '../channels/whatsapp-cloud/index.js';
import type { Config } from '../config/env.js';
import type { Engine } from '../engine/index.js';
import type { HttpServer } from '../http/index.js';
import type { I18n } from '../i18n/index.js';
import type { Logger } from '../log/logger.js';
import type { RampClient } from '../ramp/types.js';
import type { OrderJournal, SaleRecoverySink, StandingSink } from '../recovery/index.js';
import { backfillStanding } from '../recovery/standing.js';
import { createStandingRecord } from '../recovery/standing-record.js';
import type { Sandbox } from '../sandbox/index.js';
import type { Savings } from '../savings/index.js';
import type { LazySellDemo } from '../sell/lazy.js';
import { sellConfigured } from '../sell/settings.js';
import type { SessionStore } from '../store/index.js';
import { type MediaStore, memoryMediaStore, redisMediaStore } from '../store/media.js';
import type { EscalationInput } from '../support/index.js';
import type { Tracker } from '../tracker/index.js';

/** Everything `startApp` created, for wiring. */
export interface AppParts {
  config: Config;
  logger: Logger;
  i18n: I18n;
  ramp: RampClient;
  /** Set when no RAMP_BASE_URL is given. */
  sandbox?: Sandbox;
  store: SessionStore;
  engine: Engine;
  tracker: Tracker;
  /** The app's HTTP server (/healthz, /metrics), already listening; capabilities add routes to it. */
  http: HttpServer;
  /** Base URL of that server as the outside world reaches it (PUBLIC_URL, else the local address). */
  publicUrl: string;
  /** Prefix of every Redis key the app writes (default `rampchat:`). */
  prefix: string;
  /** A node-redis client when REDIS_URL is set (shared by channels and extensions). */
  redis?: import('redis').RedisClientType;
  /** Where the tracker sends orders it cannot finish; set once the support desk is wired. */
  escalation: EscalationSink;
  /** The order journal outside Redis (src/recovery); a no-op without Redis. */
  journal?: OrderJournal;
  /** Where the recovery pass finds the sales Redis lost; the sell wiring fills it. */
  saleRecovery?: SaleRecoverySink;
  /** Alerts and plans kept outside Redis, and how recovery puts them back (absent without Redis). */
  standing?: StandingSink;
  /** Local mode: the dev chain selling uses, started on the first sell (absent with a real EVM network). */
  sellDemo?: LazySellDemo;
  telegram?: TelegramChannel;
  whatsapp?: WhatsAppChannel;
  /** WhatsApp over the Cloud API (WHATSAPP_TRANSPORT=cloud) instead of baileys. */
  whatsappCloud?: WhatsAppCloudChannel;
  terminal?: TerminalChannel;
  /** Standing buys' store and sweep (on Redis, or in memory in local mode); set by wireExtensions. */
  savings?: Savings;
  /** Pictures messages carry by reference (charts, receipts); see `mediaOf`. */
  media?: MediaStore;
}

/** The app's media store (in Redis when there is one), made on first use. */
export function mediaOf(parts: AppParts): MediaStore {
  parts.media ??= parts.redis ? redisMediaStore(parts.redis, parts.prefix) : memoryMediaStore();
  return parts.media;
}

/** Late binding of the support desk's escalate for parts created before it (the tracker). */
export interface EscalationSink {
  escalate?: (c: EscalationInput) => Promise<void>;
}

/**
 * Wires the support desk, standing buys, rate alerts and selling (called after the channels exist,
 * before they start) and returns their stop functions. Support comes first: selling and the tracker
 * escalate to it.
 */
export async function wireExtensions(parts: AppParts): Promise<Array<() => Promise<void>>> {
  parts.standing ??= standingSink(parts);
  const { wireSupport } = await import('../support/index.js');
  const support = await wireSupport(parts);
  parts.escalation.escalate = support.escalate;
  const { wireSavings } = await import('../savings/index.js');
  const savings = await wireSavings(parts);
  parts.savings = savings;
  const stopSavings = () => savings.stop();
  const { wireCharts } = await import('../charts/index.js');
  const charts = wireCharts({ ...parts, media: mediaOf(parts) });
  const { wireAlerts } = await import('../alerts/index.js');
  const stopAlerts = wireAlerts({ ...parts, onRate: charts.onRate });
  const stopCharts = () => charts.stop();
  const { wireReceipts } = await import('../receipts/index.js');
  wireReceipts({ ...parts, media: mediaOf(parts) });
  const { wireStatements } = await import('../statements/index.js');
  wireStatements({ ...parts, media: mediaOf(parts) });
  fillStandingRecord(parts);
  // Local mode, or nothing to sell on: selling (viem, algosdk, the dev chain) loads on the first sell.
  if (parts.sellDemo || !sellConfigured(process.env)) {
    const { wireSellOnFirstUse } = await import('../sell/lazy.js');
    return [
      () => support.stop(),
      stopSavings,
      stopAlerts,
      stopCharts,
      wireSellOnFirstUse(parts, support.escalate),
    ];
  }
  const { wireSell } = await import('../sell/index.js');
  const stopSell = await wireSell(parts, { onEscalate: support.escalate });
  return [() => support.stop(), stopSavings, stopAlerts, stopCharts, stopSell];
}

/** In the background: alerts and plans made before the record existed are written to it (once). */
function fillStandingRecord(parts: AppParts): void {
  const { standing: sink, redis } = parts;
  if (!sink || !redis) return;
  // v2: open support cases joined the record.
  const mark = `${parts.prefix}standing:filled:v2`;
  void backfillStanding({
    sink,
    mark: {
      due: async () => (await redis.exists(mark)) === 0,
      set: async () => void (await redis.set(mark, String(Date.now()))),
    },
    logger: parts.logger,
  }).catch((err: unknown) =>
    parts.logger.warn({ err: (err as Error).message }, 'standing record: could not fill in from Redis'),
  );
}

/**
 * On Redis: alerts and plans are kept outside it too (files under DATA_DIR, sealed with the
 * journal's key, src/recovery/standing-record.ts), so recovery can put them back.
 */
function standingSink(parts: AppParts): AppParts['standing'] {
  if (!parts.redis) return undefined;
  const dir = parts.config.DATA_DIR ?? 'data';
  // One folder per deployment's keys (its Redis prefix): a record is put back only where it came from.
  const scope = createHash('sha256').update(parts.prefix).digest('hex').slice(0, 12);
  const record = createStandingRecord(join(dir, 'standing', scope), {
    ...(parts.config.JOURNAL_KEY ? { secret: parts.config.JOURNAL_KEY } : {}),
    keyFile: join(dir, 'orders.key'),
    onError: (err) => parts.logger.error({ err: err.message }, 'standing record: could not write or read'),
  });
  return { record, restorers: {} };
}
