/**
 * Rate histories on real Redis and in memory alike: both sides of a quote land in one record, each
 * range reads its own ring, an old bucket is overwritten, a new feed says how far back it goes, and
 * a pair's Redis bytes stay within 50 KB however long it is quoted.
 */
import type { RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRateHistory, type RateHistory, TIERS } from '../../src/charts/history.js';
import { RedisRateHistory } from '../../src/charts/history-redis.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';

const T0 = Date.parse('2026-11-01T00:00:00Z');
const MIN = 60_000;
const usdt = { token: 'USDT', network: 'celo' };

let redis: RedisClientType;
const prefix = uniquePrefix('charts');
beforeAll(async () => {
  redis = await connectTestRedis();
});
afterAll(async () => {
  await flushPrefix(redis, prefix);
  await redis.quit();
});

const backends: Array<[string, () => RateHistory]> = [
  ['redis', () => new RedisRateHistory(redis, uniquePrefix(prefix))],
  ['memory', () => new MemoryRateHistory()],
];

describe.each(backends)('the rate history (%s)', (_name, make) => {
  it('keeps both sides of a minute in one point and says how far back it goes', async () => {
    const h = make();
    expect(await h.read(usdt, '24h', T0)).toEqual({ pair: usdt, range: '24h', points: [] });
    await h.record(usdt, 'buy', 129.25, T0 + 5_000);
    await h.record(usdt, 'sell', 127.5, T0 + 30_000);
    await h.record(usdt, 'buy', 129.5, T0 + MIN);
    const read = await h.read({ token: 'usdt', network: 'celo' }, '24h', T0 + 2 * MIN);
    expect(read.points).toEqual([
      { at: T0, buy: 129.25, sell: 127.5 },
      { at: T0 + MIN, buy: 129.5 },
    ]);
    expect(read.since).toBe(T0);
    // Another network is another history.
    expect((await h.read({ token: 'USDT', network: 'lisk' }, '24h', T0 + 2 * MIN)).points).toEqual([]);
  });

  it('reads each range from its ring: minutes for a day, 10-minute closes for a week, hours for a month', async () => {
    const h = make();
    // Two days of minutes: the buy rate is the minute's number of the day.
    for (let m = 0; m < 2 * 1440; m++) await h.record(usdt, 'buy', 100 + (m % 1440) / 100, T0 + m * MIN);
    const now = T0 + (2 * 1440 - 1) * MIN;
    const day = await h.read(usdt, '24h', now);
    expect(day.points).toHaveLength(1440);
    expect(day.points[0]!.at).toBe(T0 + 1440 * MIN);
    expect(day.points.at(-1)).toEqual({ at: now, buy: Math.fround(114.39) });
    const week = await h.read(usdt, '7d', now);
    expect(week.points).toHaveLength(2 * 144);
    // A 10-minute bucket keeps its last quote (minute 9 of it), stamped with that minute.
    expect(week.points[0]).toEqual({ at: T0 + 9 * MIN, buy: Math.fround(100.09) });
    const month = await h.read(usdt, '30d', now);
    expect(month.points).toHaveLength(48);
    expect(month.points[1]).toEqual({ at: T0 + 119 * MIN, buy: Math.fround(101.19) });
    expect(month.since).toBe(T0);
  });

  it('overwrites the bucket a ring-length earlier, never a side of a newer one', async () => {
    const h = make();
    await h.record(usdt, 'sell', 120, T0);
    await h.record(usdt, 'buy', 131, T0 + 1440 * MIN);
    const read = await h.read(usdt, '24h', T0 + 1440 * MIN);
    // Same slot a day later: the old sell rate is not carried into the new minute.
    expect(read.points).toEqual([{ at: T0 + 1440 * MIN, buy: 131 }]);
    // The month ring still has the first day's hour.
    expect((await h.read(usdt, '30d', T0 + 1440 * MIN)).points[0]).toEqual({ at: T0, sell: 120 });
  });
});

describe('the rate history in Redis', () => {
  it('holds a pair in at most 50 KB, rings full', async () => {
    const h = new RedisRateHistory(redis, uniquePrefix(prefix));
    // 61-minute steps reach every slot of every ring (61 is prime to each ring's length).
    for (let i = 0; i < 1500; i++) {
      await h.record(usdt, 'buy', 129 + i / 1000, T0 + i * 61 * MIN);
      await h.record(usdt, 'sell', 127 + i / 1000, T0 + i * 61 * MIN);
    }
    const keys = h.keys(usdt);
    const lengths = await Promise.all(keys.map((k) => redis.strLen(k)));
    expect(lengths).toEqual(TIERS.map((t) => t.slots * 12));
    const bytes = (await Promise.all(keys.map((k) => redis.memoryUsage(k)))).reduce<number>(
      (a, b) => a + (b ?? 0),
      0,
    );
    expect(bytes).toBeGreaterThan(38_000);
    expect(bytes).toBeLessThanOrEqual(50 * 1024);
    expect(await redis.pTTL(keys[0]!)).toBeGreaterThan(31 * 24 * 3600_000);
  });
});
