/**
 * The slot book (src/outbound/reserve.ts), on Redis (replicas) and in memory (one process) alike.
 * - Slots given back: a lane goes back to before a booking only while that booking is still its
 *   last, so a slot given back from the middle of a busy lane is lost rather than handed out twice
 *   (two sends in one slot break the platform's limit). Several of one sender's bookings on a lane,
 *   given back together, all come back; so does a prebooked slot its message will not use.
 * - 429s for the whole line: each holds every sender for its `retry_after`; a second one within a
 *   minute slows the bot's lane by a quarter for a minute, and each further one more. One stray 429
 *   (late sends bunched on a busy machine) used to slow a 1,000-user drain to 1.4x the limit's time;
 *   the 429s of one burst (asked while a hold is on) count once: three at once slowed the lane to
 *   about half, a drain at 1.84x.
 * - A guarded booking (Redis): only while the chat's queue starts with the message (or, for a
 *   straight reply, is empty) and its holder is who the guard says.
 */
import type { RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundLine, type Lane, redisSlotBook } from '../../src/outbound/index.js';
import { type Reservation, SLOW_STEP, type SlotBook } from '../../src/outbound/reserve.js';
import { memorySlotBook } from '../../src/outbound/reserve-memory.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';
import { waitFor } from '../helpers/wait.js';

const prefix = uniquePrefix('slotbook');
let redis: RedisClientType;
beforeAll(async () => {
  redis = await connectTestRedis();
});
afterAll(async () => {
  await flushPrefix(redis, prefix);
  await redis.quit();
});

let n = 0;
/** A book of its own each (its hold and slowdown too). */
const books: Array<[string, () => SlotBook]> = [
  ['on Redis', () => redisSlotBook(redis, { hold: `${prefix}hold:${n}`, slow: `${prefix}slow:${n++}` })],
  ['in memory', () => memorySlotBook()],
];
/** A fresh lane of one send every `intervalMs`. */
const lane = (intervalMs: number): Lane => ({ key: `${prefix}lane:${n++}`, intervalMs, burst: 1 });

/** Books the lane's next slot; returns how far ahead it is (ms) and what was booked. */
const take = async (book: SlotBook, l: Lane) => {
  const r = await book.reserve({ line: [l], own: [], horizonMs: 60_000 });
  expect(r.kind).toBe('go');
  return r as Required<Reservation>;
};

const SECOND = 1_000;
describe.each(books)('a slot given back, the book %s', (_, make) => {
  it('from the middle of a busy lane is not handed out again: the next booking comes after the last', async () => {
    const [book, l] = [make(), lane(SECOND)];
    const a = await take(book, l);
    const b = await take(book, l);
    const c = await take(book, l);
    // One a second: the lane's time moved a second with each booking (read from the bookings, not the
    // waits, which shrink by however long each round trip took on a busy machine).
    const moved = [b, c].map((r, i) => (r.booked[0]?.to ?? 0) - ([a, b][i]?.booked[0]?.to ?? 0));
    expect(moved.map((ms) => Math.abs(ms - SECOND) <= 1)).toEqual([true, true]);
    expect(a.waitMs).toBe(0);
    expect(b.waitMs).toBeGreaterThan(SECOND / 2);
    expect(c.waitMs).toBeGreaterThan(b.waitMs + SECOND / 2);
    await book.giveBack(b.booked);
    // Given back, b's slot (about 1 s on) would go to d while c still holds the one after it; d
    // comes after c instead.
    const d = await take(book, l);
    expect(d.waitMs).toBeGreaterThan(c.waitMs + SECOND / 2);
  });

  it('that is the last comes back, and so do two of a sender given back together', async () => {
    const [book, l] = [make(), lane(SECOND)];
    await take(book, l);
    const b = await take(book, l);
    const c = await take(book, l);
    await book.giveBack([...b.booked, ...c.booked]);
    // Both free again: the next two bookings get their times.
    const d = await take(book, l);
    const e = await take(book, l);
    expect(d.waitMs).toBeLessThan(b.waitMs + SECOND / 2);
    expect(e.waitMs).toBeLessThan(c.waitMs + SECOND / 2);
  });
});

const TICK = 100;
/** Within 2 ms (times are whole ms): 100, 125 and 156 apart. */
const near = (ms: number, target: number) => Math.abs(ms - target) <= 2;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How far apart two slots booked back to back on a fresh lane are now (ms, from the bookings). */
async function spacing(book: SlotBook): Promise<number> {
  const l = lane(TICK);
  const a = await take(book, l);
  const b = await take(book, l);
  return b.booked[0]!.to - a.booked[0]!.to;
}

