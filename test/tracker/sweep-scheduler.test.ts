/**
 * The sweep scheduler (the tracker's and the sell watcher's, with Redis) on real Redis: polls come
 * due and repeat, an order is queued once, two processes never poll one order at once, a poll
 * running past its lease keeps it, a killed process's polls are taken again when their lease ends,
 * a graceful stop lets a poll in progress finish, polls go on across a Redis restart, and a
 * finished order leaves the set.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createLogger, type Logger } from '../../src/log/logger.js';
import type { PollDecision, Scheduler } from '../../src/tracker/schedule/scheduler.js';
import { createSweepScheduler } from '../../src/tracker/schedule/sweep-scheduler.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';
import { freePort, type OwnRedis, ownRedis } from '../helpers/redis-server.js';
import { waitFor } from '../helpers/wait.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/sweeper.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'rampchat-sweep-'));
const prefixes: string[] = [];
let redisServer: OwnRedis | undefined;
afterEach(async () => {
  await redisServer?.kill();
  redisServer = undefined;
});
afterAll(async () => {
  const redis = await connectTestRedis();
  for (const p of prefixes) await flushPrefix(redis, p);
  await redis.quit();
  rmSync(dir, { recursive: true, force: true });
});

const logger = createLogger({ level: 'silent' });
const scheduler = (key: string, leaseMs = 2_000, url = testRedisUrl(), log: Logger = logger) =>
  createSweepScheduler({ url, key, concurrency: 10, leaseMs, sweepMs: 20, logger: log });
const newKey = () => {
  const key = `${uniquePrefix('sweep')}due`;
  prefixes.push(key);
  return key;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the sweep scheduler', () => {
  it('polls an order when due, again after `next`, once per turn across two processes, and drops it when done', async () => {
    const key = newKey();
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
        await sleep(30);
        running--;
        return polls.length >= 4 ? { done: true } : { next: 50 };
      };
    try {
      const t0 = Date.now();
      await a.enqueue('ord-1', 150);
      await b.enqueue('ord-1', 0); // already queued: keeps its turn
      await Promise.all([a.start(handler('a')), b.start(handler('b'))]);
      await waitFor('four polls', () => polls.length >= 4, 5_000);
      await sleep(300);
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

  it('keeps the lease of a poll that runs longer than it: no other process polls the order meanwhile', async () => {
    const key = newKey();
    const slow = scheduler(key, 200);
    const other = scheduler(key, 200);
    const seen: string[] = [];
    try {
      await slow.enqueue('ord-slow', 0);
      await slow.start(async () => {
        seen.push('slow');
        await sleep(900); // four and a half leases
        seen.push('slow done');
        return { next: 60_000 };
      });
      await waitFor('the slow poll', () => seen.includes('slow'), 5_000);
      await other.start(async () => {
        seen.push('other');
        return { done: true };
      });
      await waitFor('the slow poll to end', () => seen.includes('slow done'), 5_000);
      await sleep(300);
      expect(seen).toEqual(['slow', 'slow done']);
      const client = await connectTestRedis();
      expect(Number(await client.zScore(key, 'ord-slow'))).toBeGreaterThan(Date.now() + 50_000);
      await client.quit();
    } finally {
      await Promise.all([slow.stop(), other.stop()]);
    }
  });

  it('takes the poll of a process killed mid-poll again once its lease has ended', async () => {
    const key = newKey();
    const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
      env: { ...process.env, REDIS_URL: testRedisUrl(), KEY: key, ID: 'ord-2', LEASE_MS: '600' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((r) => child.once('exit', r));
    const survivor = scheduler(key, 600);
    const seen: string[] = [];
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (d: Buffer) => {
          if (d.toString().includes('took')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`the sweeper exited early (${code})`)));
      });
      child.kill('SIGKILL');
      await exited;
      const t0 = Date.now();
      await survivor.start(async () => {
        seen.push('survivor');
        return { done: true };
      });
      await waitFor('the survivor', () => seen.includes('survivor'), 5_000);
      // Taken once the killed process's lease ended: nothing renews it any more.
      expect(Date.now() - t0).toBeLessThan(2_000);
      expect(seen).toEqual(['survivor']);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await survivor.stop();
    }
  }, 30_000);

  it('on a graceful stop takes no new poll, lets the one in progress finish and records its next turn', async () => {
    const key = newKey();
    const s = scheduler(key);
    const seen: string[] = [];
    await s.enqueue('ord-3', 0);
    await s.enqueue('ord-later', 300);
    await s.start(async (id) => {
      seen.push(id);
      await sleep(400);
      seen.push(`${id} done`);
      return { next: 60_000 };
    });
    await waitFor('the poll', () => seen.includes('ord-3'), 5_000);
    await s.stop();
    expect(seen).toEqual(['ord-3', 'ord-3 done']);
    const client = await connectTestRedis();
    // The finished poll's next turn, not its lease: another process polls it in a minute.
    expect(Number(await client.zScore(key, 'ord-3'))).toBeGreaterThan(Date.now() + 50_000);
    expect(await client.zScore(key, 'ord-later')).not.toBeNull();
    await client.quit();
    await sleep(400);
    expect(seen).toEqual(['ord-3', 'ord-3 done']);
  });

  it('goes on polling across a Redis restart: what was queued before is polled, and what is queued after', async () => {
    let warnings = 0;
    const log = createLogger({ level: 'silent' });
    log.warn = ((..._args: unknown[]) => {
      warnings += 1;
    }) as typeof log.warn;
    redisServer = ownRedis({ port: await freePort(), dir, aof: true });
    await redisServer.start();
    const s: Scheduler = scheduler('rc-restart:due', 2_000, redisServer.url, log);
    const polled: string[] = [];
    try {
      await s.start(async (id) => {
        polled.push(id);
        return { done: true };
      });
      await s.enqueue('D-before', 1_200);
      await redisServer.kill();
      await sleep(1_500);
      await redisServer.start();
      await waitFor('the poll queued before the restart', () => polled.includes('D-before'), 20_000);
      await s.enqueue('D-after', 0);
      await waitFor('the poll queued after the restart', () => polled.includes('D-after'), 10_000);
      // An outage is reported, not a warning per sweep tick (every 20 ms here).
      expect(warnings).toBeLessThan(20);
    } finally {
      await s.stop();
    }
  }, 40_000);

  describe('sweeps when a poll comes due, not on a fixed beat', () => {
    const idle = (key: string, url: string, idleMs: number) =>
      createSweepScheduler({ url, key, concurrency: 10, leaseMs: 2_000, sweepMs: 20, idleMs, logger });

    /** A started scheduler that records when each id was polled (and drops it). */
    const recording = async (key: string, idleMs: number) => {
      const polled = new Map<string, number>();
      const poller = idle(key, testRedisUrl(), idleMs);
      await poller.start(async (id) => {
        polled.set(id, Date.now());
        return { done: true };
      });
      // Its first sweep, of an empty set, is done.
      await sleep(100);
      return { poller, polled };
    };

    it('makes one sweep per idleMs with nothing queued (not one per sweepMs)', async () => {
      redisServer = ownRedis({ port: await freePort(), dir, aof: false });
      await redisServer.start();
      const s = idle('idle:due', redisServer.url, 500);
      const client = createClient({ url: redisServer.url });
      await client.connect();
      try {
        await s.start(async () => ({ done: true }));
        await sleep(300);
        const sweeps = async () => {
          const info = await client.info('commandstats');
          return (
            Number(/cmdstat_evalsha:calls=(\d+)/.exec(info)?.[1] ?? 0) +
            Number(/cmdstat_eval:calls=(\d+)/.exec(info)?.[1] ?? 0)
          );
        };
        const before = await sweeps();
        await sleep(2_000);
        // About 4 in 2 s at one per 500 ms; a sweep every 20 ms would be about 100.
        expect((await sweeps()) - before).toBeLessThanOrEqual(6);
      } finally {
        await s.stop();
        await client.quit();
      }
    });

    it("wakes when the set's next poll is due, though another process queued it", async () => {
      const key = newKey();
      const queuer = idle(key, testRedisUrl(), 10_000);
      const poller = idle(key, testRedisUrl(), 10_000);
      const polled: number[] = [];
      try {
        const t0 = Date.now();
        await queuer.enqueue('ord-later', 700);
        await poller.start(async () => {
          polled.push(Date.now() - t0);
          return { done: true };
        });
        await waitFor('the poll', () => polled.length > 0, 5_000);
        expect(polled[0]).toBeGreaterThanOrEqual(690);
        expect(polled[0]).toBeLessThan(2_000);
      } finally {
        await Promise.all([queuer.stop(), poller.stop()]);
      }
    });

    it('polls a poll queued during its own sweep when due, not at idleMs', async () => {
      const key = newKey();
      const s = idle(key, testRedisUrl(), 10_000);
      const polled = new Map<string, number>();
      let queuedAt = 0;
      try {
        await s.enqueue('ord-first', 0);
        await s.start(async (id) => {
          polled.set(id, Date.now());
          if (id === 'ord-first') {
            queuedAt = Date.now();
            await s.enqueue('ord-next', 250);
          }
          return { done: true };
        });
        await waitFor('the poll queued by a poll', () => polled.has('ord-next'), 5_000);
        expect((polled.get('ord-next') as number) - queuedAt).toBeGreaterThanOrEqual(240);
        expect((polled.get('ord-next') as number) - queuedAt).toBeLessThan(3_000);
      } finally {
        await s.stop();
      }
    });

    it('takes what another process queued after its sweep within idleMs', async () => {
      const key = newKey();
      const queuer = idle(key, testRedisUrl(), 10_000);
      const { poller, polled } = await recording(key, 400);
      try {
        const t0 = Date.now();
        await queuer.enqueue('ord-theirs', 0);
        // Only the idle look can find it: the poller sweeps nothing else meanwhile.
        await waitFor("the other process's poll", () => polled.has('ord-theirs'), 5_000);
        expect((polled.get('ord-theirs') as number) - t0).toBeLessThan(2_000);
      } finally {
        await Promise.all([queuer.stop(), poller.stop()]);
      }
    });

    it('takes its own at once, and its own later one when due (its idle look 10 s away)', async () => {
      const key = newKey();
      const { poller, polled } = await recording(key, 10_000);
      try {
        const t1 = Date.now();
        await poller.enqueue('ord-own', 0);
        await waitFor('its own poll', () => polled.has('ord-own'), 5_000);
        expect((polled.get('ord-own') as number) - t1).toBeLessThan(2_000);
        const t2 = Date.now();
        await poller.enqueue('ord-own-later', 250);
        await waitFor('its own later poll', () => polled.has('ord-own-later'), 5_000);
        expect((polled.get('ord-own-later') as number) - t2).toBeGreaterThanOrEqual(240);
        expect((polled.get('ord-own-later') as number) - t2).toBeLessThan(2_000);
      } finally {
        await poller.stop();
      }
    });
  });
});
