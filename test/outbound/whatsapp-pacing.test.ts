/**
 * The outbound line on WhatsApp. The Cloud API: channel instances standing for replicas on one real
 * Redis, against the fake Graph API enforcing Meta's throughput (#130429) and pair rate (#131056).
 * Baileys: a recording socket, one chat's replies overtaking its queued notices, and WhatsApp's
 * `rate-overlimit` holding every chat.
 */
import type { RedisClientType } from 'redis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWhatsAppChannel, type WhatsAppChannel } from '../../src/channels/whatsapp/index.js';
import {
  cloudKeys,
  createWhatsAppCloudChannel,
  type PacingOptions,
  type RetryOptions,
  type WhatsAppCloudChannel,
} from '../../src/channels/whatsapp-cloud/index.js';
import type { OutMessage } from '../../src/chat/types.js';
import { loadI18n } from '../../src/i18n/index.js';
import { createLogger } from '../../src/log/logger.js';
import {
  RecordingSocket,
  recordingConversation,
  silent,
  testI18n,
  waitFor,
} from '../channels/whatsapp/helpers.js';
import { APP_SECRET, PHONE_NUMBER_ID, TOKEN, VERIFY_TOKEN } from '../channels/whatsapp-cloud/helpers.js';
import { FakeWhatsAppGraphApi, type RateLimits } from '../fakes/whatsapp-graph-api.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';

const i18n = loadI18n();
const textOf = FakeWhatsAppGraphApi.textOf;
const reply: OutMessage = { texts: [{ id: 'core-menu-title' }] };
const progress = (orderId: string): OutMessage => ({
  texts: [{ id: 'tracker-onramp-pending', args: { amount: 'KES 500.00', orderId } }],
  replaceKey: `order:${orderId}`,
});
const notice = (orderId: string): OutMessage => ({
  texts: [{ id: 'tracker-onramp-pending', args: { amount: 'KES 700.00', orderId } }],
  notice: true,
});
const replyText = i18n.t('en', reply.texts[0]!);

let redis: RedisClientType[];
let prefix: string;
let fake: FakeWhatsAppGraphApi | undefined;
const clouds: WhatsAppCloudChannel[] = [];
const baileys: WhatsAppChannel[] = [];

beforeEach(async () => {
  redis = [];
  prefix = uniquePrefix('wapace');
});

afterEach(async () => {
  for (const c of clouds.splice(0)) await c.stop();
  for (const c of baileys.splice(0)) await c.stop();
  await fake?.close();
  fake = undefined;
  if (redis[0]) await flushPrefix(redis[0], prefix);
  for (const r of redis) await r.quit();
});

async function startFake(limits?: RateLimits): Promise<FakeWhatsAppGraphApi> {
  fake = await FakeWhatsAppGraphApi.start({
    token: TOKEN,
    phoneNumberId: PHONE_NUMBER_ID,
    appSecret: APP_SECRET,
    limits,
  });
  return fake;
}

/** One replica of the Cloud channel: its own Redis connection, the same keys and number. */
async function cloudReplica(pacing: PacingOptions, retry: RetryOptions = {}): Promise<WhatsAppCloudChannel> {
  const conn = await connectTestRedis();
  redis.push(conn);
  const channel = createWhatsAppCloudChannel({
    conversation: recordingConversation(),
    i18n,
    redis: conn,
    logger: createLogger({ level: 'silent' }),
    phoneNumberId: PHONE_NUMBER_ID,
    token: TOKEN,
    appSecret: APP_SECRET,
    verifyToken: VERIFY_TOKEN,
    graphUrl: (fake as FakeWhatsAppGraphApi).graphUrl,
    template: { name: 'rampchat_update', languages: { en: 'en', sw: 'sw' } },
    keyPrefix: prefix,
    pacing,
    retry: { baseMs: 20, pairMs: 40, ...retry },
  });
  clouds.push(channel);
  await channel.start();
  return channel;
}

/** Users who wrote to us a moment ago (our book and Meta's window both open). */
async function contacts(count: number, from = 0): Promise<string[]> {
  const users = Array.from({ length: count }, (_, i) => `2547330${String(from + i).padStart(5, '0')}`);
  const keys = cloudKeys(prefix, PHONE_NUMBER_ID);
  for (const user of users) {
    await (redis[0] as RedisClientType).hSet(keys.lastInbound, user, String(Date.now()));
    fake?.openWindow(user);
  }
  return users;
}

