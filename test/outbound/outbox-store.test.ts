/**
 * The outbox store's contract, on Redis and in memory (local mode) alike: a chat's messages in
 * order, held by one live owner at a time; a dead or released holder's chats taken up by another;
 * a finished message recorded with the platform's answer and never handed out again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryOutboxStore, type OutboxStore, redisOutboxStore } from '../../src/outbound/index.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';

const prefixes: string[] = [];
const redisReady = connectTestRedis();
let redis: Awaited<typeof redisReady>;
beforeAll(async () => {
  redis = await redisReady;
});
afterAll(async () => {
  await Promise.all(prefixes.map((p) => flushPrefix(redis, p)));
  await redis.quit();
});

const backends: Array<{ backend: string; make: () => OutboxStore }> = [
  {
    backend: 'redis',
    make: () => {
      const p = uniquePrefix('outbox');
      prefixes.push(p);
      return redisOutboxStore(redis, p);
    },
  },
  { backend: 'memory', make: () => memoryOutboxStore() },
];

describe.each(backends)('the outbox store ($backend)', ({ make }) => {
  it('hands a chat to the first live owner and its messages out in order', async () => {
    const s = make();
    await s.beat('a', 10_000);
    await s.beat('b', 10_000);
    const one = await s.put({ key: 'c1', cls: 'reply', body: { n: 1 } }, 'a');
    const two = await s.put({ key: 'c1', cls: 'desk', body: { n: 2 } }, 'b');
    expect(one.held).toBe(true);
    expect(two.held).toBe(false);
    expect(await s.head('c1', 'b')).toBeUndefined();
    expect(await s.head('c1', 'a')).toMatchObject({ id: one.id, cls: 'reply', body: { n: 1 } });
    const next = await s.finish('c1', 'a', one.id, { ok: true, value: 41 });
    expect(next).toMatchObject({ id: two.id, body: { n: 2 } });
    expect(await s.result(one.id)).toEqual({ ok: true, value: 41 });
    expect(await s.finish('c1', 'a', two.id, { ok: false, error: 'blocked' })).toBeUndefined();
    expect(await s.depth()).toBe(0);
    // Let go once empty: the next message is b's to send.
    expect((await s.put({ key: 'c1', cls: 'reply', body: 3 }, 'b')).held).toBe(true);
  });

  it('gives a released or silent holder’s chats to another owner, finished ones never again', async () => {
    const s = make();
    await s.beat('a', 10_000);
    await s.beat('b', 10_000);
    const m1 = await s.put({ key: 'x', cls: 'reply', body: 1 }, 'a');
    await s.put({ key: 'x', cls: 'reply', body: 2 }, 'a');
    await s.put({ key: 'y', cls: 'reply', body: 3 }, 'a');
    await s.finish('x', 'a', m1.id, { ok: true, value: 'sent' });
    expect(await s.claim('b', 10)).toEqual([]);
    await s.release('a');
    expect((await s.claim('b', 10)).sort()).toEqual(['x', 'y']);
    expect(await s.head('x', 'b')).toMatchObject({ body: 2 });
    expect(await s.head('x', 'a')).toBeUndefined();
    // A silent holder: its heartbeat runs out.
    await s.beat('c', 30);
    await s.put({ key: 'z', cls: 'reply', body: 4 }, 'c');
    expect(await s.claim('b', 10)).not.toContain('z');
    await new Promise((r) => setTimeout(r, 60));
    expect(await s.claim('b', 10)).toContain('z');
    expect(await s.depth()).toBe(3);
  });
});
