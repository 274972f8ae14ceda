/**
 * Wake-ups between outboxes (real Redis): a replica that stops, or puts a message it will not send,
 * says so, and the others take its chats at once. The taking replicas here never look on their own
 * (their regular look is ten minutes away), so only a wake-up (or the one look an outbox makes as it
 * begins to listen, for a wake-up it missed while connecting) can explain a prompt take-over.
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
import { subscribeWakes } from '../../src/outbound/outbox-wake.js';
import { flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';
import { freePort, ownRedis } from '../helpers/redis-server.js';
import { waitFor } from '../helpers/wait.js';

const prefix = uniquePrefix('wake');
let redis: RedisClientType;
const outboxes: Outbox[] = [];
beforeAll(async () => {
  redis = createClient({ url: testRedisUrl() }) as RedisClientType;
  await redis.connect();
});
afterAll(async () => {
  await Promise.all(outboxes.map((o) => o.handOver(50)));
  await flushPrefix(redis, prefix);
  await redis.quit();
});

interface Sent {
  by: string;
  n: number;
  at: number;
}

/** A replica's outbox; `perBotMs` paces its bot lane (slow: its messages wait in line). */
function replica(name: string, sent: Sent[], opts: { perBotMs?: number; autoStart?: boolean } = {}) {
  const book = redisSlotBook(redis, { hold: `${prefix}hold`, slow: `${prefix}slow` });
  const line = createOutboundLine({
    line: [{ key: `${prefix}bot:${name}`, intervalMs: opts.perBotMs ?? 5, burst: 1 }],
    book,
  });
  const outbox = createOutbox({
    store: redisOutboxStore(redis, `${prefix}outbox:`),
    line,
    lanesOf: (chat) => [{ key: `${prefix}chat:${chat}`, intervalMs: 5, burst: 1 }],
    send: async (body) => {
      sent.push({ by: name, n: (body as { n: number }).n, at: Date.now() });
      return { ok: true };
    },
    pollMs: 600_000,
    ...(opts.autoStart === false ? { autoStart: false } : {}),
  });
  outboxes.push(outbox);
  return outbox;
}

describe('outbox wake-ups', () => {
  it("takes a stopped replica's waiting messages at once, in order", async () => {
    const sent: Sent[] = [];
    const stopping = replica('a', sent, { perBotMs: 60_000 });
    const taking = replica('b', sent);
    await Promise.all([stopping.start(), taking.start()]);
    // The first goes; the rest wait for the stopping replica's slow line.
    const answers = [1, 2, 3].map((n) =>
      stopping.submit('chat-stop', 'reply', { n }).catch(() => 'handed over'),
    );
    await waitFor('the first send', () => sent.length >= 1, 5_000);
    const stoppedAt = Date.now();
    await stopping.handOver(50);
    await waitFor('the waiting ones, sent by the other replica', () => sent.length >= 3, 5_000);
    expect(sent.map(({ by, n }) => `${by}${n}`)).toEqual(['a1', 'b2', 'b3']);
    expect((sent[1] as Sent).at - stoppedAt).toBeLessThan(3_000);
    expect(await Promise.all(answers)).toEqual([{ ok: true }, 'handed over', 'handed over']);
  });

  it('takes a message put by a replica that does not send at once', async () => {
    const sent: Sent[] = [];
    const putter = replica('p', sent, { autoStart: false });
    const sender = replica('s', sent);
    await sender.start();
    await new Promise((r) => setTimeout(r, 100));
    const putAt = Date.now();
    await putter.enqueue('chat-put', 'outcome', { n: 7 });
    await waitFor('the message, sent by the replica that sends', () => sent.length >= 1, 5_000);
    expect(sent).toEqual([{ by: 's', n: 7, at: expect.any(Number) }]);
    expect((sent[0] as Sent).at - putAt).toBeLessThan(3_000);
  });
});

