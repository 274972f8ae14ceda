/**
 * Where the tracker keeps its orders and how it gets polls run: with a Redis URL, the Redis store and
 * BullMQ (one job per pending order) or the sweep scheduler (one sorted set); without, memory and
 * timers in this process (local mode).
 */
import type { Logger } from '../log/logger.js';
import type { ResolvedTrackerConfig } from './options.js';
import { createBullScheduler, createLocalScheduler, type Scheduler } from './scheduler.js';
import { createMemoryTrackerStore, createRedisTrackerStore, type TrackerStore } from './store.js';
import { dueKey } from './store-codec.js';
import { createSweepScheduler } from './sweep-scheduler.js';

/** The store: Redis when a URL is given, else memory; with the sweep, its due set lists the pending orders. */
export function createStore(
  redisUrl: string | undefined,
  prefix: string,
  logger: Logger,
  scheduler: ResolvedTrackerConfig['scheduler'],
): TrackerStore {
  return redisUrl
    ? createRedisTrackerStore({ url: redisUrl, prefix, logger, scheduler })
    : createMemoryTrackerStore();
}

/** The scheduler: local timers without Redis, else the sweep or BullMQ one as configured. */
export function createScheduler(
  redisUrl: string | undefined,
  prefix: string,
  cfg: ResolvedTrackerConfig,
  log: Logger,
): Scheduler {
  if (!redisUrl) return createLocalScheduler({ concurrency: cfg.concurrency, logger: log });
  if (cfg.scheduler === 'sweep') {
    return createSweepScheduler({
      url: redisUrl,
      key: dueKey(prefix),
      concurrency: cfg.concurrency,
      leaseMs: cfg.lockDurationMs,
      logger: log,
    });
  }
  return createBullScheduler({
    url: redisUrl,
    prefix: `${prefix}bull`,
    concurrency: cfg.concurrency,
    lockDurationMs: cfg.lockDurationMs,
    stalledIntervalMs: cfg.stalledIntervalMs,
    logger: log,
  });
}
