import type { RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversationEngine } from '../../src/engine/engine.js';
import { createLogger } from '../../src/log/logger.js';
import type { RampClient } from '../../src/ramp/types.js';
import {
  createMemoryStore,
  createRedisStore,
  decodeSession,
  encodeSession,
  type SessionStore,
} from '../../src/store/index.js';
import { type CounterSession, counterFlow, recordingChannel } from '../engine/fixtures.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';

const FLOW_TTL = 600;
const logger = createLogger({ level: 'silent' });

let redisA: RedisClientType;
let redisB: RedisClientType;
const prefixes: string[] = [];

beforeAll(async () => {
  redisA = await connectTestRedis();
  redisB = await connectTestRedis();
});
afterAll(async () => {
  for (const p of prefixes) await flushPrefix(redisA, p);
  await redisA.quit();
  await redisB.quit();
});

function redisPrefix(): string {
  const p = uniquePrefix('store');
  prefixes.push(p);
  return p;
}

const session = (over: Partial<CounterSession> = {}): CounterSession => ({
  ...counterFlow.initial(),
  ...over,
});

type Kind = 'redis' | 'memory';
async function makeStore(kind: Kind, prefix = redisPrefix(), client = redisA): Promise<SessionStore> {
  return kind === 'redis'
    ? createRedisStore({ client, prefix, flowTtlSeconds: FLOW_TTL })
    : createMemoryStore({ flowTtlSeconds: FLOW_TTL });
}

describe.each<Kind>(['redis', 'memory'])('%s store', (kind) => {
  it('round-trips a session and bumps the revision on each save', async () => {
    const store = await makeStore(kind);
    const s = session({
      count: 7,
      locale: 'sw',
      profile: { phone: '254712345678', wallets: { polygon: '0xabc' } },
    });
    expect(await store.save('terminal:a', 0, encodeSession(s))).toBe(1);
    const loaded = await store.load('terminal:a');
    expect(loaded.rev).toBe(1);
    expect(decodeSession(counterFlow, loaded)).toEqual({ session: s, reset: false });
    expect(await store.save('terminal:a', 1, encodeSession({ ...s, count: 8 }))).toBe(2);
  });

  it('refuses a save made against a stale revision', async () => {
    const store = await makeStore(kind);
    await store.save('terminal:a', 0, encodeSession(session({ count: 1 })));
    expect(await store.save('terminal:a', 0, encodeSession(session({ count: 99 })))).toBeUndefined();
    expect(decodeSession(counterFlow, await store.load('terminal:a')).session.count).toBe(1);
  });

  it('gives an unknown user the initial session from the hints', async () => {
    const store = await makeStore(kind);
    const d = decodeSession(counterFlow, await store.load('terminal:new'), {
      locale: 'sw',
      phone: '254700000001',
    });
    expect(d.reset).toBe(false);
    expect(d.session.locale).toBe('sw');
    expect(d.session.profile.phone).toBe('254700000001');
  });

  it('saves a step in finish with compare-and-set, and does nothing when the revision moved', async () => {
    const store = await makeStore(kind);
    const first = await store.begin('telegram:f', { updateId: 'telegram:1' });
    const save = { rev: first.session.rev, parts: encodeSession(session({ count: 1 })) };
    expect(await first.finish({ done: true, chat: '{"q":"5"}', save })).toBe(true);
    const after = await store.load('telegram:f');
    expect(after).toMatchObject({ rev: 1, chat: '{"q":"5"}' });
    expect(decodeSession(counterFlow, after).session.count).toBe(1);
    expect(await store.isUpdateDone('telegram:1')).toBe(true);

    const second = await store.begin('telegram:f', { updateId: 'telegram:2' });
    await store.save('telegram:f', second.session.rev, encodeSession(session({ count: 41 })));
    const stale = { rev: second.session.rev, parts: encodeSession(session({ count: 2 })) };
    expect(await second.finish({ done: true, chat: '{"q":"6"}', save: stale })).toBe(false);
    expect(await store.isUpdateDone('telegram:2')).toBe(false);
    const kept = await store.load('telegram:f');
    expect(kept).toMatchObject({ rev: 2, chat: '{"q":"5"}' });
    expect(decodeSession(counterFlow, kept).session.count).toBe(41);
    // The chat's lock is still held for the redo (Redis; the memory store has one process).
    if (kind === 'redis')
      await expect(store.begin('telegram:f', { waitMs: 50, refuseWhenBusy: true })).rejects.toThrow();
    expect(await second.finish({ done: true })).toBe(true);
    expect(await store.isUpdateDone('telegram:2')).toBe(true);
  });

  it('marks an update seen only once', async () => {
    const store = await makeStore(kind);
    expect(await store.markUpdateSeen('telegram:42')).toBe(true);
    expect(await store.markUpdateSeen('telegram:42')).toBe(false);
    expect(await store.markUpdateSeen('telegram:43')).toBe(true);
  });

  it('hands an idempotency key to one claimer and then answers with its outcome', async () => {
    const store = await makeStore(kind);
    const claims = await Promise.all(Array.from({ length: 10 }, () => store.claimIdempotencyKey('k1')));
    expect(claims.filter((c) => c.status === 'claimed')).toHaveLength(1);
    expect(claims.filter((c) => c.status === 'in_flight')).toHaveLength(9);
    await store.recordIdempotencyOutcome('k1', { status: 'created', orderId: 'D-1', createdAt: 5 });
    expect(await store.claimIdempotencyKey('k1')).toEqual({
      status: 'created',
      orderId: 'D-1',
      createdAt: 5,
    });
    await store.releaseIdempotencyKey('k1');
    expect(await store.claimIdempotencyKey('k1')).toEqual({ status: 'claimed' });
  });
});

