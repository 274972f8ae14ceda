/**
 * The ticket claim in the case store, in Redis and in memory alike: one filer at a time, the
 * ticket once filed, and an agent's refusal kept a little while for asks of its kind only.
 */
import type { RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CaseStore, createMemoryCaseStore, createRedisCaseStore } from '../../src/support/case/store.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';

let redis: RedisClientType;
const prefix = uniquePrefix('claim');

beforeAll(async () => {
  redis = await connectTestRedis();
});

afterAll(async () => {
  await flushPrefix(redis, prefix);
  await redis.quit();
});

const stores: Array<[string, () => CaseStore]> = [
  ['redis', () => createRedisCaseStore({ client: redis, prefix })],
  ['memory', () => createMemoryCaseStore()],
];

describe.each(stores)('the ticket claim (%s)', (_name, make) => {
  it('holds the order while it is filed, then answers its ticket', async () => {
    const store = make();
    const now = Date.now();
    expect(await store.claimTicket('D-claim-01', now, 60_000, 'order')).toEqual({ claimed: true });
    expect(await store.claimTicket('D-claim-01', now, 60_000, 'order')).toEqual({ claimed: false });
    expect(await store.claimTicket('D-claim-01', now, 60_000, 'manual')).toEqual({ claimed: false });
    await store.setTicket('D-claim-01', 'T-1');
    expect(await store.claimTicket('D-claim-01', now, 60_000)).toEqual({ claimed: false, ticketId: 'T-1' });
  });

  it("keeps an agent's refusal for asks of its kind, for a while only", async () => {
    const store = make();
    const now = Date.now();
    expect((await store.claimTicket('D-claim-02', now, 60_000, 'order')).claimed).toBe(true);
    await store.refuseTicket('D-claim-02', 'order', 'No failed transaction | found', now, 300);
    expect(await store.claimTicket('D-claim-02', now + 10, 60_000, 'order')).toEqual({
      claimed: false,
      refused: { at: now, reason: 'No failed transaction | found' },
    });
    // The manual form (another kind) and a user's own ask (no kind) are not held back by it.
    expect((await store.claimTicket('D-claim-02', now + 20, 60_000, 'manual')).claimed).toBe(true);
    await store.refuseTicket('D-claim-02', 'manual', 'missing fields', now, 300);
    expect((await store.claimTicket('D-claim-02', now + 30, 60_000)).claimed).toBe(true);
    await store.refuseTicket('D-claim-02', 'order', 'again', now, 300);
    await new Promise((r) => setTimeout(r, 350));
    expect((await store.claimTicket('D-claim-02', Date.now(), 60_000, 'order')).claimed).toBe(true);
  });
});
