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

describe('the outbox store after Redis came back empty', () => {
  it('a send recorded late by a replica never settles or removes a new message', async () => {
    const p = uniquePrefix('outbox');
    prefixes.push(p);
    const s = redisOutboxStore(redis, p);
    await s.beat('a', 10_000);
    const before = await s.put({ key: 'c#reply', cls: 'reply', body: 'menu' }, 'a');
    await flushPrefix(redis, p);
    await s.beat('a', 10_000);
    const after = await s.put({ key: 'c#reply', cls: 'reply', body: 'try again' }, 'a');
    expect(after.id).not.toBe(before.id);
    // The first send's record comes in now: the new message is still there, unanswered.
    await s.finish('c#reply', 'a', before.id, { ok: true, value: 1 });
    expect(await s.result(after.id)).toBeUndefined();
    expect(await s.head('c#reply', 'a')).toMatchObject({ id: after.id, body: 'try again' });
  });
});

describe.each(backends)('the outbox store’s class queues ($backend)', ({ make }) => {
  it('a newer state of a slot replaces the waiting one whichever class queue it waits in', async () => {
    const s = make();
    await s.beat('a', 10_000);
    const progress = await s.put(
      { key: 'c#progress', cls: 'progress', slot: 'order:1', body: 'paying' },
      'a',
    );
    const outcome = await s.put({ key: 'c#outcome', cls: 'outcome', slot: 'order:1', body: 'paid' }, 'a');
    expect(outcome).toMatchObject({ id: progress.id, replaced: true });
    // It keeps its place in the progress queue, as the more urgent class, with the newest body.
    expect(await s.head('c#progress', 'a')).toMatchObject({ id: progress.id, cls: 'outcome', body: 'paid' });
    expect(await s.head('c#outcome', 'a')).toBeUndefined();
    expect(await s.depth()).toBe(1);
  });
});