describe('the outbound line on the WhatsApp Cloud API', () => {
  it('two replicas sending a burst to 30 users stay within the number’s rate and each pair rate: no refusal, nothing lost', async () => {
    // Meta's limits a little above the pace asked for, as in production (60 a second against 80): a
    // send is paced when it leaves and counted when it arrives, a busy machine in between.
    await startFake({ mps: 70, pairIntervalMs: 200, pairBurst: 2, slackMs: 50 });
    const a = await cloudReplica({ mps: 50, pairIntervalMs: 300, pairBurst: 2 });
    const b = await cloudReplica({ mps: 50, pairIntervalMs: 300, pairBurst: 2 });
    const users = await contacts(30);
    await Promise.all(
      users.flatMap((user, i) => [
        a.adapter.send(user, reply, 'en'),
        b.adapter.send(user, notice(`D-n${String(i).padStart(4, '0')}-AB`), 'en'),
        a.adapter.send(user, progress(`D-p${String(i).padStart(4, '0')}-AB`), 'en'),
        b.adapter.send(user, reply, 'en'),
      ]),
    );
    const f = fake as FakeWhatsAppGraphApi;
    expect(f.refusals).toEqual([]);
    expect(f.sent).toHaveLength(120);
    for (const user of users) expect(f.to(user)).toHaveLength(4);
    expect(f.peakPerSecond()).toBeLessThanOrEqual(70);
    // 120 messages at 50 a second (a burst of 5): the line kept the pace rather than outrunning it.
    expect(f.sent.at(-1)!.at - f.sent[0]!.at).toBeGreaterThanOrEqual(2000);
  });

  it('paced looser than Meta’s limits, the refused messages wait their turn again: every one arrives', async () => {
    await startFake({ mps: 20, pairIntervalMs: 200, pairBurst: 2 });
    const a = await cloudReplica({ mps: 1000, pairIntervalMs: 0 });
    const b = await cloudReplica({ mps: 1000, pairIntervalMs: 0 });
    const users = await contacts(10, 100);
    await Promise.all(
      users.flatMap((user) => [
        a.adapter.send(user, reply, 'en'),
        b.adapter.send(user, reply, 'en'),
        a.adapter.send(user, reply, 'en'),
      ]),
    );
    const f = fake as FakeWhatsAppGraphApi;
    // The fake enforces both of Meta's limits…
    expect(f.refusals).toContain(130429);
    expect(f.refusals.every((code) => code === 130429 || code === 131056)).toBe(true);
    // …and nothing is lost to them.
    for (const user of users) expect(f.to(user)).toHaveLength(3);
  });

  it('a reply overtakes the user’s backlog of progress and notices', async () => {
    await startFake({ pairIntervalMs: 400, pairBurst: 1 });
    const a = await cloudReplica({ mps: 50, pairIntervalMs: 500, pairBurst: 1 });
    const [user] = (await contacts(1)) as [string];
    const backlog = [1, 2, 3].flatMap((i) => [
      a.adapter.send(user, progress(`D-pro0${i}-AB`), 'en'),
      a.adapter.send(user, notice(`D-not0${i}-AB`), 'en'),
    ]);
    const f = fake as FakeWhatsAppGraphApi;
    await f.waitFor(() => f.sent.length === 1, 5000, 'the first of the backlog');
    await a.adapter.send(user, reply, 'en');
    await Promise.all(backlog);
    const texts = f.to(user).map(textOf);
    expect(texts).toHaveLength(7);
    // Only what was already on its way went before it.
    expect(texts.indexOf(replyText)).toBe(1);
    expect(f.refusals).toEqual([]);
  });

  it('a throughput refusal (#130429) holds both replicas, and the refused message is sent after it, once', async () => {
    await startFake();
    const hold = 800;
    const a = await cloudReplica({ mps: 50, pairIntervalMs: 0 }, { baseMs: hold });
    const b = await cloudReplica({ mps: 50, pairIntervalMs: 0 }, { baseMs: hold });
    const [first, second] = (await contacts(2)) as [string, string];
    const f = fake as FakeWhatsAppGraphApi;
    f.failNext({ code: 130429, status: 400, message: '(#130429) Rate limit hit' });
    const sentA = a.adapter.send(first, reply, 'en');
    const refused = await f.waitFor(() => f.refused[0], 5000, 'the refusal');
    await b.adapter.send(second, reply, 'en');
    await sentA;
    expect(f.refusals).toEqual([130429]);
    expect(f.to(first)).toHaveLength(1);
    expect(f.to(second)).toHaveLength(1);
    // Redis's clock and the fake's are one machine's: allow a little for the round trips.
    expect(f.to(second)[0]!.at - refused.at).toBeGreaterThanOrEqual(hold - 50);
    expect(f.to(first)[0]!.at - refused.at).toBeGreaterThanOrEqual(hold - 50);
  });

  it('a pair-rate refusal (#131056) holds only that user', async () => {
    await startFake();
    const a = await cloudReplica({ mps: 50, pairIntervalMs: 0 }, { pairMs: 800 });
    const [busy, other] = (await contacts(2)) as [string, string];
    const f = fake as FakeWhatsAppGraphApi;
    f.failNext({ code: 131056, status: 400, message: '(#131056) pair rate limit hit' });
    const sentBusy = a.adapter.send(busy, reply, 'en');
    const refused = await f.waitFor(() => f.refused[0], 5000, 'the refusal');
    await a.adapter.send(other, reply, 'en');
    await sentBusy;
    expect(f.to(other)[0]!.at - refused.at).toBeLessThan(500);
    expect(f.to(busy)[0]!.at - refused.at).toBeGreaterThanOrEqual(750);
  });
});

