/**
 * Pacing shared through Redis: two outbound lines (two processes) on one number stay within its
 * messages per second together, and one user's messages keep the pair rate after a burst while another
 * user's are not held up by them.
 */
import type { RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CloudPacing,
  cloudKeys,
  createCloudPacing,
} from '../../../src/channels/whatsapp-cloud/index.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../../helpers/redis.js';

let redis: RedisClientType;
let other: RedisClientType;
const prefix = uniquePrefix('wapace');

beforeAll(async () => {
  redis = await connectTestRedis();
  other = await connectTestRedis();
});
afterAll(async () => {
  await flushPrefix(redis, prefix);
  await redis.quit();
  await other.quit();
});

/** Resolves when a message to `waId` gets its turn. */
const slot = (p: CloudPacing, waId: string) =>
  p.line.run({ key: waId, cls: 'reply', own: p.lanesOf(waId) }, async () => undefined);

describe('the Cloud API pacing', () => {
  it('keeps two processes together within the number’s messages per second', async () => {
    const keys = cloudKeys(prefix, 'n1');
    const a = createCloudPacing(redis, keys, { mps: 50, pairIntervalMs: 0, pairBurst: 1 });
    const b = createCloudPacing(other, keys, { mps: 50, pairIntervalMs: 0, pairBurst: 1 });
    const started = Date.now();
    const times: number[] = [];
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        slot(i % 2 ? a : b, `2547000000${String(i).padStart(2, '0')}`).then(() =>
          times.push(Date.now() - started),
        ),
      ),
    );
    // 60 messages at 50 per second, a burst of 5: at least (60 - 5) / 50 s.
    expect(Math.max(...times)).toBeGreaterThanOrEqual(1050);
    // The first second holds at most 50 + the burst (a slow machine only makes sends later).
    expect(times.filter((t) => t < 1000).length).toBeLessThanOrEqual(55);
  });

  it('paces one user after a burst, without holding up another user', async () => {
    const keys = cloudKeys(prefix, 'n2');
    const pacer = createCloudPacing(redis, keys, { mps: 1000, pairIntervalMs: 200, pairBurst: 3 });
    const started = Date.now();
    const busy: number[] = [];
    const jobs = Array.from({ length: 6 }, () =>
      slot(pacer, '254700000001').then(() => busy.push(Date.now() - started)),
    );
    await slot(pacer, '254700000002');
    const quiet = Date.now() - started;
    await Promise.all(jobs);
    busy.sort((x, y) => x - y);
    // Three at once, then one every 200 ms; the other user is not held up by them.
    expect(busy[5]!).toBeGreaterThanOrEqual(550);
    expect(busy[2]!).toBeLessThan(busy[5]! - 300);
    expect(quiet).toBeLessThan(busy[5]! - 300);
  });
});
