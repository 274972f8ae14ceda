/**
 * Slots on the line, as the outbox books them. A message to an idle chat asks for its slot right
 * behind its put, in the same round trip; the slot is booked only when the put made it the chat's
 * next message held by this replica, so a message another replica will send books nothing (a wasted
 * slot would delay the chat's next one). A stop gives back the slots its sends had booked and will
 * not use, so its successor is not held up by them. Round trips are counted by a redis-server of
 * the test's own (`total_reads_processed`: one read per batch).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOutboundLine,
  createOutbox,
  type Outbox,
  redisOutboxStore,
  redisSlotBook,
} from '../../src/outbound/index.js';
import { freePort, type OwnRedis, ownRedis } from '../helpers/redis-server.js';
import { waitFor } from '../helpers/wait.js';

let server: OwnRedis;
let dir: string;
let redis: RedisClientType;
let admin: RedisClientType;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rampchat-prebook-'));
  server = ownRedis({ port: await freePort(), dir, aof: false });
  await server.start();
  redis = createClient({ url: server.url }) as RedisClientType;
  admin = createClient({ url: server.url }) as RedisClientType;
  await Promise.all([redis.connect(), admin.connect()]);
}, 20_000);
afterAll(async () => {
  await Promise.all([redis?.quit(), admin?.quit()]);
  await server?.kill();
  rmSync(dir, { recursive: true, force: true });
});

/** Batches Redis has read so far (the INFO asking is one of them). */
const reads = async () => Number(/total_reads_processed:(\d+)/.exec(await admin.info('stats'))?.[1]);

const INTERVAL_MS = 300;

function replica(sent: Array<{ at: number }>, hold?: Promise<void>, botIntervalMs = 10): Outbox {
  const book = redisSlotBook(redis, { hold: 'pb:hold', slow: 'pb:slow' });
  const line = createOutboundLine({ line: [{ key: 'pb:bot', intervalMs: botIntervalMs, burst: 1 }], book });
  return createOutbox({
    store: redisOutboxStore(redis, 'pb:outbox:'),
    line,
    lanesOf: (chat) => [{ key: `pb:chat:${chat}`, intervalMs: INTERVAL_MS, burst: 2 }],
    send: async (body) => {
      await hold;
      sent.push({ ...(body as object), at: Date.now() });
      if ((body as { refuse?: boolean }).refuse) throw new Error('refused by the platform');
      return { sent: body };
    },
    // No polling while reads are counted: only the start's first look.
    pollMs: 600_000,
  });
}

describe('a message to an idle chat', () => {
  it("books its slot in its put's round trip, and records its answer in one more", async () => {
    const sent: Array<{ at: number; [k: string]: unknown }> = [];
    const outbox = replica(sent);
    await outbox.start();
    await new Promise((r) => setTimeout(r, 50));
    // Once first, so Redis knows the scripts (a new Redis answers NOSCRIPT, and they are sent whole).
    await outbox.submit('warm', 'reply', { n: 0 });
    await new Promise((r) => setTimeout(r, 50));
    const before = await reads();
    await expect(outbox.submit('idle', 'reply', { n: 1 })).resolves.toEqual({ sent: { n: 1 } });
    await new Promise((r) => setTimeout(r, 50));
    expect(sent.map(({ at, ...b }) => b)).toEqual([{ n: 0 }, { n: 1 }]);
    // put + slot, then the answer's record; the second INFO's own read is counted before it answers.
    expect((await reads()) - before - 1).toBe(2);
    await outbox.handOver(100);
  });

  it('books nothing when another replica holds the chat: the chat is paced by the sends alone', async () => {
    let release = () => {};
    const hold = new Promise<void>((r) => {
      release = r;
    });
    const sentA: Array<{ at: number; [k: string]: unknown }> = [];
    const a = replica(sentA, hold);
    const b = replica([]);
    await Promise.all([a.start(), b.start()]);
    const first = a.submit('held', 'reply', { n: 1 });
    await waitFor('a booked its slot', async () => (await redis.get('pb:chat:held')) !== null);
    const booked = Number(await redis.get('pb:chat:held'));
    // b's message waits behind a's in the chat a holds: a sends it, b's put books no slot.
    const second = b.submit('held', 'reply', { n: 2 });
    await new Promise((r) => setTimeout(r, 100));
    expect(Number(await redis.get('pb:chat:held'))).toBe(booked);
    release();
    await expect(first).resolves.toEqual({ sent: { n: 1 } });
    await expect(second).resolves.toEqual({ sent: { n: 2 } });
    expect(sentA.map(({ at, ...b }) => b)).toEqual([{ n: 1 }, { n: 2 }]);
    // One more booking, for the second message: from the first's slot, or from when it asked if that
    // was later (a loaded machine can take longer than the interval to get there); none for b's put.
    const tat = Number(await redis.get('pb:chat:held'));
    expect(tat).toBeGreaterThanOrEqual(booked + INTERVAL_MS);
    expect(tat).toBeLessThanOrEqual(Math.max(booked, sentA[1]?.at ?? 0) + INTERVAL_MS + 5);
    await Promise.all([a.handOver(100), b.handOver(100)]);
  });
});

