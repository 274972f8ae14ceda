/**
 * Runs "poll this order" at the time it is due. With Redis: one BullMQ job per order, whose id is
 * the order id, so an order is queued at most once across every process. A still-pending order's job
 * is moved back to the delayed set with `job.moveToDelayed` (BullMQ's step-job pattern) instead of
 * being re-added, which BullMQ would refuse while the job exists. Without Redis: timers in this process.
 */
import { createRequire } from 'node:module';
import type { Queue, Worker } from 'bullmq';
import type { Logger } from '../log/logger.js';
import { createResilientClient } from '../store/connect.js';
import { superviseQueue } from './bull-queue.js';
import { superviseWorker } from './bull-worker.js';

import type { PollHandler } from './poll-types.js';

export type { PollDecision, PollHandler } from './poll-types.js';

type BullMQ = typeof import('bullmq');

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

export interface BullSchedulerOptions {
  url: string;
  /** BullMQ key prefix (its keys are `<prefix>:<queue>:…`). */
  prefix: string;
  queueName?: string;
  concurrency: number;
  /** How long a worker's claim on a job lasts without renewal; a dead worker's job is retried after it. */
  lockDurationMs?: number;
  /** How often workers look for jobs whose lock expired. */
  stalledIntervalMs?: number;
  logger: Logger;
  /** Test seams: see each worker and queue the scheduler sets up. */
  onWorker?: (worker: Worker) => void;
  onQueue?: (queue: Queue) => void;
}

/** BullMQ scheduler: any number of processes may run it on the same Redis and prefix. */
export function createBullScheduler(opts: BullSchedulerOptions): Scheduler {
  // BullMQ is CommonJS: required here, so a process without Redis never loads it.
  const bullmq = createRequire(import.meta.url)('bullmq') as BullMQ;
  const name = opts.queueName ?? 'tracker';
  const queueClient = createResilientClient({
    url: opts.url,
    name: 'bullmq queue',
    queueWhileDown: true,
    logger: opts.logger,
  });
  const queue = superviseQueue(bullmq, name, queueClient, opts);
  const worker = superviseWorker(bullmq, queue.ready, {
    url: opts.url,
    prefix: opts.prefix,
    name,
    concurrency: opts.concurrency,
    lockDurationMs: opts.lockDurationMs,
    stalledIntervalMs: opts.stalledIntervalMs,
    logger: opts.logger,
    onWorker: opts.onWorker,
  });

  return {
    async enqueue(orderId, delayMs) {
      const ready = await queue.ready();
      const existing = await ready.getJob(orderId);
      if (existing) {
        // A job that failed (e.g. stalled too often) would block the id forever: put it back.
        if (await existing.isFailed()) await existing.retry('failed');
        return;
      }
      await ready.add('poll', { orderId }, { jobId: orderId, delay: Math.max(0, Math.round(delayMs)) });
    },
    start: (handler) => worker.start(handler),
    async stop() {
      await worker.stop();
      await queue.close();
      if (queueClient.isOpen) await queueClient.close();
    },
    async stats() {
      const c = await (await queue.ready()).getJobCounts('waiting', 'delayed', 'active', 'failed');
      return {
        waiting: c.waiting ?? 0,
        delayed: c.delayed ?? 0,
        active: c.active ?? 0,
        failed: c.failed ?? 0,
      };
    },
  };
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
