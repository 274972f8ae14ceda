/**
 * Straight replies (src/channels/telegram/send/straight.ts): the reply of a step that only sends
 * messages goes to Telegram at a slot booked with the update's begin, outside the outbox; a reply
 * with one of its chat's replies still waiting in the outbox goes after it, through the outbox, and
 * so do a burst's; a slot no reply took is given back. Real grammY against the fake Bot API (long polling, flood limits
 * on), the real engine and flows, real Redis.
 */
import { describe, expect, it } from 'vitest';
import { createTelegramChannel } from '../../../src/channels/telegram/index.js';
import { loadI18n } from '../../../src/i18n/index.js';
import { createLogger } from '../../../src/log/logger.js';
import { FakeTelegramBotApi } from '../../fakes/telegram-bot-api.js';
import { redisForFile, uniquePrefix } from '../../helpers/redis.js';
import { redisEngine } from './helpers.js';

const TOKEN = '123456789:test-token-straight-reply-not-real';
const logger = createLogger({ level: 'silent' });
const file = redisForFile();
const { prefixes, cleanups } = file;

/**
 * One replica, its line and outbox in Redis as in production, in long polling; or, `shared`, a
 * second replica on the same fake and Redis that only sends.
 */
async function replica(shared?: { fake: FakeTelegramBotApi; prefix: string }, perSecond?: number) {
  const prefix = shared?.prefix ?? uniquePrefix('straight');
  prefixes.push(prefix);
  const fake = shared?.fake ?? (await FakeTelegramBotApi.start({ token: TOKEN, floodLimits: true }));
  const engine = await redisEngine(file.redis, prefix, logger);
  const channel = createTelegramChannel({
    token: TOKEN,
    apiRoot: fake.url,
    conversation: engine,
    i18n: loadI18n(),
    logger,
    redis: file.redis,
    redisPrefix: prefix,
    pacing: { redis: file.redis, ...(perSecond ? { perSecond } : {}) },
    pollTimeoutSeconds: 1,
  });
  engine.registerChannel(channel.adapter);
  if (!shared) await channel.start();
  cleanups.push(async () => {
    await channel.stop();
    await engine.idle();
    if (!shared) await fake.close();
  });
  /** What the outbox kept of the messages it sent (one record each). */
  const records = async () => (await file.redis.keys(`${prefix}outbox:tg:r:*`)).length;
  return { fake, channel, prefix, records };
}

describe('straight replies on Telegram', () => {
  it('the reply to a step of messages only goes without the outbox, at its slot', async () => {
    const { fake, channel, prefix, records } = await replica();
    const chat = 7301;
    fake.sendText(chat, '/help');
    await fake.waitFor(() => fake.lastMessage(chat), 10_000, 'the help reply');
    expect(await records()).toBe(0);
    // It took its chat's slot like any send: the chat's lane is booked.
    expect(await file.redis.exists(`${prefix}tg:pace:chat:${chat}`)).toBe(1);
    // A message sent outside an update (a notice) still goes through the outbox.
    await channel.adapter.send(String(chat), { texts: [{ id: 'notice-1' }] }, 'en');
    expect(fake.lastMessage(chat)?.text).toBe('notice-1');
    for (let i = 0; i < 50 && (await records()) < 1; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await records()).toBe(1);
    expect(fake.floodRefusals).toBe(0);
  }, 30_000);

  it('waits behind a reply of its chat still in the outbox, and goes through it', async () => {
    const { fake, prefix, records } = await replica();
    const chat = 7302;
    const base = `${prefix}outbox:tg:`;
    const queue = `${chat}#reply`;
    // Another replica, alive, holds a reply of this chat it has not sent yet.
    const ghost = {
      cls: 'reply',
      r: 0,
      key: queue,
      body: { k: 'call', m: 'sendMessage', p: { chat_id: String(chat), text: 'ghost reply' } },
    };
    await file.redis.set(`${base}alive:ghost`, '1', { expiration: { type: 'PX', value: 60_000 } });
    await file.redis.set(`${base}h:${queue}`, 'ghost');
    await file.redis.set(`${base}m:g1`, JSON.stringify(ghost));
    await file.redis.rPush(`${base}q:${queue}`, 'g1');
    await file.redis.zAdd(`${base}ready`, { score: Date.now(), value: queue });
    fake.sendText(chat, '/help');
    await new Promise((r) => setTimeout(r, 1500));
    expect(fake.sentMessages(chat)).toHaveLength(0);
    // The other replica dies: its chat is taken up, and the two go in order.
    await file.redis.del(`${base}alive:ghost`);
    await fake.waitFor(() => fake.sentMessages(chat).length >= 2, 10_000, 'both replies');
    expect(fake.sentMessages(chat).map((m) => m.text)[0]).toBe('ghost reply');
    for (let i = 0; i < 50 && (await records()) < 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await records()).toBe(2);
    expect(fake.floodRefusals).toBe(0);
  }, 30_000);

  it('a burst of updates at once: their replies wait their turn in the outbox', async () => {
    // A bot lane so fast that every reply's slot would be due at once: only the updates in hand limit it.
    const { fake, records } = await replica(undefined, 10_000);
    const chats = Array.from({ length: 12 }, (_, i) => 7400 + i);
    for (const chat of chats) fake.sendText(chat, '/help');
    await fake.waitFor(() => chats.every((c) => fake.lastMessage(c)), 15_000, 'every reply');
    // A process with more than a few updates in hand answers Redis late: at most four went straight.
    for (let i = 0; i < 50 && (await records()) < 8; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await records()).toBeGreaterThanOrEqual(8);
  }, 30_000);

  it('gives back the slot of an update that sent nothing', async () => {
    const { fake, prefix, records } = await replica();
    const chat = 7303;
    fake.sendText(chat, '/help');
    const help = await fake.waitFor(() => fake.lastMessage(chat), 10_000, 'the help reply');
    await new Promise((r) => setTimeout(r, 1100));
    await file.redis.del(`${prefix}tg:pace:chat:${chat}`);
    // A tap on a button of no message the bot knows: the spinner stops, nothing is sent.
    fake.pressButton(chat, help.message_id + 100, 'nav:nothing');
    await fake.waitFor(() => fake.callsTo('answerCallbackQuery').length > 0, 10_000, 'the tap answered');
    await new Promise((r) => setTimeout(r, 300));
    expect(fake.sentMessages(chat)).toHaveLength(1);
    expect(await records()).toBe(0);
    expect(await file.redis.exists(`${prefix}tg:pace:chat:${chat}`)).toBe(0);
  }, 30_000);
});
