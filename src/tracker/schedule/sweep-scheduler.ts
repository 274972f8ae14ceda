/**
 * The sweep scheduler: one Redis sorted set of ids scored by when each poll is due, swept by every
 * process. A sweep leases the due ids it takes (their score moves to the end of the lease, renewed
 * while the poll runs), so each is polled by one process at a time; a process that dies mid-poll
 * leaves its ids to be taken again when their lease ends. A process sweeps again when the set's
 * next poll is due (the sweep reads it), when it queues a poll itself, or after `idleMs` at the
 * latest (for what other processes queue and do not take), not every `sweepMs` as it did. About 106 bytes of Redis per order (its
 * share of the set, which also stands for the tracking set). The tracker (`<prefix>due`) and the
 * sell watcher (`<prefix>selldue`) each sweep a set of their own.
 */
import type { RedisClientType } from 'redis';
import type { Logger } from '../../log/logger.js';
import { connectOnFirstUse, createResilientClient } from '../../store/connection/connect.js';
import { runScript } from '../../store/script.js';
import { REMOVE, RESCHEDULE, TAKE_DUE_AND_NEXT } from '../../store/turns/leased-due-set.js';
import { type LegacyBullQueue, takeOverBullQueue } from './legacy-bull.js';
import type { PollHandler, QueueStats, Scheduler } from './scheduler.js';

/** How long a stop waits for the polls running (a stop's whole budget is SHUTDOWN_TIMEOUT_MS). */
const STOP_WAIT_MS = 2_000;
/** How long after a failed takeover of a legacy BullMQ queue it is tried again. */
const TAKE_OVER_RETRY_MS = 60_000;

export interface SweepSchedulerOptions {
  url: string;
  /** The sorted set's key. */
  key: string;
  concurrency: number;
  /**
   * How long a taken poll is this process's without renewal (a running poll's lease is renewed once
   * half of it is gone); after it, another process may take the id. Default 30 s.
   */
  leaseMs?: number;
  /** The shortest time between two sweeps, and the wait after a failed one. Default 100 ms. */
  sweepMs?: number;
  /** The longest: a poll another process queued and left is taken this late at most. Default 1 s. */
  idleMs?: number;
  /** A previous version's BullMQ queue whose pending jobs move into the set at the first sweep. */
  legacy?: LegacyBullQueue;
  logger: Logger;
}

/** A sweeping process's state: the client, its handler and the polls it runs. */
interface Sweeper {
  opts: SweepSchedulerOptions;
  redis: () => Promise<RedisClientType>;
  leaseMs: number;
  handler?: PollHandler;
  /** The sweep in progress, if any (one at a time per process; `stop()` waits for it). */
  sweeping?: Promise<void>;
  /** A sweep was asked for while one ran: another follows it at once. */
  again: boolean;
  /** What the last sweep learned: the set's earliest score, or that it failed. */
  nextDue?: number;
  failed: boolean;
  /** The next sweep's timer and when it fires. */
  timer?: NodeJS.Timeout;
  wakeAt: number;
  sweepMs: number;
  idleMs: number;
  /** Whether the legacy queue (if any) has been taken over; if not, when to try again. */
  tookOver: boolean;
  takeOverAt: number;
  running: Set<Promise<void>>;
  /** The leases of the polls in `running`, renewed while they run. */
  leases: Set<Lease>;
}

/** A poll's lease: the score it holds, and its renewal in progress. */
interface Lease {
  id: string;
  end: number;
  renewing?: Promise<void>;
}

/**
 * Renews the leases of the polls this process runs that are past half their length (run every
 * quarter lease by one timer, so a lease is renewed with a quarter of it left at the least).
 */
function renewLeases(w: Sweeper): void {
  const now = Date.now();
  for (const lease of w.leases) {
    if (lease.renewing || lease.end - now > w.leaseMs / 2) continue;
    lease.renewing = (async () => {
      const end = Date.now() + w.leaseMs;
      const held = await runScript(await w.redis(), RESCHEDULE, {
        keys: [w.opts.key],
        arguments: [lease.id, String(end), String(lease.end)],
      }).catch(() => 0);
      // Not held: Redis was away past the lease (another process may have the id now) or lost it.
      if (Number(held) === 1) lease.end = end;
    })().finally(() => {
      lease.renewing = undefined;
    });
  }
}

/** Polls one leased id, then reschedules or removes it while the lease still holds it. */
async function poll(w: Sweeper, h: PollHandler, id: string, leaseEnd: number): Promise<void> {
  const lease: Lease = { id, end: leaseEnd };
  w.leases.add(lease);
  let next: number | undefined;
  try {
    const d = await h(id);
    next = 'next' in d ? d.next : undefined;
  } catch (err) {
    w.opts.logger.error({ err, orderId: id }, 'tracker poll crashed; retrying');
    next = 5_000;
  }
  w.leases.delete(lease);
  await lease.renewing;
  const score = String(lease.end);
  const r = await w.redis();
  if (next === undefined) await runScript(r, REMOVE, { keys: [w.opts.key], arguments: [id, score] });
  else
    await runScript(r, RESCHEDULE, {
      keys: [w.opts.key],
      arguments: [id, String(Date.now() + Math.max(0, next)), score],
    });
}

/**
 * Moves the legacy BullMQ queue's jobs into the set, once per process (the script acts once). A
 * failure is reported and tried again a minute later; polling goes on meanwhile.
 */
