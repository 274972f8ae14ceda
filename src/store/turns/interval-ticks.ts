/**
 * One tick per interval across every process: each looks every quarter interval, and the first to
 * take the interval (`take`, shared through Redis or memory) runs it; a tick still running is not
 * started again. The alert ticker and the chart recorder both run on it.
 */
import type { Logger } from '../../log/logger.js';

export interface IntervalTicks<R> {
  start(): void;
  /** Stops looking and waits for a tick still running. */
  stop(): Promise<void>;
  /** Runs this interval's tick when no process (this one included) has taken it yet. */
  maybeTick(): Promise<R | undefined>;
}

export function intervalTicks<R>(o: {
  intervalMs: number;
  now: () => number;
  /** Takes interval `n` for this process (a lease of `leaseMs`); false when another took it. */
  take: (n: number, leaseMs: number) => Promise<boolean>;
  tick: () => Promise<R>;
  log: Logger;
  /** What a failed tick is logged as. */
  what: string;
}): IntervalTicks<R> {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let lastInterval = -1;
  const maybeTick = async (): Promise<R | undefined> => {
    const n = Math.floor(o.now() / o.intervalMs);
    if (n === lastInterval) return undefined;
    lastInterval = n;
    return (await o.take(n, o.intervalMs * 3)) ? o.tick() : undefined;
  };
  return {
    start() {
      const every = Math.max(50, Math.floor(o.intervalMs / 4));
      timer = setInterval(() => {
        if (!running)
          running = maybeTick()
            .catch((err: unknown) => o.log.warn({ err: (err as Error).message }, o.what))
            .finally(() => {
              running = undefined;
            });
      }, every);
      timer.unref?.();
    },
    async stop() {
      clearInterval(timer);
      await running;
    },
    maybeTick,
  };
}