/** A baileys channel on a recording socket; `socket()` is the live one. */
async function baileysChannel(
  pacing: Parameters<typeof createWhatsAppChannel>[0]['pacing'],
  make = RecordingSocket,
) {
  const conn = await connectTestRedis();
  redis.push(conn);
  const sockets: RecordingSocket[] = [];
  const channel = createWhatsAppChannel({
    conversation: recordingConversation(),
    i18n: testI18n(),
    redis: conn,
    logger: silent,
    keyPrefix: prefix,
    numberId: 'bot',
    pacing,
    makeSocket: (config) => {
      const s = new make(config);
      sockets.push(s);
      return s;
    },
  });
  baileys.push(channel);
  await channel.start();
  await waitFor(() => channel.state === 'open', 5000, 'open');
  return { channel, conn, socket: () => sockets.at(-1) as RecordingSocket };
}

/** Answers the first send with WhatsApp's `rate-overlimit`, as baileys throws it. */
class OverlimitSocket extends RecordingSocket {
  refusedAt: number | undefined;
  override async sendMessage(jid: string, content: { text: string }): Promise<undefined> {
    if (this.refusedAt === undefined) {
      this.refusedAt = Date.now();
      throw Object.assign(new Error('rate-overlimit'), { data: 429 });
    }
    return super.sendMessage(jid, content);
  }
}

describe('the outbound line on WhatsApp (baileys)', () => {
  it('WhatsApp’s rate-overlimit holds every chat, and the refused message is sent after it, once', async () => {
    const { channel, conn, socket } = await baileysChannel(
      { intervalMs: 50, jitterMs: 0, overlimitHoldMs: 600 },
      OverlimitSocket,
    );
    await conn.sAdd(`${prefix}bot:contacts`, ['254712345101', '254712345102']);
    const first = channel.adapter.send('254712345101', { texts: [{ id: 'wa-test-confirm' }] }, 'en');
    const s = socket() as OverlimitSocket;
    await waitFor(() => s.refusedAt, 5000, 'the refusal');
    await channel.adapter.send('254712345102', { texts: [{ id: 'wa-test-cancel' }] }, 'en');
    await first;
    expect(s.sent.map((m) => m.jid).sort()).toEqual([
      '254712345101@s.whatsapp.net',
      '254712345102@s.whatsapp.net',
    ]);
    for (const m of s.sent) expect(m.at - (s.refusedAt as number)).toBeGreaterThanOrEqual(550);
  });

  it('a reply overtakes the notices queued for the same chat, which keep about the chat’s pace', async () => {
    const { channel, conn, socket: live } = await baileysChannel({ intervalMs: 500, jitterMs: 50 });
    const phone = '254712345001';
    await conn.sAdd(`${prefix}bot:contacts`, phone);
    const socket = live();
    const notices = [1, 2, 3, 4].map((i) =>
      channel.adapter.send(
        phone,
        { texts: [{ id: 'wa-test-question', args: { amount: 100 + i } }], notice: true },
        'en',
      ),
    );
    await waitFor(() => socket.sent.length === 1, 5000, 'the first notice');
    await channel.adapter.send(phone, { texts: [{ id: 'wa-test-confirm' }] }, 'en');
    await Promise.all(notices);
    const texts = socket.sent.map((m) => m.text);
    expect(texts).toHaveLength(5);
    expect(texts.findIndex((t) => t.includes('Confirm'))).toBe(1);
    // The notices kept their order.
    expect(texts.filter((t) => t.includes('KES')).map((t) => t.match(/Buy (\d+)/)?.[1])).toEqual([
      '101',
      '102',
      '103',
      '104',
    ]);
    // About the chat's pace: 450-550 ms apart (a busy machine may wake a send up to 80 ms late).
    expect(socket.sent.at(-1)!.at - socket.sent[0]!.at).toBeGreaterThanOrEqual(4 * 450 - 80);
  });
});
