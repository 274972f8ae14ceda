/**
 * Issue 31: a user's lines told "✓ went to our support team" waited in one process's desk budget,
 * and a SIGKILL lost them (chaos: 8 to 17 of 24 lines never posted). Now each line is held in Redis
 * for the replica that queued it before the user hears ✓, and a replica that stops beating leaves
 * its lines to another, which posts them from the case record once.
 */
import type { RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.js';
import type { RampClient } from '../../src/ramp/types.js';
import { createRedisCaseStore } from '../../src/support/case/store.js';
import { createRedisLedger } from '../../src/support/desk/line-ledger.js';
import { createDesk } from '../../src/support/desk.js';
import type { DeskTopics } from '../../src/support/ports.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';
import { group, quick } from './desk-edge.js';

const user = { channel: 'telegram', id: '4242' } as const;

describe("a replica's queued support lines", () => {
  let redis: RedisClientType;
  const prefix = uniquePrefix('desk-lines');
  beforeAll(async () => {
    redis = await connectTestRedis();
  });
  afterAll(async () => {
    await flushPrefix(redis, prefix);
    await redis.quit();
  });

  const deskOn = (owner: string, topics: DeskTopics, sweepMs: number) =>
    createDesk({
      store: createRedisCaseStore({ client: redis, prefix }),
      ramp: {} as RampClient,
      conversation: { notify: async () => {}, handle: async () => {} },
      logger: createLogger({ level: 'silent' }),
      topics,
      budget: quick,
      lines: createRedisLedger({ client: redis, prefix, owner, beatTtlMs: 300 }),
      sweepMs,
      reopenWindowMs: 3600_000,
    });

  it('are posted once by another replica when theirs dies with them queued', async () => {
    const lostPosts: string[][] = [];
    // Replica A queues the lines, but its group posts never come back; then it goes silent (killed).
    const a = deskOn('replica-a', group(lostPosts, true), 3600_000);
    for (const line of ['my money', 'did not arrive', 'order is D-1']) await a.relayFromUser(user, line);
    const held = Object.entries(await redis.hGetAll(`${prefix}unposted`));
    expect(held).toEqual([[expect.stringMatching(/^S-.*\|replica-a$/), '1,2,3']]);

    const posts: string[][] = [];
    const b = deskOn('replica-b', group(posts, false), 50);
    const deadline = Date.now() + 5000;
    while (posts.length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    // All three, in order, in one post, once; nothing left held.
    expect(posts).toEqual([['my money', 'did not arrive', 'order is D-1']]);
    expect(await redis.hLen(`${prefix}unposted`)).toBe(0);
    b.stop();
  });

  it('stay with a replica that is alive, and go once it posted them', async () => {
    const posts: string[][] = [];
    const otherPosts: string[][] = [];
    const other = deskOn('replica-d', group(otherPosts, false), 30);
    const c = deskOn('replica-c', group(posts, false), 30);
    const found = await c.relayFromUser({ channel: 'telegram', id: '777' }, 'hello there');
    await new Promise((r) => setTimeout(r, 400));
    expect(posts).toEqual([['hello there']]);
    expect(otherPosts).toEqual([]);
    expect(await redis.hGet(`${prefix}unposted`, `${found.case.id}|replica-c`)).toBeNull();
    c.stop();
    other.stop();
  });
});
