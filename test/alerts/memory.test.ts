/**
 * An alert costs at most 300 bytes of Redis, measured with MEMORY USAGE over every key the store
 * wrote: 3,000 alerts of 1,000 users on two feeds, so each feed's sorted set is past its compact
 * encoding (as with 100,000 alerts; `bench/alerts.ts` measures that size).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Rig, rig, user } from './rig.js';

let r: Rig;
beforeAll(async () => {
  r = await rig();
});
afterAll(() => r.close());

it('costs at most 300 bytes of Redis per alert', async () => {
  const s = r.redisStore();
  const n = 3000;
  for (let start = 0; start < n; start += 500) {
    await Promise.all(
      Array.from({ length: 500 }, (_, k) => {
        const i = start + k;
        return s.answer(user(100_000_000 + (i % 1000)), {
          action: 'set',
          token: 'USDT',
          network: i % 2 ? 'celo' : 'lisk',
          side: 'below',
          level: 100 + (i % 97) / 3,
        });
      }),
    );
  }
  let bytes = 0;
  for await (const keys of r.redis.scanIterator({ MATCH: `${r.prefix}*`, COUNT: 1000 }))
    for (const key of Array.isArray(keys) ? keys : [keys])
      bytes += (await r.redis.memoryUsage(key, { SAMPLES: 0 })) ?? 0;
  expect(await r.redis.zCard(`${s.p}z:b:celo:USDT`)).toBe(n / 2);
  expect(bytes / n).toBeLessThanOrEqual(300);
});
