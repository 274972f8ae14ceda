/**
 * Starting this version on a Redis a previous version ran with the BullMQ scheduler: the jobs it
 * queued (`<prefix>bull:<queue>:…`, written here as BullMQ 6.7 laid them out) are moved into the
 * sweep's due set at the first sweep and the queue's keys deleted, so no pending tracker order and
 * no sell intent the watcher still had to look at is lost.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.js';
import { createSellWatcher, sellDueKey } from '../../src/sell/chain/watcher.js';
import type { SellService } from '../../src/sell/service.js';
import { takeOverBullQueue } from '../../src/tracker/schedule/legacy-bull.js';
import { createSweepScheduler } from '../../src/tracker/schedule/sweep-scheduler.js';
import { initialTrackingState } from '../../src/tracker/store/state.js';
import { createRedisTrackerStore } from '../../src/tracker/store/store.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';
import { createOnramp, type Env, recordingNotifier, setupEnv, textIds, waitFor } from './helpers.js';

let env: Env | undefined;
const prefixes: string[] = [];
afterEach(async () => {
  await env?.close();
  env = undefined;
});
afterAll(async () => {
  const redis = await connectTestRedis();
  for (const p of prefixes) await flushPrefix(redis, p);
  await redis.quit();
});

type Redis = Awaited<ReturnType<typeof connectTestRedis>>;

/** Jobs of a BullMQ queue as BullMQ 6.7 keeps them, under `base` (`<prefix>bull:<queue>:`). */
async function bullQueue(
  redis: Redis,
  base: string,
  jobs: {
    wait?: string[];
    active?: string[];
    failed?: string[];
    completed?: string[];
    delayed?: Array<[string, number]>;
  },
): Promise<void> {
  const all = [
    ...(jobs.wait ?? []),
    ...(jobs.active ?? []),
    ...(jobs.failed ?? []),
    ...(jobs.completed ?? []),
    ...(jobs.delayed ?? []).map(([id]) => id),
  ];
  for (const id of all) {
    await redis.hSet(`${base}${id}`, {
      name: 'poll',
      data: JSON.stringify({ orderId: id }),
      opts: '{}',
      timestamp: '1',
    });
  }
  for (const id of jobs.active ?? []) await redis.set(`${base}${id}:lock`, 'a-dead-worker');
  if (jobs.wait?.length) await redis.lPush(`${base}wait`, jobs.wait);
  if (jobs.active?.length) await redis.lPush(`${base}active`, jobs.active);
  for (const id of jobs.failed ?? []) await redis.zAdd(`${base}failed`, { score: 1, value: id });
  for (const id of jobs.completed ?? []) await redis.zAdd(`${base}completed`, { score: 1, value: id });
  let counter = 1;
  for (const [id, at] of jobs.delayed ?? [])
    await redis.zAdd(`${base}delayed`, { score: at * 0x1000 + counter++, value: id });
  await redis.hSet(`${base}meta`, { 'opts.maxLenEvents': '10000', version: 'bullmq:6.7.0' });
  await redis.set(`${base}id`, String(all.length));
  await redis.xAdd(`${base}events`, '*', { event: 'added' });
  await redis.set(`${base}stalled-check`, '1');
}

const keysUnder = async (redis: Redis, base: string) => {
  const keys: string[] = [];
  for await (const batch of redis.scanIterator({ MATCH: `${base}*`, COUNT: 500 })) keys.push(...batch);
  return keys;
};

