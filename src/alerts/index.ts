/**
 * Rate alerts wired into the app: the `alerts` effect on the engine and the ticker that tells users
 * through the engine's notify. On Redis when there is one; otherwise (local mode) in process memory,
 * lost on exit. Names the parts it needs instead of importing the app.
 */
import type { RedisClientType } from 'redis';
import { parseEnv } from '../config/env.js';
import type { Engine } from '../engine/index.js';
import type { Logger } from '../log/logger.js';
import type { RampClient } from '../ramp/types.js';
import type { StandingSink } from '../recovery/standing.js';
import { registerAlertEffects } from './effects.js';
import { alertsEnvSchema } from './settings.js';
import { alertRestorer, journaledAlerts } from './store/standing.js';
import type { AlertStorage, Feed } from './store/storage.js';
import { AlertStore } from './store/store.js';
import { MemoryAlertStore } from './store/store-memory.js';
import { AlertTicker } from './ticker.js';

export interface AlertsParts {
  logger: Logger;
  engine: Engine;
  ramp: RampClient;
  redis?: RedisClientType;
  prefix: string;
  /** On Redis: alerts are kept in this record outside Redis too, and put back from it by recovery. */
  standing?: StandingSink;
  /** Told every rate the ticker quotes (the price charts' history). */
  onRate?: (feed: Feed, rate: number) => Promise<void>;
}

/** Registers the effect and starts the ticker (on Redis, or in memory without it); returns how to stop it. */
export function wireAlerts(parts: AlertsParts, env: NodeJS.ProcessEnv = process.env): () => Promise<void> {
  const settings = parseEnv(alertsEnvSchema, env);
  const log = parts.logger.child({ component: 'alerts' });
  let store: AlertStorage;
  if (parts.redis) {
    const redisStore = new AlertStore(parts.redis, parts.prefix, log);
    store = redisStore;
    if (parts.standing) {
      store = journaledAlerts(redisStore, parts.standing.record);
      parts.standing.restorers.alerts = alertRestorer(redisStore, parts.standing.record);
    }
  } else {
    log.info('no Redis: rate alerts live in memory and are lost when the process exits');
    store = new MemoryAlertStore();
  }
  registerAlertEffects(parts.engine, store);
  const ticker = new AlertTicker({
    store,
    ramp: parts.ramp,
    notifier: parts.engine,
    log,
    intervalMs: settings.ALERTS_INTERVAL_MS,
    rearmPct: settings.ALERTS_REARM_PCT,
    leaseMs: settings.ALERTS_CLAIM_LEASE_MS,
    ...(parts.onRate ? { onRate: parts.onRate } : {}),
  });
  ticker.start();
  return () => ticker.stop();
}
