/**
 * The sweep scheduler: one Redis sorted set of order ids scored by when each poll is due, swept by
 * every process. A sweep leases the due ids it takes (their score moves to the end of the lease), so
 * each is polled by one process at a time; a process that dies mid-poll leaves its orders to be taken
 * again when their lease ends (as BullMQ retries a stalled job). About 106 bytes of Redis per order
 * (its share of the set, which also stands for the tracking set) instead of a BullMQ job hash (about
 * 690) and its share of the queue's keys; chosen with TRACKER_SCHEDULER=sweep.
 */
import type { RedisClientType } from 'redis';
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

/** A sweeping process's state: the client, its handler and the polls it runs. */
interface Sweeper {
  opts: SweepSchedulerOptions;
  redis: () => Promise<RedisClientType>;
  leaseMs: number;
  handler?: PollHandler;
  sweeping: boolean;
  running: Set<Promise<void>>;
}

/** Polls one leased order, then reschedules or removes it while the lease still holds it. */
async function poll(w: Sweeper, h: PollHandler, id: string, leaseEnd: number): Promise<void> {
  let next: number | undefined;
  try {
    const d = await h(id);
    next = 'next' in d ? d.next : undefined;
  } catch (err) {
    w.opts.logger.error({ err, orderId: id }, 'tracker poll crashed; retrying');
    next = 5_000;
  }
  const score = String(leaseEnd);
  const r = await w.redis();
  if (next === undefined) await runScript(r, REMOVE, { keys: [w.opts.key], arguments: [id, score] });
  else
    await runScript(r, RESCHEDULE, {
      keys: [w.opts.key],
      arguments: [id, String(Date.now() + Math.max(0, next)), score],
    });
}

/** Leases due orders while there is room, and polls each; one sweep at a time per process. */
async function sweep(w: Sweeper): Promise<void> {
  if (w.sweeping || !w.handler) return;
  w.sweeping = true;
  const { opts, running } = w;
  try {
    for (;;) {
      // stop() may clear the handler while a sweep waits on Redis.
      const h = w.handler as PollHandler | undefined;
      if (!h || running.size >= opts.concurrency) break;
      const now = Date.now();
      const leaseEnd = now + w.leaseMs;
      const ids = (await runScript(await w.redis(), TAKE_DUE, {
        keys: [opts.key],
        arguments: [String(now), String(leaseEnd), String(opts.concurrency - running.size)],
      })) as string[];
      for (const id of ids) {
        const p = poll(w, h, id, leaseEnd)
          .catch((err: unknown) => opts.logger.warn({ err, orderId: id }, 'could not reschedule a poll'))
          .finally(() => {
            running.delete(p);
            // Room again: look for more at once rather than at the next tick.
            void sweep(w);
          });
        running.add(p);
      }
      if (ids.length === 0) break;
    }
  } catch (err) {
    opts.logger.warn({ err }, 'tracker sweep failed; trying again at the next tick');
  } finally {
    w.sweeping = false;
  }
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
  const sweepMs = opts.sweepMs ?? 100;
  const w: Sweeper = { opts, redis, leaseMs: opts.leaseMs ?? 30_000, sweeping: false, running: new Set() };
  let timer: NodeJS.Timeout | undefined;

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
      if (w.handler) return;
      w.handler = h;
      timer = setInterval(() => void sweep(w), sweepMs);
      timer.unref();
      void sweep(w);
    },
    async stop() {
      w.handler = undefined;
      if (timer) clearInterval(timer);
      timer = undefined;
      await Promise.allSettled([...w.running]);
      if (client.isOpen) await client.close();
    },
    async stats(): Promise<QueueStats> {
      const now = Date.now();
      const r = await redis();
      const [waiting, total] = await Promise.all([r.zCount(key, '-inf', now), r.zCard(key)]);
      return { waiting, delayed: total - waiting, active: w.running.size, failed: 0 };
    },
  };
}