describe('a chat whose first message was refused', () => {
  it("books a slot of its own for the next one (the first one's prebooked slot is not used twice)", async () => {
    const sent: Array<{ at: number; [k: string]: unknown }> = [];
    const outbox = replica(sent);
    await outbox.start();
    const asked = Date.now();
    const first = outbox.submit('refusing', 'reply', { n: 1, refuse: true }).catch((e: Error) => e.message);
    const second = outbox.submit('refusing', 'reply', { n: 2 });
    expect(await first).toBe('refused by the platform');
    await expect(second).resolves.toEqual({ sent: { n: 2 } });
    // One a chat's interval apart (burst 2 lets two go at once: the lane is booked twice, not once).
    // Counted from before the first was asked for: a loaded machine books and sends later, never
    // earlier (from the first send, CI once read 544 ms against 2 intervals less 50).
    expect(sent.map((m) => m.n)).toEqual([1, 2]);
    const tat = Number(await redis.get('pb:chat:refusing'));
    expect(tat - asked).toBeGreaterThanOrEqual(2 * INTERVAL_MS - 5);
    await outbox.handOver(100);
  });
});

describe('a stop', () => {
  it('gives back the slots its sends booked and will not use: its successor is not held up by them', async () => {
    const interval = 200;
    const sentA: Array<{ at: number; n?: unknown }> = [];
    const sentB: Array<{ at: number; n?: unknown }> = [];
    const a = replica(sentA, undefined, interval);
    await a.start();
    await redis.del('pb:bot');
    const chats = Array.from({ length: 8 }, (_, i) => `stop${i}`);
    const submits = chats.map((chat, n) => a.submit(chat, 'reply', { n }).catch((e: Error) => e.name));
    // The bot's lane is booked about 8 × 200 ms ahead; the first goes at once.
    await waitFor('the first send', () => sentA.length === 1);
    const bookedTo = Number(await redis.get('pb:bot'));
    expect(bookedTo - Date.now()).toBeGreaterThan(4 * interval);
    await a.handOver(100);
    expect(await Promise.all(submits)).toEqual([
      { sent: { n: 0 } },
      ...chats.slice(1).map(() => 'HandedOverError'),
    ]);
    // The seven slots not used are free again: what is left booked is at most the last send's.
    expect(Number(await redis.get('pb:bot')) - Date.now()).toBeLessThanOrEqual(interval);
    // The successor sends what was handed over, each once.
    const b = replica(sentB, undefined, interval);
    await b.start();
    await waitFor('the handed-over messages', () => sentB.length === 7, 10_000);
    expect([...sentA, ...sentB].map((m) => (m as { n: number }).n).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    await b.handOver(100);
  });
});

describe('many chats waiting in line at once', () => {
  it('wait on the stop without a listener-leak warning (one listener per waiting message)', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const sent: Array<{ at: number }> = [];
      // The bot's lane lets one message through every 50 ms: 20 chats' messages wait their turn.
      const a = replica(sent, undefined, 50);
      await a.start();
      await redis.del('pb:bot');
      const all = Array.from({ length: 20 }, (_, n) => a.submit(`many${n}`, 'reply', { n }));
      await Promise.all(all);
      await a.handOver(100);
      expect(sent).toHaveLength(20);
      await new Promise((r) => setImmediate(r));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});