describe.each(books)('429s for the whole line, the book %s', (_, make) => {
  it('three at once only hold; one after the hold slows the lane, and one more slows it further', async () => {
    const book = make();
    expect(near(await spacing(book), TICK)).toBe(true);
    await Promise.all([book.hold(100), book.hold(100), book.hold(100)]);
    await sleep(120);
    expect(near(await spacing(book), TICK)).toBe(true);
    await book.hold(50);
    await sleep(70);
    expect(near(await spacing(book), TICK * SLOW_STEP)).toBe(true);
    await Promise.all([book.hold(50), book.hold(50)]);
    await sleep(70);
    expect(near(await spacing(book), TICK * SLOW_STEP * SLOW_STEP)).toBe(true);
  });
});

describe('a guarded booking on Redis', () => {
  it("books only while the guard holds: the list's head (empty: no head) and the key's value", async () => {
    const book = books[0]![1]();
    const list = `${prefix}guard:list:${n++}`;
    const holder = `${prefix}guard:holder:${n++}`;
    const ask = (head: string, key = '', value = '') =>
      book.reserve({ line: [lane(10)], own: [], horizonMs: 60_000, guard: { list, head, key, value } });
    // An empty list: the quiet guard books, a head guard does not.
    expect((await ask('')).kind).toBe('go');
    expect((await ask('m1')).kind).toBe('none');
    await redis.rPush(list, 'm1');
    expect((await ask('')).kind).toBe('none');
    expect((await ask('m1')).kind).toBe('go');
    // With a holder asked for, only its value books.
    await redis.set(holder, 'me');
    expect((await ask('m1', holder, 'me')).kind).toBe('go');
    expect((await ask('m1', holder, 'other')).kind).toBe('none');
  });
});

describe('a prebooked slot its message will not use', () => {
  const botLane = () => ({ key: `${prefix}pre:bot:${n++}`, intervalMs: 200, burst: 1 });
  const line = (bot: Lane) =>
    createOutboundLine({
      line: [bot],
      book: redisSlotBook(redis, { hold: `${prefix}hold`, slow: `${prefix}slow` }),
    });
  const message = (key: string) => ({
    key,
    cls: 'reply' as const,
    own: [{ key: `${prefix}pre:chat:${key}`, intervalMs: 300, burst: 2 }],
  });
  const bookedTo = async (bot: Lane) => Number(await redis.get(bot.key));

  it('is given back when the message is abandoned while its booking is on its way (a stop, a put elsewhere)', async () => {
    const bot = botLane();
    const l = line(bot);
    // Another message took the lane's first slot: the next one is 200 ms on.
    await l.run(message('first'), async () => 'sent');
    const before = await bookedTo(bot);
    const pre = l.prebook(message('late'));
    expect(pre).toBeDefined();
    l.abandon(pre!);
    expect((await pre!.booked).kind).toBe('go');
    // Booked, the lane went 200 ms further; given back, it is where it was.
    await waitFor('the slot given back', async () => (await bookedTo(bot)) <= before, 2_000);
  });

  it('loose (a straight reply) books only a slot due within its horizon: nothing ahead to lose', async () => {
    const bot = botLane();
    const l = line(bot);
    // A burst: the lane is booked a second ahead.
    const ahead = Date.now() + 1_000;
    await redis.set(bot.key, String(ahead), { expiration: { type: 'PX', value: 60_000 } });
    const pre = l.prebook(message('burst'), undefined, { horizonMs: 50 })!;
    expect((await pre.booked).kind).toBe('line');
    expect(await bookedTo(bot)).toBe(ahead);
    // With the lane free, it books; given back, the lane is free again.
    await redis.del(bot.key);
    const free = l.prebook(message('quiet'), undefined, { horizonMs: 50 })!;
    expect((await free.booked).kind).toBe('go');
    l.abandon(free);
    await waitFor('the slot given back', async () => (await redis.exists(bot.key)) === 0, 2_000);
    // Its chat is not kept from sending while the slot waits for its reply.
    const held = l.prebook(message('quiet'), undefined, { horizonMs: 50 })!;
    await held.booked;
    expect(await l.run(message('quiet'), async () => 'other send')).toBe('other send');
    l.abandon(held);
  });

  it('is given back when its send is given up before the booking answered', async () => {
    const bot = botLane();
    const l = line(bot);
    await l.run(message('first'), async () => 'sent');
    const before = await bookedTo(bot);
    const pre = l.prebook(message('stopped'))!;
    const stop = new AbortController();
    let sent = false;
    const run = l.run(
      message('stopped'),
      async () => {
        sent = true;
        return 'sent';
      },
      stop.signal,
      pre,
    );
    stop.abort(new Error('stopping'));
    await expect(run).rejects.toThrow('stopping');
    expect((await pre.booked).kind).toBe('go');
    await waitFor('the slot given back', async () => (await bookedTo(bot)) <= before, 2_000);
    expect(sent).toBe(false);
  });
});
