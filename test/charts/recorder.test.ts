/**
 * Filling the histories against the sandbox over real HTTP and real Redis: a charted pair gets both
 * its rates each interval, from one replica only; the alert ticker's own quotes are kept too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisRateHistory } from '../../src/charts/history-redis.js';
import { ChartRecorder, redisChartedPairs } from '../../src/charts/recorder.js';
import { type Rig, rig, silent, user } from '../alerts/rig.js';
import { uniquePrefix } from '../helpers/redis.js';

let r: Rig;
beforeAll(async () => {
  r = await rig('redis');
});
afterAll(() => r.close());

const usdt = { token: 'USDT', network: 'celo' };

describe('the chart recorder', () => {
  it('quotes both sides of each charted pair once per interval, whichever replica wins it', async () => {
    const prefix = uniquePrefix(r.prefix);
    const history = new RedisRateHistory(r.redis, prefix);
    const pairs = redisChartedPairs(r.redis, prefix);
    const make = () =>
      new ChartRecorder({
        history,
        pairs,
        ramp: r.ramp,
        log: silent(),
        intervalMs: 60_000,
        now: () => r.clock.now,
      });
    const [a, b] = [make(), make()];
    // Nothing charted yet: nothing quoted.
    expect(await a.maybeTick()).toBe(0);
    await pairs.touch(usdt, r.clock.now);
    r.sandbox.setKesPerUsd(130);
    r.clock.now += 60_000;
    const ticks = await Promise.all([a.maybeTick(), b.maybeTick()]);
    expect(ticks.filter((n) => n !== undefined)).toEqual([2]);
    const read = await history.read(usdt, '24h', r.clock.now);
    expect(read.points).toHaveLength(1);
    // The sandbox quotes both directions at its KES per USD (USDT is 1 USD).
    expect(read.points[0]).toMatchObject({ buy: 130, sell: 130 });
    // A token the ramp does not list there (a forged button): refused both ways, no longer quoted.
    await pairs.touch({ token: 'DOGE', network: 'celo' }, r.clock.now);
    const quotes = r.sandbox.quoteCallCount();
    expect(await a.tick()).toBe(2);
    expect(r.sandbox.quoteCallCount() - quotes).toBe(4);
    expect(await r.redis.zRange(`${prefix}chart:pairs`, 0, -1)).toEqual(['USDT:celo']);
    // A pair nobody asked for in 31 days is dropped.
    r.clock.now += 32 * 24 * 3600_000;
    expect(await a.tick()).toBe(0);
  });

  it("keeps the alert ticker's quotes: below as the buy rate, above as the sell rate", async () => {
    const prefix = uniquePrefix(r.prefix);
    const history = new RedisRateHistory(r.redis, prefix);
    const recorder = new ChartRecorder({
      history,
      pairs: redisChartedPairs(r.redis, prefix),
      ramp: r.ramp,
      log: silent(),
      intervalMs: 60_000,
      now: () => r.clock.now,
    });
    const s = r.store();
    const set = { action: 'set', token: 'USDT', side: 'below', level: 1 } as const;
    await s.answer(user('chart-a'), { ...set, network: 'celo' });
    await s.answer(user('chart-b'), { ...set, network: 'lisk', side: 'above', level: 999 });
    r.sandbox.setKesPerUsd(131);
    const report = await r.ticker({ onRate: (feed, rate) => recorder.fromAlerts(feed, rate) }).tick();
    expect(report.quotes).toBe(2);
    expect((await history.read(usdt, '24h', r.clock.now)).points).toEqual([
      { at: Math.floor(r.clock.now / 60_000) * 60_000, buy: 131 },
    ]);
    const lisk = await history.read({ token: 'USDT', network: 'lisk' }, '24h', r.clock.now);
    expect(lisk.points).toEqual([{ at: Math.floor(r.clock.now / 60_000) * 60_000, sell: 131 }]);
  });
});
