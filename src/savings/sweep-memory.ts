/**
 * The in-process due sweep for local mode: a timer over the memory store's due Map. One process, so
 * a taken plan is marked `Infinity` (in progress) rather than leased; its next due time is written
 * back only while that mark still holds, so a Resume or Cancel made during the run wins as it does
 * against a lease in sweep.ts.
 */
import type { Logger } from '../log/logger.js';
import type { DueHandler, DueSweep } from './sweep.js';

const TAKEN = Number.POSITIVE_INFINITY;

export interface MemoryDueSweepOptions {
  due: Map<string, number>;
  concurrency: number;
  sweepMs?: number;
  onTake?: (ids: string[]) => void;
  logger: Logger;
}

export function createMemoryDueSweep(opts: MemoryDueSweepOptions): DueSweep {
  const running = new Set<Promise<void>>();
  /** Ids being handled: a plan scheduled again during its run is not taken twice at once. */
  const inflight = new Set<string>();
  let handler: DueHandler | undefined;
  let timer: NodeJS.Timeout | undefined;
  let dead = false;

  const run = async (h: DueHandler, id: string) => {
    let next: number | undefined;
    try {
      next = await h(id);
    } catch (err) {
      opts.logger.error({ err, planId: id }, 'a standing buy run crashed; trying again in a minute');
      next = Date.now() + 60_000;
    }
    if (dead || opts.due.get(id) !== TAKEN) return;
    if (next === undefined) opts.due.delete(id);
    else opts.due.set(id, next);
  };

  const sweep = () => {
    const h = handler;
    if (!h || dead) return;
    const now = Date.now();
    const ids = [...opts.due]
      .filter(([id, at]) => at <= now && !inflight.has(id))
      .sort((a, b) => a[1] - b[1])
      .slice(0, Math.max(0, opts.concurrency - running.size))
      .map(([id]) => id);
    if (ids.length) opts.onTake?.(ids);
    for (const id of ids) {
      opts.due.set(id, TAKEN);
      inflight.add(id);
      const p = run(h, id).finally(() => {
        running.delete(p);
        inflight.delete(id);
      });
      running.add(p);
    }
  };

  return {
    start(h) {
      if (handler) return;
      handler = h;
      timer = setInterval(sweep, opts.sweepMs ?? 1_000);
      timer.unref();
      sweep();
    },
    async stop() {
      handler = undefined;
      clearInterval(timer);
      await Promise.allSettled([...running]);
    },
    abandon() {
      dead = true;
      handler = undefined;
      clearInterval(timer);
      inflight.clear();
    },
  };
}