async function takeOver(w: Sweeper): Promise<void> {
  const { legacy, key, logger } = w.opts;
  if (w.tookOver || !legacy || Date.now() < w.takeOverAt) return;
  try {
    const moved = await takeOverBullQueue(await w.redis(), key, legacy);
    if (moved >= 0)
      logger.info({ queue: legacy.queue, moved }, 'moved the jobs a previous version queued in BullMQ');
    w.tookOver = true;
  } catch (err) {
    logger.error({ err, queue: legacy.queue }, 'could not move the jobs a previous version queued in BullMQ');
    w.takeOverAt = Date.now() + TAKE_OVER_RETRY_MS;
  }
}

/** Leases due ids while there is room, and polls each. */
async function sweepOnce(w: Sweeper): Promise<void> {
  const { opts, running } = w;
  w.nextDue = undefined;
  w.failed = false;
  try {
    await takeOver(w);
    for (;;) {
      // stop() may clear the handler while a sweep waits on Redis.
      const h = w.handler as PollHandler | undefined;
      if (!h || running.size >= opts.concurrency) {
        // No room: a poll that ends sweeps again, so the next due does not matter now.
        w.nextDue = undefined;
        break;
      }
      const now = Date.now();
      const leaseEnd = now + w.leaseMs;
      const [ids, next] = (await runScript(await w.redis(), TAKE_DUE_AND_NEXT, {
        keys: [opts.key],
        arguments: [String(now), String(leaseEnd), String(opts.concurrency - running.size)],
      })) as [string[], string | null];
      w.nextDue = next === null ? undefined : Number(next);
      for (const id of ids) {
        const p = poll(w, h, id, leaseEnd)
          .catch((err: unknown) => opts.logger.warn({ err, orderId: id }, 'could not reschedule a poll'))
          .finally(() => {
            running.delete(p);
            // Room again: look for more at once rather than at the next tick.
            sweep(w);
          });
        running.add(p);
      }
      if (ids.length === 0) break;
    }
  } catch (err) {
    w.failed = true;
    opts.logger.warn({ err }, 'tracker sweep failed; trying again at the next tick');
  }
}

/** Starts a sweep unless the process is not polling; one asked for during a sweep follows it. */
function sweep(w: Sweeper): void {
  if (!w.handler) return;
  if (w.sweeping) {
    w.again = true;
    return;
  }
  w.again = false;
  w.sweeping = sweepOnce(w).finally(() => {
    w.sweeping = undefined;
    if (w.again) sweep(w);
    else arm(w, nextSweepIn(w));
  });
}

/** How long until the next sweep: when the next poll comes due, within `sweepMs` and `idleMs`. */
function nextSweepIn(w: Sweeper): number {
  if (w.failed) return w.sweepMs;
  // Nothing queued, or no room (a poll that ends sweeps at once): the longest wait.
  if (w.nextDue === undefined) return w.idleMs;
  return Math.min(w.idleMs, Math.max(w.sweepMs, w.nextDue - Date.now()));
}

/**
 * Sets the next sweep `ms` from now, unless one is set sooner than that (a poll queued here while a
 * sweep ran keeps its wake-up, though the sweep's reading of the set came before it).
 */
function arm(w: Sweeper, ms: number): void {
  if (!w.handler) return;
  const at = Date.now() + ms;
  if (w.timer && w.wakeAt <= at) return;
  clearTimeout(w.timer);
  w.wakeAt = at;
  w.timer = setTimeout(() => {
    w.timer = undefined;
    sweep(w);
  }, ms);
  w.timer.unref();
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
  const w: Sweeper = {
    opts,
    redis,
    leaseMs: opts.leaseMs ?? 30_000,
    tookOver: false,
    takeOverAt: 0,
    running: new Set(),
    leases: new Set(),
    again: false,
    failed: false,
    wakeAt: 0,
    sweepMs: opts.sweepMs ?? 100,
    idleMs: Math.max(opts.idleMs ?? 1_000, opts.sweepMs ?? 100),
  };
  let renewer: NodeJS.Timeout | undefined;

  return {
    async enqueue(orderId, delayMs) {
      const wait = Math.max(0, Math.round(delayMs));
      // NX: an order already queued (or being polled) keeps its turn.
      await (await redis()).zAdd(key, { score: Date.now() + wait, value: orderId }, { NX: true });
      // This process sweeps when it comes due, unless it sweeps sooner anyway.
      if (wait === 0) sweep(w);
      else arm(w, wait);
    },
    async start(h) {
      if (w.handler) return;
      w.handler = h;
      renewer = setInterval(() => renewLeases(w), w.leaseMs / 4);
      renewer.unref();
      sweep(w);
    },
    /**
     * Takes no new poll, lets the ones running finish (and record their next turn) for
     * STOP_WAIT_MS at most, then closes. A poll still running then (a ramp call retrying, Redis
     * away) is left as a kill would leave it: its lease lapses and another process polls the order;
     * the release's own claims keep it at most once.
     */
    async stop() {
      w.handler = undefined;
      clearTimeout(w.timer);
      w.timer = undefined;
      let t: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        (async () => {
          await w.sweeping;
          await Promise.allSettled([...w.running]);
          return true;
        })(),
        new Promise<false>((r) => {
          t = setTimeout(() => r(false), STOP_WAIT_MS);
        }),
      ]);
      clearTimeout(t);
      clearInterval(renewer);
      renewer = undefined;
      if (!finished) client.destroy();
      else if (client.isOpen) await client.close();
    },
    async stats(): Promise<QueueStats> {
      const now = Date.now();
      const r = await redis();
      const [waiting, total] = await Promise.all([r.zCount(key, '-inf', now), r.zCard(key)]);
      return { waiting, delayed: total - waiting, active: w.running.size, failed: 0 };
    },
  };
}
