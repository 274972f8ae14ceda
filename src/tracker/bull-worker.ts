/**
 * The BullMQ worker that runs the tracker's due polls, kept alive. BullMQ never sets up again a
 * connection whose setup failed (Redis reset it as the worker started: seen in the chaos run, a
 * replica coming up as Redis went down), and such a worker then either retries it without pause,
 * holding the event loop at full CPU, or waits for ever. Two checks close it and start a new one:
 * - a storm of errors (`WEDGED_ERRORS_PER_SECOND`), checked as each comes, since timers do not run
 *   while it spins;
 * - polls waiting in the queue for `STUCK_AFTER_MS` while this worker, running none, starts none (a
 *   healthy worker takes a waiting job within milliseconds).
 * A still-pending order's job goes back to the delayed set with `job.moveToDelayed`.
 */
import type { Queue, Worker } from 'bullmq';
import type { RedisClientType } from 'redis';
import type { Logger } from '../log/logger.js';
import { createResilientClient } from '../store/connect.js';
import { isStoreUnavailable } from '../store/errors.js';
import type { PollHandler } from './poll-types.js';

type BullMQ = typeof import('bullmq');

const WEDGED_ERRORS_PER_SECOND = 200;
const STUCK_AFTER_MS = 10_000;
const LIVENESS_CHECK_MS = 2_500;
const RESTART_DELAY_MS = 1_000;

export interface PollWorkerOptions {
  url: string;
  prefix: string;
  name: string;
  concurrency: number;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  logger: Logger;
  /** Test seam: sees each worker started. */
  onWorker?: (worker: Worker) => void;
}

export interface SupervisedWorker {
  start(handler: PollHandler): Promise<void>;
  stop(): Promise<void>;
}

/** Runs one poll worker at a time on the queue, replacing it when it is wedged. */
export function superviseWorker(
  bullmq: BullMQ,
  queue: () => Promise<Queue>,
  opts: PollWorkerOptions,
): SupervisedWorker {
  let current: RunningWorker | undefined;
  let handler: PollHandler | undefined;
  let stopped = false;
  let waitingSince: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let liveness: NodeJS.Timeout | undefined;

  const replace = (why: string) => {
    const old = current;
    if (!old || stopped) return;
    opts.logger.warn(
      { why },
      'tracker worker wedged by a Redis connection that failed as it was set up; starting a new one',
    );
    current = undefined;
    void old.worker.close(true).catch(() => {});
    void old.client.close().catch(() => {});
    restartAfter(RESTART_DELAY_MS);
  };
  const startOne = async () => {
    const started = runningWorker(bullmq, opts, handler!, () => replace('errors without pause'));
    current = started;
    waitingSince = undefined;
    opts.onWorker?.(started.worker);
    await started.worker.waitUntilReady();
  };
  const restartAfter = (delayMs: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (stopped || current) return;
      startOne().catch((err: unknown) => {
        opts.logger.warn({ err }, 'tracker worker could not start; trying again');
        replace('could not start');
        restartAfter(Math.min(delayMs * 2, 30_000));
      });
    }, delayMs);
    timer.unref();
  };
  const checkLiveness = async () => {
    const watched = current;
    if (!watched) return;
    const { waiting = 0 } = await (await queue()).getJobCounts('waiting');
    waitingSince = waiting ? (waitingSince ?? Date.now()) : undefined;
    // A worker busy with slow polls (a ramp timing out) takes no new one either: that is not wedged.
    if (current !== watched || watched.active > 0) return;
    if (takesNone(waitingSince, watched.lastJobAt, Date.now())) replace('polls waiting while it takes none');
  };

  return {
    async start(h) {
      if (current) return;
      handler = h;
      await startOne();
      liveness = setInterval(() => void checkLiveness().catch(() => {}), LIVENESS_CHECK_MS);
      liveness.unref();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearInterval(liveness);
      const last = current;
      current = undefined;
      await last?.worker.close();
      if (last?.client.isOpen) await last.client.close();
    },
  };
}

/** A worker, its client, and the polls it has running and when it last started one. */
interface RunningWorker {
  worker: Worker;
  client: RedisClientType;
  active: number;
  lastJobAt: number;
}

/** Starts a worker on a client of its own, counting the polls it runs. */
function runningWorker(
  bullmq: BullMQ,
  opts: PollWorkerOptions,
  handler: PollHandler,
  onStorm: () => void,
): RunningWorker {
  const client = createResilientClient({
    url: opts.url,
    name: 'bullmq worker',
    queueWhileDown: true,
    logger: opts.logger,
  });
  const running = { active: 0, lastJobAt: Date.now(), client } as RunningWorker;
  const hooks = {
    onJob: () => {
      running.lastJobAt = Date.now();
      running.active += 1;
    },
    onJobDone: () => {
      running.active -= 1;
    },
    onStorm,
  };
  running.worker = createPollWorker(bullmq, opts, client, handler, hooks);
  return running;
}

/** Polls have waited `STUCK_AFTER_MS` and the worker has started none for as long. */
const takesNone = (waitingSince: number | undefined, lastJobAt: number, now: number): boolean =>
  waitingSince !== undefined && now - waitingSince >= STUCK_AFTER_MS && now - lastJobAt >= STUCK_AFTER_MS;

/** One BullMQ worker running `handler`; `onStorm` when its errors come without pause. */
function createPollWorker(
  bullmq: BullMQ,
  opts: PollWorkerOptions,
  connection: RedisClientType,
  handler: PollHandler,
  hooks: { onJob(): void; onJobDone(): void; onStorm(): void },
): Worker {
  const worker = new bullmq.Worker(
    opts.name,
    async (job, token) => {
      hooks.onJob();
      try {
        const decision = await handler(job.id ?? String(job.data.orderId));
        if ('next' in decision) {
          await job.moveToDelayed(Date.now() + Math.max(0, decision.next), token);
          throw new bullmq.DelayedError();
        }
      } finally {
        hooks.onJobDone();
      }
    },
    {
      connection,
      prefix: opts.prefix,
      concurrency: opts.concurrency,
      lockDuration: opts.lockDurationMs ?? 30_000,
      stalledInterval: opts.stalledIntervalMs ?? 30_000,
      // A stalled job is a worker that died mid-poll: always retry it, never fail the order.
      maxStalledCount: Number.MAX_SAFE_INTEGER,
    },
  );
  let windowStart = Date.now();
  let inWindow = 0;
  worker.on('error', (err) => {
    const now = Date.now();
    if (now - windowStart >= 1_000) {
      windowStart = now;
      inWindow = 0;
    }
    inWindow += 1;
    if (inWindow === WEDGED_ERRORS_PER_SECOND) hooks.onStorm();
    if (inWindow > 3) return; // a few lines a second at most, not one per retry
    if (!isStoreUnavailable(err)) opts.logger.warn({ err }, 'tracker worker error');
  });
  worker.on('failed', (job, err) =>
    opts.logger.error({ err, orderId: job?.id }, 'tracker job failed; it is retried by start()'),
  );
  return worker;
}
