/**
 * Claims listed for reconciliation: a claim made with data stays listed until its outcome is
 * recorded or it is released; a stale one is handed to one taker per lease; only one caller settles it.
 */
import type { RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStore, createRedisStore, type SessionStore } from '../../src/store/index.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';

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

type Kind = 'redis' | 'memory';
/** Two handles on one store: two processes on one Redis, or the same in-memory store twice. */
async function makeStores(kind: Kind): Promise<[SessionStore, SessionStore]> {
  if (kind === 'memory') {
    const s = createMemoryStore({ flowTtlSeconds: 600 });
    return [s, s];
  }
  const prefix = uniquePrefix('claims');
  prefixes.push(prefix);
  return [
    await createRedisStore({ client: redisA, prefix, flowTtlSeconds: 600 }),
    await createRedisStore({ client: redisB, prefix, flowTtlSeconds: 600 }),
  ];
}

const later = () => Date.now() + 1_000;

describe.each<Kind>(['redis', 'memory'])('%s store', (kind) => {
  it('lists a claim with its data until the outcome is recorded', async () => {
    const [store] = await makeStores(kind);
    const before = Date.now();
    expect(await store.claimIdempotencyKey('k1', { user: 'u1', amountKes: 500 })).toEqual({
      status: 'claimed',
    });
    expect(await store.claimIdempotencyKey('k2')).toEqual({ status: 'claimed' }); // no data: not listed
    const taken = await store.takeStaleClaims(later(), { leaseMs: 60_000, limit: 10 });
    expect(taken).toEqual([
      { key: 'k1', claimedAt: expect.any(Number), data: { user: 'u1', amountKes: 500 } },
    ]);
    expect(taken[0]!.claimedAt).toBeGreaterThanOrEqual(before);

    await store.recordIdempotencyOutcome('k1', { status: 'created', orderId: 'D-a1', createdAt: 1 });
    expect(await store.takeStaleClaims(later() + 120_000, { leaseMs: 1, limit: 10 })).toEqual([]);
    expect(await store.keyOfOrder('D-a1')).toBe('k1');
    expect(await store.keyOfOrder('D-zz')).toBeUndefined();
  });

  it('hands out only claims made before the cut-off, and a released claim never', async () => {
    const [store] = await makeStores(kind);
    await store.claimIdempotencyKey('old', { n: 1 });
    const cutoff = Date.now();
    await new Promise((r) => setTimeout(r, 5));
    await store.claimIdempotencyKey('new', { n: 2 });
    await store.claimIdempotencyKey('gone', { n: 3 });
    await store.releaseIdempotencyKey('gone');
    expect((await store.takeStaleClaims(cutoff, { leaseMs: 60_000, limit: 10 })).map((c) => c.key)).toEqual([
      'old',
    ]);
    expect(
      (await store.takeStaleClaims(later(), { leaseMs: 60_000, limit: 10 })).map((c) => c.key).sort(),
    ).toEqual(['new']);
  });

  it('leases a stale claim to one taker at a time, and again after the lease', async () => {
    const [a, b] = await makeStores(kind);
    await a.claimIdempotencyKey('k', { n: 1 });
    const cutoff = later();
    const [x, y] = await Promise.all([
      a.takeStaleClaims(cutoff, { leaseMs: 5_000, limit: 10 }),
      b.takeStaleClaims(cutoff, { leaseMs: 5_000, limit: 10 }),
    ]);
    expect([...x, ...y].map((c) => c.key)).toEqual(['k']);
    expect(await a.takeStaleClaims(cutoff + 4_999, { leaseMs: 5_000, limit: 10 })).toEqual([]);
    expect(
      (await b.takeStaleClaims(cutoff + 5_000, { leaseMs: 5_000, limit: 10 })).map((c) => c.key),
    ).toEqual(['k']);
  });

  it('lets exactly one caller settle a stale claim, and none once the claimant recorded it', async () => {
    const [a, b] = await makeStores(kind);
    await a.claimIdempotencyKey('k', { n: 1 });
    const failed = { status: 'failed' as const, error: { kind: 'internal' as const, message: 'unknown' } };
    const wins = await Promise.all([a.settleStaleClaim('k', failed), b.settleStaleClaim('k', failed)]);
    expect(wins.filter(Boolean)).toHaveLength(1);
    expect(await a.claimIdempotencyKey('k')).toEqual(failed);

    await a.claimIdempotencyKey('late', { n: 2 });
    await b.recordIdempotencyOutcome('late', { status: 'created', orderId: 'D-b2', createdAt: 5 });
    expect(await a.settleStaleClaim('late', failed)).toBe(false);
    expect(await a.claimIdempotencyKey('late')).toEqual({ status: 'created', orderId: 'D-b2', createdAt: 5 });

    await a.claimIdempotencyKey('found', { n: 3 });
    expect(await b.settleStaleClaim('found', { status: 'created', orderId: 'D-c3', createdAt: 7 })).toBe(
      true,
    );
    expect(await a.keyOfOrder('D-c3')).toBe('found');
  });
});
