/**
 * The standing buys' due set, swept by every process: the tracker's lease pattern
 * (src/tracker/schedule/sweep-scheduler.ts). A sweep leases the due plans it takes (their score moves to the
 * lease's end, renewed while the run is handled), so one process at a time handles a plan; a process
 * that dies mid-run leaves the plan to be taken again when the lease ends. The next due time is
 * written only while the lease still holds, so a process that lost its lease cannot undo the work of
 * the one that took over.
 */
import type { RedisClientType } from 'redis';
import type { Logger } from '../log/logger.js';
import { runScript } from '../store/script.js';
import { REMOVE, RESCHEDULE, TAKE_DUE } from '../store/turns/leased-due-set.js';

/** What a run's handler answers: when the plan is next due (epoch ms), or undefined to drop it from the set. */
export type DueHandler = (id: string) => Promise<number | undefined>;

export interface DueSweepOptions {
  redis: () => Promise<RedisClientType>;
  key: string;
  /** Plans handled at once by this process (each waits for its reminder to be handed to the channel). */
  concurrency: number;
  /** How long a taken plan is this process's without renewal (renewed at half). Default 30 s. */
  leaseMs?: number;
  sweepMs?: number;
  /** Called with the ids of each take (tests count claims). */
  onTake?: (ids: string[]) => void;
  logger: Logger;
}

export interface DueSweep {
  start(handler: DueHandler): void;
  /** Takes nothing new, lets the runs in progress finish, then returns. */
  stop(): Promise<void>;
  /** Stops every timer at once and forgets the runs in progress, as a SIGKILL would (tests). */
  abandon(): void;
}

interface Lease {
  id: string;
  end: number;
  renewing?: Promise<void>;
}

export function createDueSweep(opts: DueSweepOptions): DueSweep {
  const leaseMs = opts.leaseMs ?? 30_000;
  const running = new Set<Promise<void>>();
  const leases = new Set<Lease>();
  let handler: DueHandler | undefined;
  let sweeping: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let renewer: NodeJS.Timeout | undefined;
  let dead = false;

  const renew = () => {
    const now = Date.now();
    for (const lease of leases) {
      if (lease.renewing || lease.end - now > leaseMs / 2) continue;
      lease.renewing = (async () => {
        const end = Date.now() + leaseMs;
        const held = await runScript(await opts.redis(), RESCHEDULE, {
          keys: [opts.key],
          arguments: [lease.id, String(end), String(lease.end)],
        }).catch(() => 0);
        if (Number(held) === 1) lease.end = end;
      })().finally(() => {
        lease.renewing = undefined;
      });
    }
  };

  const run = async (h: DueHandler, id: string, leaseEnd: number) => {
    const lease: Lease = { id, end: leaseEnd };
    leases.add(lease);
    let next: number | undefined;
    try {
      next = await h(id);
    } catch (err) {
      opts.logger.error({ err, planId: id }, 'a standing buy run crashed; trying again in a minute');
      next = Date.now() + 60_000;
    }
    if (dead) return;
    leases.delete(lease);
    await lease.renewing;
    const r = await opts.redis();
    const score = String(lease.end);
    if (next === undefined) await runScript(r, REMOVE, { keys: [opts.key], arguments: [id, score] });
    else await runScript(r, RESCHEDULE, { keys: [opts.key], arguments: [id, String(next), score] });
  };

  const sweepOnce = async () => {
    try {
      for (;;) {
        const h = handler;
        if (!h || dead || running.size >= opts.concurrency) break;
        const now = Date.now();
        const leaseEnd = now + leaseMs;
        const ids = (await runScript(await opts.redis(), TAKE_DUE, {
          keys: [opts.key],
          arguments: [String(now), String(leaseEnd), String(opts.concurrency - running.size)],
        })) as string[];
        if (dead) return;
        if (ids.length) opts.onTake?.(ids);
        for (const id of ids) {
          const p = run(h, id, leaseEnd)
            .catch((err: unknown) =>
              opts.logger.warn({ err, planId: id }, 'could not reschedule a standing buy'),
            )
            .finally(() => {
              running.delete(p);
              // Refill in batches, once half the room is free: one take for many runs, not one each.
              if (running.size <= opts.concurrency / 2) sweep();
            });
          running.add(p);
        }
        if (ids.length === 0) break;
      }
    } catch (err) {
      opts.logger.warn({ err }, 'standing buys sweep failed; trying again at the next tick');
    }
  };

  const sweep = () => {
    if (sweeping || !handler || dead) return;
    sweeping = sweepOnce().finally(() => {
      sweeping = undefined;
    });
  };

  return {
    start(h) {
      if (handler) return;
      handler = h;
      timer = setInterval(sweep, opts.sweepMs ?? 1_000);
      timer.unref();
      renewer = setInterval(renew, leaseMs / 4);
      renewer.unref();
      sweep();
    },
    async stop() {
      handler = undefined;
      clearInterval(timer);
      await sweeping;
      await Promise.allSettled([...running]);
      clearInterval(renewer);
    },
    abandon() {
      dead = true;
      handler = undefined;
      clearInterval(timer);
      clearInterval(renewer);
      leases.clear();
    },
  };
}