describe('the jobs a BullMQ version queued', () => {
  it('move into the due set once: waiting, running and failed ones due now, delayed ones at their time', async () => {
    const redis = await connectTestRedis();
    const prefix = uniquePrefix('mig');
    prefixes.push(prefix);
    const base = `${prefix}bull:sell:`;
    const due = `${prefix}selldue`;
    const at = Date.now() + 60_000;
    await bullQueue(redis, base, {
      wait: ['I-wait'],
      active: ['I-active'],
      failed: ['I-failed'],
      completed: ['I-done'],
      delayed: [
        ['I-later', at],
        ['I-queued', at],
      ],
    });
    await redis.zAdd(due, { score: 5, value: 'I-queued' }); // already queued here: keeps its turn
    await redis.rPush(`${base}wait`, '0'); // a marker of older BullMQ versions, not a job
    const legacy = { prefix: `${prefix}bull`, queue: 'sell' };
    expect(await takeOverBullQueue(redis, due, legacy, 1_000)).toBe(4);
    expect(await redis.zRangeWithScores(due, 0, -1)).toEqual([
      { value: 'I-queued', score: 5 },
      { value: 'I-active', score: 1_000 },
      { value: 'I-failed', score: 1_000 },
      { value: 'I-wait', score: 1_000 },
      { value: 'I-later', score: at },
    ]);
    expect(await keysUnder(redis, base)).toEqual([]);
    // Once: the queue is gone, a second process starting finds nothing to move.
    expect(await takeOverBullQueue(redis, due, legacy, 2_000)).toBe(-1);
    expect(await redis.zCard(due)).toBe(5);
    await redis.quit();
  });

  it('a pending tracker order is followed by the new version to one deposit and one final message', async () => {
    env = await setupEnv();
    const order = await createOnramp(env.ramp, '254712300051');
    // Stored as the BullMQ version did: listed in the tracking set, its poll a delayed BullMQ job.
    const store = createRedisTrackerStore({ client: env.redis, prefix: env.prefix });
    await store.addOrder(order, { ...initialTrackingState(), nextDueAt: Date.now() });
    await env.redis.zRem(`${env.prefix}due`, order.orderId);
    await env.redis.sAdd(`${env.prefix}tracking`, order.orderId);
    const base = `${env.prefix}bull:tracker:`;
    await bullQueue(env.redis, base, { delayed: [[order.orderId, Date.now() + 200]] });

    const notifier = recordingNotifier();
    const tracker = env.tracker({ notifier });
    await tracker.start();
    await waitFor('the final message', () => notifier.finals(order.orderId).length > 0, 10_000);
    expect(textIds(notifier.finals(order.orderId)[0]!.message)).toContain('tracker-onramp-done');
    expect(env.sandbox.depositCallCount(order.orderId)).toBe(1);
    expect(await keysUnder(env.redis, base)).toEqual([]);
    await waitFor('the order out of the sets', async () => (await store.countTracking()) === 0, 5_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(notifier.finals(order.orderId)).toHaveLength(1);
  });

  it('a sell intent the watcher still had to look at (its pass or its expiry) is looked at by the new version', async () => {
    const redis = await connectTestRedis();
    const prefix = uniquePrefix('mig');
    prefixes.push(prefix);
    const base = `${prefix}bull:sell:`;
    // Sell intents are listed nowhere else: these jobs are the only record of them being watched.
    await bullQueue(redis, base, {
      wait: ['S-1'],
      active: ['S-2'],
      delayed: [['S-1-x', Date.now() + 300]],
    });
    const passes: string[] = [];
    const watcher = createSellWatcher({
      redisUrl: testRedisUrl(),
      prefix,
      logger: createLogger({ level: 'silent' }),
    });
    try {
      await watcher.start({
        async poll(intentId: string) {
          passes.push(intentId);
          return { done: true };
        },
      } as unknown as SellService);
      await waitFor('the three passes', () => passes.length >= 3, 10_000);
      expect(passes.sort()).toEqual(['S-1', 'S-1', 'S-2']);
      expect(await keysUnder(redis, base)).toEqual([]);
      expect(await redis.zCard(sellDueKey(prefix))).toBe(0);
    } finally {
      await watcher.stop();
      await redis.quit();
    }
  });

  it('a queue that cannot be read is reported, and polling goes on', async () => {
    const redis = await connectTestRedis();
    const prefix = uniquePrefix('mig');
    prefixes.push(prefix);
    await redis.hSet(`${prefix}bull:sell:wait`, 'not', 'a list'); // WRONGTYPE for the takeover
    const errors: string[] = [];
    const logger = createLogger({ level: 'silent' });
    logger.error = ((_o: unknown, msg?: string) => {
      errors.push(String(msg));
    }) as typeof logger.error;
    const scheduler = createSweepScheduler({
      url: testRedisUrl(),
      key: `${prefix}selldue`,
      concurrency: 4,
      sweepMs: 20,
      legacy: { prefix: `${prefix}bull`, queue: 'sell' },
      logger,
    });
    const polled: string[] = [];
    try {
      await scheduler.enqueue('S-new', 0);
      await scheduler.start(async (id) => {
        polled.push(id);
        return { done: true };
      });
      await waitFor('the poll', () => polled.includes('S-new'), 5_000);
      await new Promise((r) => setTimeout(r, 200));
      // Reported once, not at every sweep (tried again a minute later).
      expect(errors.filter((e) => /previous version/.test(e))).toHaveLength(1);
    } finally {
      await scheduler.stop();
      await redis.quit();
    }
  });
});