describe('stored state that does not validate', () => {
  it('resets corrupt flow JSON to the initial session but keeps locale and profile', async () => {
    const prefix = redisPrefix();
    const store = await makeStore('redis', prefix);
    const s = session({ count: 3, locale: 'sw', profile: { phone: '254712345678', wallets: {} } });
    await store.save('terminal:a', 0, encodeSession(s));
    await redisA.set(`${prefix}flow:terminal:a`, '{"count": 3, "step": ');
    const d = decodeSession(counterFlow, await store.load('terminal:a'));
    expect(d.reset).toBe(true);
    expect(d.session).toEqual(session({ locale: 'sw', profile: { phone: '254712345678', wallets: {} } }));
  });

  it('resets a corrupt base part to a fresh session', async () => {
    const prefix = redisPrefix();
    const store = await makeStore('redis', prefix);
    await store.save('terminal:a', 0, encodeSession(session({ count: 3, locale: 'sw' })));
    await redisA.hSet(`${prefix}user:terminal:a`, 'base', 'not json');
    const d = decodeSession(counterFlow, await store.load('terminal:a'), { locale: 'en' });
    expect(d).toMatchObject({ reset: true, session: session() });
  });

  it('resets an outdated version, keeping a profile that still validates', async () => {
    const prefix = redisPrefix();
    const store = await makeStore('redis', prefix);
    await redisA.hSet(`${prefix}user:terminal:a`, {
      rev: '4',
      base: JSON.stringify({ v: 0, locale: 'sw', profile: { phone: '254712345678', wallets: {} } }),
    });
    await redisA.set(`${prefix}flow:terminal:a`, JSON.stringify({ count: 'many', oldField: true }));
    const d = decodeSession(counterFlow, await store.load('terminal:a'));
    expect(d.reset).toBe(true);
    expect(d.resetReason).toMatch(/version 0/);
    expect(d.session).toEqual(session({ locale: 'sw', profile: { phone: '254712345678', wallets: {} } }));
  });

  it('drops a profile that no longer validates', async () => {
    const prefix = redisPrefix();
    const store = await makeStore('redis', prefix);
    await redisA.hSet(`${prefix}user:terminal:a`, {
      rev: '1',
      base: JSON.stringify({ v: 1, locale: 'sw', profile: { wallets: 'nope' } }),
    });
    const d = decodeSession(counterFlow, await store.load('terminal:a'));
    expect(d.reset).toBe(true);
    expect(d.session).toEqual(session({ locale: 'sw' }));
  });
});

describe('flow TTL', () => {
  it('expires the flow part on Redis but never the profile', async () => {
    const prefix = redisPrefix();
    const store = await makeStore('redis', prefix);
    await store.save(
      'terminal:a',
      0,
      encodeSession(session({ count: 2, profile: { phone: '254712345678', wallets: {} } })),
    );
    const flowTtl = await redisA.ttl(`${prefix}flow:terminal:a`);
    expect(flowTtl).toBeGreaterThan(FLOW_TTL - 5);
    expect(flowTtl).toBeLessThanOrEqual(FLOW_TTL);
    expect(await redisA.ttl(`${prefix}user:terminal:a`)).toBe(-1);
    await redisA.del(`${prefix}flow:terminal:a`); // what the TTL does once it runs out
    const d = decodeSession(counterFlow, await store.load('terminal:a'));
    expect(d).toEqual({
      reset: false,
      session: session({ profile: { phone: '254712345678', wallets: {} } }),
    });
  });

  it('expires the flow part in memory after the TTL, restarted by each save', async () => {
    let t = 1_000_000;
    const store = createMemoryStore({ flowTtlSeconds: 60, now: () => t });
    await store.save('terminal:a', 0, encodeSession(session({ count: 2, locale: 'sw' })));
    t += 50_000;
    await store.save('terminal:a', 1, encodeSession(session({ count: 3, locale: 'sw' })));
    t += 50_000;
    expect(decodeSession(counterFlow, await store.load('terminal:a')).session.count).toBe(3);
    t += 11_000;
    const d = decodeSession(counterFlow, await store.load('terminal:a'));
    expect(d.session).toEqual(session({ locale: 'sw' }));
  });
});

describe('two processes on one Redis', () => {
  it('never lose a write: 50 concurrent increments from two engines all land', async () => {
    const prefix = redisPrefix();
    const stores = [await makeStore('redis', prefix, redisA), await makeStore('redis', prefix, redisB)];
    const engines = stores.map((store) =>
      createConversationEngine({
        store,
        ramp: {} as RampClient,
        logger,
        config: { rateTolerancePct: 1, project: 'test' },
        flow: counterFlow,
        channels: [recordingChannel()],
      }),
    );
    const user = { channel: 'terminal' as const, id: 'race' };
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => engines[i % 2]?.handle(user, { kind: 'text', text: 'inc' })),
    );
    const d = decodeSession(counterFlow, await stores[0]!.load('terminal:race'));
    expect(d.session.count).toBe(50);
    expect(d.session.seen).toHaveLength(50);
  });

  it('see an update id and an idempotency key claimed by the other', async () => {
    const prefix = redisPrefix();
    const a = await makeStore('redis', prefix, redisA);
    const b = await makeStore('redis', prefix, redisB);
    const [seenA, seenB] = await Promise.all([
      a.markUpdateSeen('telegram:7'),
      b.markUpdateSeen('telegram:7'),
    ]);
    expect([seenA, seenB].sort()).toEqual([false, true]);
    const [claimA, claimB] = await Promise.all([
      a.claimIdempotencyKey('buy-1'),
      b.claimIdempotencyKey('buy-1'),
    ]);
    expect([claimA.status, claimB.status].sort()).toEqual(['claimed', 'in_flight']);
  });
});