describe('outbox wake-ups: listening late', () => {
  it('looks once as soon as it listens, for a wake-up sent while it connected', async () => {
    let woken = 0;
    const close = subscribeWakes(redis, `${prefix}late:wake`, () => woken++);
    try {
      await waitFor('the look when the subscription begins', () => woken === 1 || undefined, 5_000);
      await redis.publish(`${prefix}late:wake`, '1');
      await waitFor('the look a wake-up asks for', () => woken === 2 || undefined, 5_000);
    } finally {
      await close();
    }
  });
});

describe('outbox wake-ups: a burst', () => {
  it("gathers a burst's wake-ups into a few looks, and sends every message", async () => {
    const sent: Sent[] = [];
    const store = redisOutboxStore(redis, `${prefix}burst:outbox:`);
    let looks = 0;
    const counted = {
      ...store,
      claim: (owner: string, max: number) => {
        looks++;
        return store.claim(owner, max);
      },
    };
    const sender = createOutbox({
      store: counted,
      line: createOutboundLine({
        line: [{ key: `${prefix}burst:bot`, intervalMs: 1, burst: 1 }],
        book: redisSlotBook(redis, { hold: `${prefix}burst:hold`, slow: `${prefix}burst:slow` }),
      }),
      lanesOf: (chat) => [{ key: `${prefix}burst:chat:${chat}`, intervalMs: 1, burst: 1 }],
      send: async (body) => {
        sent.push({ by: 's', n: (body as { n: number }).n, at: Date.now() });
        return { ok: true };
      },
      pollMs: 600_000,
    });
    outboxes.push(sender);
    // An instance that only puts (as a baileys instance not holding the number): every put wakes.
    const putter = createOutbox({
      store,
      line: createOutboundLine({
        line: [],
        book: redisSlotBook(redis, { hold: `${prefix}p:hold`, slow: `${prefix}p:slow` }),
      }),
      lanesOf: () => [],
      send: async () => ({ ok: true }),
      autoStart: false,
    });
    outboxes.push(putter);
    await sender.start();
    await new Promise((r) => setTimeout(r, 100));
    const before = looks;
    const t0 = Date.now();
    await Promise.all(
      Array.from({ length: 200 }, (_, n) => putter.enqueue(`chat-burst-${n}`, 'outcome', { n })),
    );
    await waitFor('the burst, sent', () => sent.length >= 200 || undefined, 10_000);
    const seconds = (Date.now() - t0) / 1000;
    // One look per 50 ms of the burst at most (and a last one), not one per message.
    expect(looks - before).toBeLessThanOrEqual(Math.ceil(seconds * 20) + 2);
    expect(new Set(sent.map((m) => m.n)).size).toBe(200);
  });
});

describe('outbox wake-ups: the connection', () => {
  it('is one more connection while working, closed at the hand-over', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rampchat-wake-'));
    const server = ownRedis({ port: await freePort(), dir, aof: false });
    await server.start();
    const own = createClient({ url: server.url }) as RedisClientType;
    await own.connect();
    const clients = async () => (await own.clientList()).length;
    try {
      const outbox = createOutbox({
        store: redisOutboxStore(own, 'conn:outbox:'),
        line: createOutboundLine({
          line: [{ key: 'conn:bot', intervalMs: 5, burst: 1 }],
          book: redisSlotBook(own, { hold: 'conn:hold', slow: 'conn:slow' }),
        }),
        lanesOf: (chat) => [{ key: `conn:chat:${chat}`, intervalMs: 5, burst: 1 }],
        send: async () => ({ ok: true }),
        pollMs: 600_000,
      });
      expect(await clients()).toBe(1);
      await outbox.start();
      await waitFor('the wake-ups connection', async () => (await clients()) === 2 || undefined, 5_000);
      await outbox.handOver(50);
      await waitFor(
        'the wake-ups connection closed',
        async () => (await clients()) === 1 || undefined,
        2_000,
      );
      // A hand-over right after a start overtakes the connect under way: none is left open.
      for (let i = 0; i < 5; i++) {
        await outbox.start();
        await outbox.handOver(0);
      }
      await waitFor(
        'every wake-ups connection closed',
        async () => (await clients()) === 1 || undefined,
        2_000,
      );
      await new Promise((r) => setTimeout(r, 500));
      expect(await clients()).toBe(1);
    } finally {
      await own.quit();
      await server.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
