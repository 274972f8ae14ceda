/**
 * A 429 for the whole line holds every sender for its `retry_after`. A second one within a minute
 * slows the bot's lane by a quarter for a minute, and each further one more: one stray 429 (late
 * sends bunched on a busy machine) used to slow a 1,000-user drain to 1.4x the limit's time. The
 * 429s of one burst (sends already on their way when the first came back, so asked while a hold is
 * on) count once: three at once slowed the lane to about half, a drain at 1.84x. Run against the
 * slot book on Redis (replicas) and in memory (one process) alike.
 */
import type { RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lane, redisSlotBook } from '../../src/outbound/index.js';
import { SLOW_STEP, type SlotBook } from '../../src/outbound/reserve.js';
import { memorySlotBook } from '../../src/outbound/reserve-memory.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';

const prefix = uniquePrefix('hold');
let redis: RedisClientType;
beforeAll(async () => {
  redis = await connectTestRedis();
});
afterAll(async () => {
  await flushPrefix(redis, prefix);
  await redis.quit();
});

const INTERVAL = 100;
let n = 0;
const books: Array<[string, () => SlotBook]> = [
  ['on Redis', () => redisSlotBook(redis, { hold: `${prefix}hold:${n}`, slow: `${prefix}slow:${n++}` })],
  ['in memory', () => memorySlotBook()],
];
/** Within 2 ms (times are whole ms): 100, 125 and 156 apart. */
const near = (ms: number, target: number) => Math.abs(ms - target) <= 2;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How far apart two slots booked back to back on a fresh lane are now (ms, from the bookings). */
async function spacing(book: SlotBook): Promise<number> {
  const line: Lane[] = [{ key: `${prefix}lane:${n++}`, intervalMs: INTERVAL, burst: 1 }];
  const a = await book.reserve({ line, own: [], horizonMs: 60_000 });
  const b = await book.reserve({ line, own: [], horizonMs: 60_000 });
  return b.booked![0]!.to - a.booked![0]!.to;
}

describe.each(books)('429s for the whole line, the book %s', (_, make) => {
  it('three at once only hold; one after the hold slows the lane, and one more slows it further', async () => {
    const book = make();
    expect(near(await spacing(book), INTERVAL)).toBe(true);
    await Promise.all([book.hold(100), book.hold(100), book.hold(100)]);
    await sleep(120);
    expect(near(await spacing(book), INTERVAL)).toBe(true);
    await book.hold(50);
    await sleep(70);
    expect(near(await spacing(book), INTERVAL * SLOW_STEP)).toBe(true);
    await Promise.all([book.hold(50), book.hold(50)]);
    await sleep(70);
    expect(near(await spacing(book), INTERVAL * SLOW_STEP * SLOW_STEP)).toBe(true);
  });
});
