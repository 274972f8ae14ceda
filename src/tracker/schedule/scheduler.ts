/**
 * Runs "poll this order" at the time it is due. With Redis: the sweep scheduler (./sweep-scheduler.ts,
 * one sorted set shared by every process). Without Redis: timers in this process (below).
 */
import type { Logger } from '../../log/logger.js';
import type { PollHandler } from './poll-types.js';

export type { PollDecision, PollHandler } from './poll-types.js';

export interface QueueStats {
  waiting: number;
  delayed: number;
  active: number;
  failed: number;
}

export interface Scheduler {
  /** Queues the order's poll after `delayMs` unless it is already queued or running. */
  enqueue(orderId: string, delayMs: number): Promise<void>;
  start(handler: PollHandler): Promise<void>;
  stop(): Promise<void>;
  stats(): Promise<QueueStats>;
}

/** In-process scheduler for local mode: same contract, nothing survives the process. */
export function createLocalScheduler(opts: { concurrency: number; logger: Logger }): Scheduler {
  const timers = new Map<string, NodeJS.Timeout>();
  const beforeStart = new Map<string, number>();
  const ready: string[] = [];
  const running = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  let handler: PollHandler | undefined;
  let stopped = false;

  const has = (id: string) => timers.has(id) || running.has(id) || ready.includes(id) || beforeStart.has(id);
  const arm = (id: string, delayMs: number) => {
    if (stopped) return;
    const t = setTimeout(
      () => {
        timers.delete(id);
        ready.push(id);
        pump();
      },
      Math.max(0, delayMs),
    );
    timers.set(id, t);
  };
  const pump = () => {
    while (handler && !stopped && running.size < opts.concurrency && ready.length) {
      const id = ready.shift()!;
      running.add(id);
      const run = handler(id)
        .then((d) => ('next' in d ? d : undefined))
        .catch((err) => {
          opts.logger.error({ err, orderId: id }, 'tracker poll crashed; retrying');
          return { next: 5_000 };
        })
        .then((d) => {
          running.delete(id);
          if (d) arm(id, d.next);
        })
        .finally(() => {
          inFlight.delete(run);
          pump();
        });
      inFlight.add(run);
    }
  };

  return {
    async enqueue(orderId, delayMs) {
      if (has(orderId)) return;
      if (!handler) beforeStart.set(orderId, Date.now() + delayMs);
      else arm(orderId, delayMs);
    },
    async start(h) {
      if (handler) return;
      handler = h;
      stopped = false;
      for (const [id, due] of beforeStart) arm(id, due - Date.now());
      beforeStart.clear();
    },
    async stop() {
      stopped = true;
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      ready.length = 0;
      await Promise.allSettled([...inFlight]);
      handler = undefined;
    },
    async stats() {
      return {
        waiting: ready.length,
        delayed: timers.size + beforeStart.size,
        active: running.size,
        failed: 0,
      };
    },
  };
}
