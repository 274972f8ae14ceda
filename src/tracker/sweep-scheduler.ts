/**
 * The sweep scheduler: one Redis sorted set of order ids scored by when each poll is due, swept by
 * every process. A sweep leases the due ids it takes (their score moves to the end of the lease), so
 * each is polled by one process at a time; a process that dies mid-poll leaves its orders to be taken
 * again when their lease ends (as BullMQ retries a stalled job). About 60 bytes of Redis per order
 * instead of a BullMQ job hash (about 650); chosen with TRACKER_SCHEDULER=sweep.
 */
import type { Logger } from '../log/logger.js';
import { connectOnFirstUse, createResilientClient } from '../store/connect.js';
import { runScript } from '../store/script.js';
import type { PollHandler, QueueStats, Scheduler } from './scheduler.js';

/** Leases up to ARGV[3] ids due by ARGV[1]: each moves to ARGV[2] (the lease's end). */
const TAKE_DUE = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(ids) do redis.call('ZADD', KEYS[1], 'XX', ARGV[2], id) end
return ids
`;

/** Next poll: moves the id's score only while this lease (ARGV[3]) still holds it. */
const RESCHEDULE = `
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[3]) then redis.call('ZADD', KEYS[1], 'XX', ARGV[2], ARGV[1]) end
return 1
`;

/** Done: removes the id only while this lease (ARGV[2]) still holds it. */
const REMOVE = `
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then redis.call('ZREM', KEYS[1], ARGV[1]) end
return 1
`;

export interface SweepSchedulerOptions {
  url: string;
  /** The sorted set's key. */
  key: string;
  concurrency: number;
  /** How long a taken poll is this process's; after it, another process may take the order. */
  leaseMs?: number;
  /** How often a process looks for due polls when it has room. */
  sweepMs?: number;
  logger: Logger;
}

/** A scheduler over one sorted set; any number of processes may share it. */
export function createSweepScheduler(opts: SweepSchedulerOptions): Scheduler {
  const { key } = opts;
  const client = createResilientClient({
    url: opts.url,
    name: 'tracker sweep',
    queueWhileDown: true,
    logger: opts.logger,
  });
  const redis = connectOnFirstUse(client);
  const leaseMs = opts.leaseMs ?? 30_000;
  const sweepMs = opts.sweepMs ?? 100;
  let handler: PollHandler | undefined;
  let timer: NodeJS.Timeout | undefined;
  let sweeping = false;
  const running = new Set<Promise<void>>();

  const poll = async (h: PollHandler, id: string, leaseEnd: number) => {
    let next: number | undefined;
    try {
      const d = await h(id);
      next = 'next' in d ? d.next : undefined;
    } catch (err) {
      opts.logger.error({ err, orderId: id }, 'tracker poll crashed; retrying');
      next = 5_000;
    }
    const score = String(leaseEnd);
    const r = await redis();
    if (next === undefined) await runScript(r, REMOVE, { keys: [key], arguments: [id, score] });
    else
      await runScript(r, RESCHEDULE, {
        keys: [key],
        arguments: [id, String(Date.now() + Math.max(0, next)), score],
      });
  };

  const sweep = async () => {
    if (sweeping || !handler) return;
    sweeping = true;
    try {
      for (;;) {
        // stop() may clear the handler while a sweep waits on Redis.
        const h = handler as PollHandler | undefined;
        if (!h || running.size >= opts.concurrency) break;
        const now = Date.now();
        const leaseEnd = now + leaseMs;
        const ids = (await runScript(await redis(), TAKE_DUE, {
          keys: [key],
          arguments: [String(now), String(leaseEnd), String(opts.concurrency - running.size)],
        })) as string[];
        for (const id of ids) {
          const p = poll(h, id, leaseEnd)
            .catch((err: unknown) => opts.logger.warn({ err, orderId: id }, 'could not reschedule a poll'))
            .finally(() => {
              running.delete(p);
              // Room again: look for more at once rather than at the next tick.
              void sweep();
            });
          running.add(p);
        }
        if (ids.length === 0) break;
      }
    } catch (err) {
      opts.logger.warn({ err }, 'tracker sweep failed; trying again at the next tick');
    } finally {
      sweeping = false;
    }
  };

  return {
    async enqueue(orderId, delayMs) {
      // NX: an order already queued (or being polled) keeps its turn.
      await (await redis()).zAdd(
        key,
        { score: Date.now() + Math.max(0, Math.round(delayMs)), value: orderId },
        { NX: true },
      );
    },
    async start(h) {
      if (handler) return;
      handler = h;
      timer = setInterval(() => void sweep(), sweepMs);
      timer.unref();
      void sweep();
    },
    async stop() {
      handler = undefined;
      if (timer) clearInterval(timer);
      timer = undefined;
      await Promise.allSettled([...running]);
      if (client.isOpen) await client.close();
    },
    async stats(): Promise<QueueStats> {
      const now = Date.now();
      const r = await redis();
      const [waiting, total] = await Promise.all([r.zCount(key, '-inf', now), r.zCard(key)]);
      return { waiting, delayed: total - waiting, active: running.size, failed: 0 };
    },
  };
}
