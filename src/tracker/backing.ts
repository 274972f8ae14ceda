/**
 * Where the tracker keeps its orders and how it gets polls run: with a Redis URL, the Redis store and
 * the sweep scheduler (one sorted set of due polls, which also lists the pending orders); without,
 * memory and timers in this process (local mode).
 */
import type { Logger } from '../log/logger.js';
import type { ResolvedTrackerConfig } from './options.js';
import { createLocalScheduler, type Scheduler } from './schedule/scheduler.js';
import { createSweepScheduler } from './schedule/sweep-scheduler.js';
import { createMemoryTrackerStore, createRedisTrackerStore, type TrackerStore } from './store/store.js';
import { dueKey } from './store/store-codec.js';

/** The store: Redis when a URL is given, else memory. */
export function createStore(redisUrl: string | undefined, prefix: string, logger: Logger): TrackerStore {
  return redisUrl ? createRedisTrackerStore({ url: redisUrl, prefix, logger }) : createMemoryTrackerStore();
}

/**
 * The scheduler: local timers without Redis, else the sweep, which first takes over the orders a
 * previous version queued in BullMQ (`<prefix>bull:tracker:`; see ./schedule/legacy-bull.ts).
 */
export function createScheduler(
  redisUrl: string | undefined,
  prefix: string,
  cfg: ResolvedTrackerConfig,
  log: Logger,
): Scheduler {
  if (!redisUrl) return createLocalScheduler({ concurrency: cfg.concurrency, logger: log });
  return createSweepScheduler({
    url: redisUrl,
    key: dueKey(prefix),
    concurrency: cfg.concurrency,
    leaseMs: cfg.lockDurationMs,
    legacy: { prefix: `${prefix}bull`, queue: 'tracker' },
    logger: log,
  });
}
