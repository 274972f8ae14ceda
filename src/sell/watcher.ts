/**
 * Looks at sell intents when due: pending hashes waiting for confirmations, Algorand payments found
 * by their note, and expiry. Reuses the tracker's scheduler: BullMQ on Redis (one job per intent and
 * purpose, so any number of processes share the work), in-process timers without Redis.
 */
import type { Logger } from '../log/logger.js';
import { createBullScheduler, createLocalScheduler, type Scheduler } from '../tracker/scheduler.js';
import type { SellService } from './service.js';

export interface SellWatcher {
  schedule(intentId: string, delayMs: number, kind: 'poll' | 'expiry'): Promise<void>;
  start(service: SellService): Promise<void>;
  stop(): Promise<void>;
}

const EXPIRY_SUFFIX = '-x';

export function createSellWatcher(opts: {
  redisUrl?: string;
  prefix: string;
  logger: Logger;
  concurrency?: number;
}): SellWatcher {
  const logger = opts.logger.child({ component: 'sell-watcher' });
  const scheduler: Scheduler = opts.redisUrl
    ? createBullScheduler({
        url: opts.redisUrl,
        prefix: `${opts.prefix}bull`,
        queueName: 'sell',
        concurrency: opts.concurrency ?? 20,
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
