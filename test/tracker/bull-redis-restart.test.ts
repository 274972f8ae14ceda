/**
 * The BullMQ scheduler across Redis trouble. BullMQ never sets up again a connection whose setup
 * failed (Redis resetting it as a replica's worker started, in the chaos run), and the worker then
 * retries it without pause at full CPU, or waits for ever. The scheduler closes such a worker and
 * starts a new one, so polls due after Redis is back still run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Queue, Worker } from 'bullmq';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createLogger, type Logger } from '../../src/log/logger.js';
import { createBullScheduler, type Scheduler } from '../../src/tracker/scheduler.js';
import { freePort, type OwnRedis, ownRedis } from '../helpers/redis-server.js';
import { waitFor } from '../helpers/wait.js';

const dir = mkdtempSync(join(tmpdir(), 'rampchat-bull-restart-'));
let redis: OwnRedis | undefined;
let scheduler: Scheduler | undefined;

afterEach(async () => {
  await scheduler?.stop().catch(() => {});
  scheduler = undefined;
  await redis?.kill();
  redis = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A Redis of the test's own and a started scheduler on it that records each order it polls. */
async function startOn(
  name: string,
  opts: { aof?: boolean; logger?: Logger; onWorker?: (w: Worker) => void; onQueue?: (q: Queue) => void },
): Promise<{ polled: string[] }> {
  const aof = opts.aof ?? false;
  redis = ownRedis({ port: await freePort(), dir: aof ? dir : mkdtempSync(join(dir, `${name}-`)), aof });
  await redis.start();
  const polled: string[] = [];
  scheduler = createBullScheduler({
    url: redis.url,
    prefix: `rc-${name}`,
    concurrency: 4,
    logger: opts.logger ?? createLogger({ level: 'silent' }),
    ...(opts.onWorker ? { onWorker: opts.onWorker } : {}),
    ...(opts.onQueue ? { onQueue: opts.onQueue } : {}),
  });
  await scheduler.start(async (orderId) => {
    polled.push(orderId);
    return { done: true };
  });
  return { polled };
}

/** The state BullMQ is left in when Redis resets a connection as it is set up: rejected for good. */
function wedge(client: Queue | Worker): void {
  const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
  const wedged = Promise.reject(reset);
  wedged.catch(() => {});
  (
    client as unknown as { backend: { connection: { initializing: Promise<unknown> } } }
  ).backend.connection.initializing = wedged;
}

describe('the BullMQ scheduler across a Redis restart', () => {
  it('runs polls due after Redis came back, even when it went down as the worker started', async () => {
    let errors = 0;
    const logger = createLogger({ level: 'silent' });
    logger.warn = ((..._args: unknown[]) => {
      errors += 1;
    }) as typeof logger.warn;
    const { polled } = await startOn('test', { aof: true, logger });
    if (!redis) throw new Error('no Redis');
    // Down at once, as the worker sets up its connections; back 1.5 s later.
    await redis.kill();
    await new Promise((r) => setTimeout(r, 1_500));
    await redis.start();
    // The queue's client may still be reconnecting: a refused enqueue is tried again, as tracking does.
    await waitFor('the enqueue after the restart', () =>
      scheduler!.enqueue('D-after-1', 0).then(
        () => true,
        () => false,
      ),
    );
    await waitFor('the poll due after the restart', () => polled.includes('D-after-1'), 20_000);
    // A wedged worker reports thousands of errors a second; a healthy one a few while Redis is down.
    const before = errors;
    await new Promise((r) => setTimeout(r, 1_000));
    expect(errors - before).toBeLessThan(50);
  }, 40_000);

  it('closes a worker wedged on a connection whose setup failed, and polls with a new one', async () => {
    const workers: Worker[] = [];
    const warnings: string[] = [];
    const logger = createLogger({ level: 'silent' });
    logger.warn = ((a: unknown, b?: unknown) => {
      warnings.push(typeof a === 'string' ? a : String(b));
    }) as typeof logger.warn;
    const { polled } = await startOn('wedge', { logger, onWorker: (w) => workers.push(w) });
    await scheduler!.enqueue('D-before', 0);
    await waitFor('a poll by the first worker', () => polled.includes('D-before'), 10_000);
    // As seen in the chaos run with the inspector.
    wedge(workers[0]!);
    await scheduler!.enqueue('D-after', 0);
    await waitFor('the poll, by a new worker', () => polled.includes('D-after'), 25_000);
    expect(workers.length).toBe(2);
    expect(workers[0]!.closing).toBeTruthy();
    expect(warnings.some((w) => /wedged/.test(w))).toBe(true);
  }, 40_000);

  it('closes a worker whose errors come without pause (it would hold the event loop) for a new one', async () => {
    const workers: Worker[] = [];
    const { polled } = await startOn('storm', { onWorker: (w) => workers.push(w) });
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    // What BullMQ's loop does when a connection fails at once, for good: one error after another.
    for (let i = 0; i < 250; i++) workers[0]!.emit('error', reset);
    expect(workers[0]!.closing).toBeTruthy();
    await waitFor('a new worker', () => workers.length === 2, 10_000);
    await scheduler!.enqueue('D-storm', 0);
    await waitFor('the poll, by the new worker', () => polled.includes('D-storm'), 10_000);
  }, 30_000);

  it('sets up again a queue whose connection setup failed, so orders are still queued', async () => {
    const queues: Queue[] = [];
    const { polled } = await startOn('queue', { onQueue: (q) => queues.push(q) });
    wedge(queues[0]!);
    await scheduler!.enqueue('D-queued', 0);
    await waitFor('the poll', () => polled.includes('D-queued'), 10_000);
    expect(queues.length).toBe(2);
  }, 30_000);
});
