/**
 * The outbound line on Telegram: real grammY against the fake Bot API enforcing Telegram's flood
 * limits, two channel instances standing for two replicas on one real Redis.
 */
import type { RedisClientType } from 'redis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTelegramChannel,
  type TelegramChannel,
  type TelegramChannelOptions,
} from '../../src/channels/telegram/index.js';
import { ChatGoneError } from '../../src/channels/types.js';
import type { I18n } from '../../src/i18n/index.js';
import { captureLogger, ScriptedConversation, testI18n } from '../channels/telegram/helpers.js';
import { FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';

const TOKEN = '123456789:test-token-pacing-not-a-real-bot';
let fake: FakeTelegramBotApi;
let redis: RedisClientType;
let prefix: string;
let i18n: I18n;
const channels: TelegramChannel[] = [];

function replica(extra: Partial<TelegramChannelOptions> = {}): TelegramChannel {
  const ch = createTelegramChannel({
    token: TOKEN,
    apiRoot: fake.url,
    conversation: new ScriptedConversation(),
    i18n,
    logger: captureLogger().logger,
    botInfo: fake.botInfo,
    redis,
    redisPrefix: prefix,
    pacing: { redis },
    ...extra,
  });
  channels.push(ch);
  return ch;
}

const text = (id: string) => ({ texts: [{ id }] });

beforeEach(async () => {
  fake = await FakeTelegramBotApi.start({ token: TOKEN, floodLimits: true });
  redis = await connectTestRedis();
  prefix = uniquePrefix('pace');
  i18n ??= testI18n();
});

afterEach(async () => {
  for (const ch of channels.splice(0)) await ch.stop();
  await fake.close();
  await flushPrefix(redis, prefix);
  await redis.quit();
});

/** The most sends the fake saw in any one-second window. */
function peakPerSecond(): number {
  const times = fake.calls.filter((c) => c.method === 'sendMessage').map((c) => c.at);
  let peak = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while ((times[i] as number) - (times[j] as number) >= 1000) j++;
    peak = Math.max(peak, i - j + 1);
  }
  return peak;
}

