/**
 * A slot whose answer is read late (a busy event loop) is nearer than its wait says: sent on the
 * wait, it would go late and crowd the slots booked after it by other replicas, which Telegram counts
 * as a burst (429). The line books such a slot again, once a message, and the book measures the
 * lateness against Redis's clock.
 */
import type { RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundLine, redisSlotBook } from '../../src/outbound/index.js';
import type { Booking, Reservation, ReserveRequest, SlotBook } from '../../src/outbound/reserve.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';

const message = (key: string) => ({ key, cls: 'reply' as const, own: [] });

/** A book that answers each reservation with the next of `answers` and records what it was asked. */
function scriptedBook(answers: Reservation[]) {
  const given: Booking[][] = [];
  let asked = 0;
  const book: SlotBook = {
    reserve: async () => answers[asked++] ?? { kind: 'go', waitMs: 0, booked: [] },
    hold: async () => {},
    giveBack: async (bookings) => {
      given.push(bookings);
    },
  };
  return { book, given, asked: () => asked };
}

describe('a slot whose answer was read late', () => {
  it('is given back and booked again, once: the second slot goes however late it is read', async () => {
    const first = { key: 'bot', from: 1_000, to: 1_037 };
    const second = { key: 'bot', from: 1_037, to: 1_074 };
    const { book, given, asked } = scriptedBook([
      { kind: 'go', waitMs: 0, booked: [first], lateMs: 120 },
      { kind: 'go', waitMs: 0, booked: [second], lateMs: 120 },
    ]);
    const line = createOutboundLine({ line: [{ key: 'bot', intervalMs: 37, burst: 1 }], book });
    let sent = 0;
    await line.run(message('chat'), async () => ++sent);
    expect(sent).toBe(1);
    expect(asked()).toBe(2);
    expect(given).toEqual([[first]]);
  });

  it('goes on its slot when the answer was read a little late, the wait shortened by as much', async () => {
    const { book, given, asked } = scriptedBook([{ kind: 'go', waitMs: 1_000, booked: [], lateMs: 800 }]);
    const line = createOutboundLine({ line: [{ key: 'bot', intervalMs: 37, burst: 1 }], book });
    const started = Date.now();
    await line.run(message('chat'), async () => 'sent');
    const took = Date.now() - started;
    expect(asked()).toBe(1);
    expect(given).toEqual([]);
    // A second of wait of which 800 ms had passed while the answer waited to be read.
    expect(took).toBeGreaterThanOrEqual(190);
    expect(took).toBeLessThan(900);
  });
});

describe('the Redis slot book', () => {
  let redis: RedisClientType;
  let prefix: string;
  beforeAll(async () => {
    redis = await connectTestRedis();
    prefix = uniquePrefix('late-answer');
  });
  afterAll(async () => {
    await flushPrefix(redis, prefix);
    await redis.quit();
  });

  it('says how late an answer was read against the quickest of the last seconds, on its clock', async () => {
    const book = redisSlotBook(redis, { hold: `${prefix}hold`, slow: `${prefix}slow` });
    const request: ReserveRequest = {
      line: [{ key: `${prefix}bot`, intervalMs: 1, burst: 1 }],
      own: [],
      horizonMs: 10_000,
    };
    for (let i = 0; i < 5; i++) await book.reserve(request);
    // The command is written on the next turn of the loop; the loop then stays busy for 150 ms
    // while Redis's answer waits in the socket.
    const answer = book.reserve(request);
    setImmediate(() => {
      const until = Date.now() + 150;
      while (Date.now() < until) {}
    });
    const late = await answer;
    expect(late.kind).toBe('go');
    expect(late.lateMs).toBeGreaterThanOrEqual(120);
    // The late one did not become the measure: the next answer, read at once, is not late.
    expect((await book.reserve(request)).lateMs).toBeLessThan(100);
  });
});
