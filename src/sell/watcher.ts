/**
 * Looks at sell intents when due: pending hashes waiting for confirmations, Algorand payments found
 * by their note, and expiry. Reuses the tracker's schedulers: on Redis the sweep over a sorted set of
 * its own, `<prefix>selldue` (one entry per intent and purpose, so any number of processes share the
 * work), in-process timers without Redis. The first sweep moves in the jobs a previous version queued
 * in BullMQ (`<prefix>bull:sell:`), which are the only record of when to look at an intent again.
 */
import type { Logger } from '../log/logger.js';
import { createLocalScheduler, type Scheduler } from '../tracker/scheduler.js';
import { createSweepScheduler } from '../tracker/sweep-scheduler.js';
import type { SellService } from './service.js';

export interface SellWatcher {
  schedule(intentId: string, delayMs: number, kind: 'poll' | 'expiry'): Promise<void>;
  start(service: SellService): Promise<void>;
  stop(): Promise<void>;
}

const EXPIRY_SUFFIX = '-x';

/** The sell watcher's sorted set of due passes. */
export const sellDueKey = (prefix: string) => `${prefix}selldue`;

export function createSellWatcher(opts: {
  redisUrl?: string;
  prefix: string;
  logger: Logger;
  concurrency?: number;
}): SellWatcher {
  const logger = opts.logger.child({ component: 'sell-watcher' });
  const scheduler: Scheduler = opts.redisUrl
    ? createSweepScheduler({
        url: opts.redisUrl,
        key: sellDueKey(opts.prefix),
        concurrency: opts.concurrency ?? 20,
        legacy: { prefix: `${opts.prefix}bull`, queue: 'sell' },
        logger,
      })
    : createLocalScheduler({ concurrency: opts.concurrency ?? 20, logger });
  return {
    schedule: (intentId, delayMs, kind) =>
      scheduler.enqueue(kind === 'expiry' ? `${intentId}${EXPIRY_SUFFIX}` : intentId, Math.max(0, delayMs)),
    async start(service) {
      await scheduler.start(async (jobId) => {
        const intentId = jobId.endsWith(EXPIRY_SUFFIX) ? jobId.slice(0, -EXPIRY_SUFFIX.length) : jobId;
        try {
          return await service.poll(intentId);
        } catch (err) {
          logger.warn({ intentId, err: (err as Error).message }, 'sell watcher pass failed; retrying');
          return { next: 5_000 };
        }
      });
    },
    stop: () => scheduler.stop(),
  };
}