describe('the outbound line on Telegram', () => {
  it('two replicas sending to 40 chats at once stay within the limits: every message arrives, at most a stray 429', async () => {
    const a = replica();
    const b = replica();
    const chats = Array.from({ length: 40 }, (_, i) => 5000 + i);
    const started = Date.now();
    await Promise.all(
      chats.flatMap((chat) => [
        a.adapter.send(String(chat), text('test-yes'), 'en'),
        b.adapter.send(String(chat), text('test-no'), 'en'),
        a.adapter.send(String(chat), text('test-yes'), 'en'),
      ]),
    );
    const seconds = (Date.now() - started) / 1000;
    // On a starved machine (the CI runs other files beside this one) sends leave late and bunch with
    // the ones after them, and the fake, in this process, reads them late too: a stray 429 can
    // happen, and it is sent again in its place. A line that broke the pace would meet dozens (120
    // messages in about a second; at 60 a second, 81).
    expect(fake.floodRefusals).toBeLessThanOrEqual(2);
    for (const chat of chats) expect(fake.sentMessages(chat)).toHaveLength(3);
    expect(peakPerSecond()).toBeLessThanOrEqual(30 + fake.floodRefusals);
    // 120 messages at the bot's 27 a second: about 4.4 s, and not much more.
    expect(seconds).toBeGreaterThan(3.5);
    expect(seconds).toBeLessThan(120 / 27 + 2.5);
  }, 30_000);

  it("keeps one chat's messages in order and about a second apart beyond a short burst", async () => {
    const a = replica();
    const chat = 6001;
    await Promise.all(
      ['1', '2', '3', '4'].map((n) =>
        a.adapter.send(String(chat), { texts: [{ id: 'test-status', args: { id: n, status: 'x' } }] }, 'en'),
      ),
    );
    const calls = fake.callsTo('sendMessage', chat);
    expect(fake.floodRefusals).toBe(0);
    expect(calls).toHaveLength(4);
    // Two at once, then one a second.
    expect((calls[3]?.at ?? 0) - (calls[0]?.at ?? 0)).toBeGreaterThanOrEqual(1900);
  }, 15_000);

  it("a message another replica sent answers its caller with the message's ids; the record keeps no echo", async () => {
    const a = replica();
    const b = replica();
    const chat = 6101;
    // Replica a holds the chat while its messages go about a second apart.
    const first = Promise.all(
      ['1', '2', '3'].map((n) =>
        a.adapter.send(String(chat), { texts: [{ id: 'test-status', args: { id: n, status: 'x' } }] }, 'en'),
      ),
    );
    await new Promise((r) => setTimeout(r, 200));
    const sent = await b.bot.api.sendMessage(chat, 'sent for b by a');
    await first;
    const shown = fake.sentMessages(chat).find((m) => m.text === 'sent for b by a');
    expect(shown).toBeDefined();
    expect(sent.message_id).toBe(shown?.message_id);
    expect(sent.chat.id).toBe(chat);
    // What is kept a day per message: its ids, not the text, keyboard and bot Telegram echoes back.
    const records = await redis.keys(`${prefix}outbox:tg:r:*`);
    expect(records).toHaveLength(4);
    for (const key of records) {
      const raw = (await redis.get(key)) as string;
      expect(raw.length).toBeLessThan(160);
      expect(raw).not.toMatch(/sent for b|is_bot|first_name/);
      expect(JSON.parse(raw)).toMatchObject({
        ok: true,
        value: { ok: true, result: { message_id: expect.any(Number) } },
      });
    }
  }, 15_000);

  it('a direct reply overtakes a backlog of order progress', async () => {
    const a = replica();
    const b = replica();
    const backlog = Array.from({ length: 60 }, (_, i) =>
      b.adapter.send(String(7000 + i), { ...text('test-yes'), replaceKey: 'order:D-1' }, 'en'),
    );
    await new Promise((r) => setTimeout(r, 300));
    const asked = Date.now();
    await a.adapter.send('7999', text('test-no'), 'en');
    const waited = Date.now() - asked;
    await Promise.all(backlog);
    // The backlog alone takes over two seconds; the reply waits for at most the progress horizon.
    expect(waited).toBeLessThan(800);
    const last = fake.callsTo('sendMessage').at(-1);
    expect(Number(last?.payload.chat_id)).not.toBe(7999);
    expect(fake.floodRefusals).toBe(0);
  }, 30_000);

  it('one retry_after holds every replica, and the throttled message is sent after it, once', async () => {
    const a = replica();
    const b = replica();
    fake.failNext('sendMessage', {
      error_code: 429,
      description: 'Too Many Requests: retry after 2',
      retry_after: 2,
    });
    const first = a.adapter.send('8001', text('test-yes'), 'en');
    await fake.waitFor(() => fake.callsTo('sendMessage').length === 1, 5000, 'the throttled send');
    const heldAt = Date.now();
    // The replica that was throttled writes the hold where every replica reads it.
    while (!(await redis.exists(`${prefix}tg:pace:hold`))) await new Promise((r) => setTimeout(r, 5));
    await Promise.all([first, b.adapter.send('8002', text('test-no'), 'en')]);
    const after = fake.callsTo('sendMessage').slice(1);
    expect(after).toHaveLength(2);
    // Neither replica sent anything during the hold.
    for (const c of after) expect(c.at - heldAt).toBeGreaterThanOrEqual(1700);
    expect(fake.sentMessages(8001).map((m) => m.text)).toEqual(['Yes']);
  }, 15_000);

  it('says when the user blocked the bot instead of retrying', async () => {
    const a = replica();
    fake.blockChat(8100);
    await expect(a.adapter.send('8100', text('test-yes'), 'en')).rejects.toBeInstanceOf(ChatGoneError);
    expect(fake.callsTo('sendMessage', 8100)).toHaveLength(1);
  });

  it("lets a support group's posts go at once while its window has room, never over its limit", async () => {
    // Telegram counts a group's messages in any minute (here a 2 s window of 6, as the fake enforces).
    await fake.close();
    fake = await FakeTelegramBotApi.start({
      token: TOKEN,
      floodLimits: { groupPerMinute: 6, groupWindowMs: 2000 },
    });
    const pacing = { redis, groupPerMinute: 5, groupWindowMs: 2000 };
    const a = replica({ apiRoot: fake.url, botInfo: fake.botInfo, pacing });
    const b = replica({ apiRoot: fake.url, botInfo: fake.botInfo, pacing });
    const group = -1001234;
    fake.setChat({ id: group, type: 'supergroup', title: 'Support', is_forum: true });
    const started = Date.now();
    await Promise.all(
      [a, b].flatMap((r) => Array.from({ length: 7 }, () => r.bot.api.sendMessage(group, 'post'))),
    );
    const at = fake.callsTo('sendMessage', group).map((c) => c.at);
    expect(at).toHaveLength(14);
    expect(fake.floodRefusals).toBe(0);
    // The first five at once (not spaced: an idle group's post waits for nothing) ...
    expect((at[4] as number) - started).toBeLessThan(700);
    // ... five booked a window across both replicas (the 6th and 11th a window after the 1st and 6th),
    // and never over the group's limit as Telegram counts arrivals (one is kept for transit jitter).
    expect((at[5] as number) - (at[0] as number)).toBeGreaterThanOrEqual(1900);
    expect((at[10] as number) - (at[0] as number)).toBeGreaterThanOrEqual(3900);
    for (const t of at) expect(at.filter((x) => x >= t && x < t + 2000).length).toBeLessThanOrEqual(6);
  }, 30_000);
});
