/**
 * The sweep scheduler (TRACKER_SCHEDULER=sweep) on real Redis: polls come due and repeat, an order
 * is queued once, two processes never poll one order at once, a dead process's polls are taken
 * again when their lease ends, and a finished order leaves the set.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.js';
import type { PollDecision } from '../../src/tracker/scheduler.js';
import { createSweepScheduler } from '../../src/tracker/sweep-scheduler.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';
import { waitFor } from '../helpers/wait.js';

const prefixes: string[] = [];
afterAll(async () => {
  const redis = await connectTestRedis();
  for (const p of prefixes) await flushPrefix(redis, p);
  await redis.quit();
});

const logger = createLogger({ level: 'silent' });
const scheduler = (key: string, leaseMs = 2_000) =>
  createSweepScheduler({ url: testRedisUrl(), key, concurrency: 10, leaseMs, sweepMs: 20, logger });

describe('the sweep scheduler', () => {
  it('polls an order when due, again after `next`, once per turn across two processes, and drops it when done', async () => {
    const key = `${uniquePrefix('sweep')}due`;
    prefixes.push(key);
    const a = scheduler(key);
    const b = scheduler(key);
    const polls: Array<{ by: string; at: number }> = [];
    let running = 0;
    let overlap = false;
    const handler =
      (by: string) =>
      async (id: string): Promise<PollDecision> => {
        expect(id).toBe('ord-1');
        running++;
        if (running > 1) overlap = true;
        polls.push({ by, at: Date.now() });
        await new Promise((r) => setTimeout(r, 30));
        running--;
        return polls.length >= 4 ? { done: true } : { next: 50 };
      };
    try {
      const t0 = Date.now();
      await a.enqueue('ord-1', 150);
      await b.enqueue('ord-1', 0); // already queued: keeps its turn
      await Promise.all([a.start(handler('a')), b.start(handler('b'))]);
      await waitFor('four polls', () => polls.length >= 4, 5_000);
      await new Promise((r) => setTimeout(r, 300));
      expect(polls).toHaveLength(4);
      expect(overlap).toBe(false);
      expect((polls[0] as { at: number }).at - t0).toBeGreaterThanOrEqual(140);
      const client = await connectTestRedis();
      expect(await client.zCard(key)).toBe(0);
      await client.quit();
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it("takes a dead process's poll again once its lease has ended", async () => {
    const key = `${uniquePrefix('sweep')}due`;
    prefixes.push(key);
    const dying = scheduler(key, 300);
    const survivor = scheduler(key, 300);
    const seen: string[] = [];
    try {
      await dying.enqueue('ord-2', 0);
      // The first process takes the poll and never answers (it died mid-poll).
      let taken!: () => void;
      const tookIt = new Promise<void>((r) => {
        taken = r;
      });
      await dying.start(async () => {
        taken();
        seen.push('dying');
        return new Promise<PollDecision>(() => {});
      });
      await tookIt;
      void dying.stop();
      const t0 = Date.now();
      await survivor.start(async () => {
        seen.push('survivor');
        return { done: true };
      });
      await waitFor('the survivor', () => seen.includes('survivor'), 5_000);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(150);
      expect(seen).toEqual(['dying', 'survivor']);
    } finally {
      await survivor.stop();
    }
  });
});
