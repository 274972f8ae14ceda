/**
 * Issue #24 on the Cloud API channel (real HTTP, real Redis, the fake Graph API at the wire):
 * - a signed body whose message is older than the answer window (24 h by default) is not answered
 *   and does not touch its user's 24-hour window, even once its duplicate mark is gone; a message
 *   id's mark is kept at least as long as that window;
 * - `stop()` is bounded by its budget (SHUTDOWN_TIMEOUT_MS in the app), and what is left of the paced
 *   backlog is left in Redis (the outbox, the hand-back list): another replica sends each of those
 *   messages, once.
 */
import type { RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seenTtlSeconds } from '../../../src/channels/whatsapp-cloud/inbound/intake.js';
import { createWhatsAppCloudChannel } from '../../../src/channels/whatsapp-cloud/index.js';
import { cloudKeys } from '../../../src/channels/whatsapp-cloud/keys.js';
import type { HttpServer } from '../../../src/http/index.js';
import { redisOutboxStore } from '../../../src/outbound/index.js';
import { FakeWhatsAppGraphApi } from '../../fakes/whatsapp-graph-api.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../../helpers/redis.js';
import { recordingConversation, waitFor } from '../whatsapp/helpers.js';
import { APP_SECRET, PHONE_NUMBER_ID, replicaOptions, serveReplica, TOKEN } from './helpers.js';

const DAY = 24 * 3600_000;
let fake: FakeWhatsAppGraphApi;
let redis: RedisClientType;
const prefix = uniquePrefix('wacloud-stop');
const keys = cloudKeys(prefix, PHONE_NUMBER_ID);
const servers: HttpServer[] = [];

/** A channel as a replica runs it, on its own HTTP server; the fake posts webhooks to the last one made. */
async function replica(opts: { stopTimeoutMs?: number; pairIntervalMs?: number } = {}) {
  const conversation = recordingConversation();
  const channel = createWhatsAppCloudChannel({
    ...replicaOptions(fake, redis, prefix),
    conversation,
    // One message a user every pairIntervalMs after the first: a burst makes a paced backlog.
    pacing: { mps: 200, pairIntervalMs: opts.pairIntervalMs ?? 10, pairBurst: 1 },
    retry: { baseMs: 20, pairMs: 40 },
    stopTimeoutMs: opts.stopTimeoutMs ?? 1000,
    handbackPollMs: 50,
  });
  servers.push(await serveReplica(channel, fake));
  return { channel, conversation };
}

/** A signed body for a text sent `ageMs` ago. */
function oldText(from: string, id: string, ageMs: number): string {
  return fake.envelope({
    contacts: [{ profile: { name: 'Replayer' }, wa_id: from }],
    messages: [
      {
        from,
        id,
        timestamp: String(Math.floor((Date.now() - ageMs) / 1000)),
        type: 'text',
        text: { body: 'hi again' },
      },
    ],
  });
}

beforeAll(async () => {
  fake = await FakeWhatsAppGraphApi.start({
    token: TOKEN,
    phoneNumberId: PHONE_NUMBER_ID,
    appSecret: APP_SECRET,
  });
  redis = await connectTestRedis();
});
afterAll(async () => {
  for (const s of servers) await s.close();
  await fake?.close();
  await flushPrefix(redis, prefix);
  await redis?.quit();
});

describe('old messages', () => {
  let a: Awaited<ReturnType<typeof replica>>;
  beforeAll(async () => {
    a = await replica();
  });
  afterAll(async () => {
    await a.channel.stop();
  });

  it('a 30-day-old signed message is not answered and leaves the window alone; a 23-hour-old one is', async () => {
    const user = '254711000301';
    expect(await fake.post(oldText(user, 'wamid.replay-30d', 30 * DAY))).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    await a.channel.idle();
    expect(a.conversation.handled).toHaveLength(0);
    expect(fake.reads.some((r) => r.messageId === 'wamid.replay-30d')).toBe(false);
    expect(await redis.hGet(keys.lastInbound, user)).toBeNull();
    expect(await redis.exists(keys.seen('wamid.replay-30d'))).toBe(0);

    expect(await fake.post(oldText(user, 'wamid.late-23h', 23 * 3600_000))).toBe(200);
    await waitFor(() => a.conversation.handled.length === 1, 5000, 'the 23-hour-old message');
  });

  it('a replayed body is not answered again once its mark is gone, and the mark outlives the window', async () => {
    const user = '254711000302';
    const first = await fake.sendText(user, 'hello');
    await waitFor(
      () => a.conversation.handled.some((h) => h.updateId === first.id),
      5000,
      'the first delivery',
    );
    const ttl = await redis.ttl(keys.seen(first.id));
    expect(ttl).toBeGreaterThanOrEqual(DAY / 1000);
    expect(seenTtlSeconds(10 * DAY)).toBeGreaterThan((10 * DAY) / 1000);

    // Seven days on, the mark expired: the same signed body, its message now a week old, gets nothing.
    await redis.del(keys.seen(first.id));
    const count = a.conversation.handled.length;
    const week = oldText(user, first.id, 7 * DAY);
    expect(await fake.post(week)).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    await a.channel.idle();
    expect(a.conversation.handled).toHaveLength(count);
  });
});

describe('stopping with a paced backlog', () => {
  it('returns within its budget and another replica sends what was left, each message once', async () => {
    const user = '254711000303';
    const a = await replica({ stopTimeoutMs: 1000, pairIntervalMs: 200 });
    await fake.sendText(user, 'hi');
    await waitFor(() => a.conversation.handled.length === 1, 5000, 'the user writing first');
    const before = fake.to(user).length;
    // A burst of 30 updates for one user: about 6 s of pacing at one message per 200 ms.
    const sends = Array.from({ length: 30 }, (_, i) =>
      a.channel.adapter.send(user, { texts: [{ id: 'wa-text-only', args: { n: i } }], notice: true }, 'en'),
    );
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    await a.channel.stop();
    const took = Date.now() - started;
    expect(took).toBeLessThan(2000);
    await Promise.allSettled(sends);
    const sentByA = fake.to(user).length - before;
    expect(sentByA).toBeLessThan(30);
    const handedBack = await redis.lLen(keys.handback);
    const inOutbox = await redisOutboxStore(redis, keys.outbox).depth();
    expect(sentByA + handedBack + inOutbox).toBe(30);

    // Another replica takes them up and sends them.
    const b = await replica({ pairIntervalMs: 10 });
    await waitFor(() => fake.to(user).length - before === 30, 10_000, 'every message sent once');
    await new Promise((r) => setTimeout(r, 200));
    expect(fake.to(user).length - before).toBe(30);
    expect(await redis.lLen(keys.handback)).toBe(0);
    await b.channel.stop();
  }, 30_000);
});
