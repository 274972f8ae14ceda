/**
 * A message to an idle chat asks for its slot right behind its put, in the same round trip; the
 * slot is booked only when the put made it the chat's next message held by this replica, so a
 * message another replica will send books nothing (a wasted slot would delay the chat's next one).
 * Counted by a redis-server of the test's own (`total_reads_processed`: one read per batch).
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

function replica(sent: unknown[], hold?: Promise<void>): Outbox {
  const book = redisSlotBook(redis, { hold: 'pb:hold', slow: 'pb:slow' });
  const line = createOutboundLine({ line: [{ key: 'pb:bot', intervalMs: 10, burst: 1 }], book });
  return createOutbox({
    store: redisOutboxStore(redis, 'pb:outbox:'),
    line,
    lanesOf: (chat) => [{ key: `pb:chat:${chat}`, intervalMs: INTERVAL_MS, burst: 2 }],
    send: async (body) => {
      await hold;
      sent.push(body);
      return { sent: body };
    },
    // No polling while reads are counted: only the start's first look.
    pollMs: 600_000,
  });
}

describe('a message to an idle chat', () => {
  it("books its slot in its put's round trip, and records its answer in one more", async () => {
    const sent: unknown[] = [];
    const outbox = replica(sent);
    await outbox.start();
    await new Promise((r) => setTimeout(r, 50));
    // Once first, so Redis knows the scripts (a new Redis answers NOSCRIPT, and they are sent whole).
    await outbox.submit('warm', 'reply', { n: 0 });
    await new Promise((r) => setTimeout(r, 50));
    const before = await reads();
    await expect(outbox.submit('idle', 'reply', { n: 1 })).resolves.toEqual({ sent: { n: 1 } });
    await new Promise((r) => setTimeout(r, 50));
    expect(sent).toEqual([{ n: 0 }, { n: 1 }]);
    // put + slot, then the answer's record; the second INFO's own read is counted before it answers.
    expect((await reads()) - before - 1).toBe(2);
    await outbox.handOver(100);
  });

  it('books nothing when another replica holds the chat: the chat is paced by the sends alone', async () => {
    let release = () => {};
    const hold = new Promise<void>((r) => {
      release = r;
    });
    const sentA: unknown[] = [];
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
    expect(sentA).toEqual([{ n: 1 }, { n: 2 }]);
    // One more booking for the second message, none for b's put.
    expect(Number(await redis.get('pb:chat:held'))).toBe(booked + INTERVAL_MS);
    await Promise.all([a.handOver(100), b.handOver(100)]);
  });
});
