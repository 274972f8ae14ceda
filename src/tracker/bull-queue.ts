/**
 * The tracker's BullMQ queue, set up again when its first setup failed: Redis resetting the
 * connection as it is set up leaves BullMQ holding that failure, refusing every later call for good
 * (see ./bull-worker.ts for the same on the worker's side).
 */
import type { Queue } from 'bullmq';
import type { RedisClientType } from 'redis';
import type { Logger } from '../log/logger.js';
import { isStoreUnavailable } from '../store/errors.js';

type BullMQ = typeof import('bullmq');

export interface SupervisedQueue {
  /** The queue, ready; set up again first when its setup had failed (rejects while Redis is down). */
  ready(): Promise<Queue>;
  close(): Promise<void>;
}

export function superviseQueue(
  bullmq: BullMQ,
  name: string,
  client: RedisClientType,
  opts: { prefix: string; logger: Logger; onQueue?: (queue: Queue) => void },
): SupervisedQueue {
  const newQueue = () => {
    const q = new bullmq.Queue(name, {
      connection: client,
      prefix: opts.prefix,
      defaultJobOptions: { removeOnComplete: true, removeOnFail: false },
    });
    // Lost connections are reported once by the client (src/store/connect.ts), not at every retry.
    q.on('error', (err) => {
      if (!isStoreUnavailable(err)) opts.logger.warn({ err }, 'tracker queue error');
    });
    opts.onQueue?.(q);
    return q;
  };
  let queue = newQueue();
  return {
    async ready() {
      const q = queue;
      try {
        await q.waitUntilReady();
      } catch (err) {
        if (queue === q) {
          opts.logger.warn({ err }, 'tracker queue setup failed; setting it up again');
          queue = newQueue();
          void q.close().catch(() => {});
        }
        await queue.waitUntilReady();
      }
      return queue;
    },
    close: () => queue.close(),
  };
}
