/**
 * Looks at sell intents when due: pending hashes waiting for confirmations, Algorand payments found
 * by their note, expiry, and (a chain of its own) the escrow search for EVM deposits nobody reported. Reuses the tracker's schedulers: on Redis the sweep over a sorted set of
 * its own, `<prefix>selldue` (one entry per intent and purpose, so any number of processes share the
 * work), in-process timers without Redis. The first sweep moves in the jobs a previous version queued
 * in BullMQ (`<prefix>bull:sell:`), which are the only record of when to look at an intent again.
 */
import type { Logger } from '../../log/logger.js';
import { createLocalScheduler, type Scheduler } from '../../tracker/schedule/scheduler.js';
import { createSweepScheduler } from '../../tracker/schedule/sweep-scheduler.js';
import type { SellService } from '../service.js';

export interface SellWatcher {
  schedule(intentId: string, delayMs: number, kind: WatchKind): Promise<void>;
  start(service: SellService): Promise<void>;
  stop(): Promise<void>;
}

/** A pass's purpose: pending hashes and Algorand payments, the link's expiry, the escrow search. */
export type WatchKind = 'poll' | 'expiry' | 'search';

const SUFFIX: Record<WatchKind, string> = { poll: '', expiry: '-x', search: '-s' };

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
      scheduler.enqueue(`${intentId}${SUFFIX[kind]}`, Math.max(0, delayMs)),
    async start(service) {
      await scheduler.start(async (jobId) => {
        const search = jobId.endsWith(SUFFIX.search);
        const intentId = search || jobId.endsWith(SUFFIX.expiry) ? jobId.slice(0, -2) : jobId;
        try {
          return await (search ? service.search(intentId) : service.poll(intentId));
        } catch (err) {
          logger.warn({ intentId, err: (err as Error).message }, 'sell watcher pass failed; retrying');
          return { next: 5_000 };
        }
      });
    },
    stop: () => scheduler.stop(),
  };
}
