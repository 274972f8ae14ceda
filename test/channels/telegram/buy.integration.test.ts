/**
 * A whole buy through Telegram: real grammY against the fake Bot API, the real engine and flows
 * with the Redis store, the real ramp client against the in-process sandbox.
 */
import type { RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../src/app/flows.js';
import { createTelegramChannel, type TelegramChannel } from '../../../src/channels/telegram/index.js';
import type { Engine } from '../../../src/engine/index.js';
import { displayPhone } from '../../../src/flows/index.js';
import { type I18n, loadI18n } from '../../../src/i18n/index.js';
import { createLogger } from '../../../src/log/logger.js';
import { createRampClient } from '../../../src/ramp/index.js';
import type { RampClient } from '../../../src/ramp/types.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { createRedisStore, type SessionStore } from '../../../src/store/index.js';
import { type FakeMessage, FakeTelegramBotApi } from '../../fakes/telegram-bot-api.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../../helpers/redis.js';

const TOKEN = '987654321:test-token-integration-not-real';
const CHAT = 777001;
const WALLET = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const PHONE = '254712345678';

let fake: FakeTelegramBotApi;
let sandbox: Sandbox;
let ramp: RampClient;
let redis: RedisClientType;
let store: SessionStore;
let engine: Engine;
let channel: TelegramChannel;
let i18n: I18n;
const prefix = uniquePrefix('tgbuy');

beforeAll(async () => {
  const logger = createLogger({ level: 'silent' });
  fake = await FakeTelegramBotApi.start({ token: TOKEN });
  sandbox = await startSandbox({ port: 0, settleMs: 60_000 });
  ramp = createRampClient({
    baseUrl: sandbox.url,
    apiKey: sandbox.options.apiKey,
    apiSecret: sandbox.options.apiSecret,
    timeoutMs: 5000,
  });
  redis = await connectTestRedis();
  store = await createRedisStore({ url: testRedisUrl(), prefix, flowTtlSeconds: 600 });
  engine = createEngine({ store, ramp, logger, config: { rateTolerancePct: 1, project: 'rampchat-test' } });
  i18n = loadI18n();
  channel = createTelegramChannel({
    token: TOKEN,
    apiRoot: fake.url,
    conversation: engine,
    i18n,
    logger,
    redis,
    redisPrefix: prefix,
    pollTimeoutSeconds: 2,
    // The buy's walk, not Telegram's chat limit (test/outbound and the burst test hold that).
    pacing: { privateIntervalMs: 20, privateBurst: 10 },
  });
  engine.registerChannel(channel.adapter);
  await channel.start();
});

afterAll(async () => {
  await channel?.stop();
  await engine?.idle();
  await store?.close();
  await fake?.close();
  await sandbox?.close();
  if (redis) {
    await flushPrefix(redis, prefix);
    await redis.quit();
  }
});

const buttonsOf = (m: FakeMessage): string[] =>
  (m.reply_markup?.inline_keyboard ?? [])
    .flat()
    .map((b: { callback_data?: string }) => b.callback_data ?? '');

/** Waits for a bot message sent after `after` (a message id) carrying a button whose data matches. */
async function waitForButton(
  match: RegExp,
  after: number,
  chat = CHAT,
): Promise<{ message: FakeMessage; data: string }> {
  return fake.waitFor(
    () => {
      for (const message of fake.sentMessages(chat).reverse()) {
        if (message.message_id <= after) break;
        const data = buttonsOf(message).find((d) => match.test(d));
        if (data) return { message, data };
      }
      return undefined;
    },
    8000,
    `a button ${match}`,
  );
}

/** Sends /menu and waits for the menu it brings, newer than `after`. */
async function probe(after: number): Promise<FakeMessage> {
  fake.sendText(CHAT, '/menu');
  return (await waitForButton(/^menu:buy$/, after)).message;
}

const lastId = () => fake.lastMessage(CHAT)?.message_id ?? 0;

describe('buying through Telegram', () => {
  it('goes from /start to the STK push once, despite a redelivered update and a double tap on Confirm', async () => {
    fake.sendText(CHAT, '/start');
    const menu = await waitForButton(/^menu:buy$/, 0);

    fake.pressButton(CHAT, menu.message.message_id, menu.data);
    const amount = await waitForButton(/^buy:amt:1000$/, menu.message.message_id);

    fake.pressButton(CHAT, amount.message.message_id, amount.data);
    const token = await waitForButton(/^buy:tok:USDT$/, amount.message.message_id);

    fake.pressButton(CHAT, token.message.message_id, token.data);
    const network = await waitForButton(/^buy:net:polygon$/, token.message.message_id);

    let seen = lastId();
    fake.pressButton(CHAT, network.message.message_id, network.data);
    await fake.waitFor(() => lastId() > seen, 8000, 'the wallet question');
    expect(fake.lastMessage(CHAT)?.text).toContain(
      i18n.t('en', { id: 'buy-ask-wallet', args: { network: 'Polygon' } }),
    );

    seen = lastId();
    fake.sendText(CHAT, WALLET);
    await fake.waitFor(() => fake.replyKeyboard(CHAT), 8000, 'the contact button');
    expect(fake.replyKeyboard(CHAT)?.keyboard?.[0]?.[0]?.request_contact).toBe(true);

    seen = lastId();
    fake.shareContact(CHAT, `+${PHONE}`);
    const confirm = await waitForButton(/^buy:confirm:/, seen);
    expect(fake.replyKeyboard(CHAT)).toBeUndefined();
    expect(confirm.message.text).toContain(WALLET);

    // Double tap: two callback queries for the same Confirm button, back to back.
    const firstTap = fake.pressButton(CHAT, confirm.message.message_id, confirm.data);
    fake.pressButton(CHAT, confirm.message.message_id, confirm.data);
    // One chat's updates are handled in order, so the answer to a later /menu means both taps are done.
    let probed = await probe(confirm.message.message_id);

    const orders = async () => (await ramp.getHistory('onramp', WALLET)).records;
    const placed = await orders();
    expect(placed).toHaveLength(1);
    const orderId = placed[0]?.orderId ?? placed[0]?.id ?? '';
    const after = fake.sentMessages(CHAT).filter((m) => m.message_id > confirm.message.message_id);
    expect(after.map((m) => m.text)).toEqual([
      [
        i18n.t('en', { id: 'buy-stk-sent', args: { orderId, phone: displayPhone(PHONE) } }),
        i18n.t('en', { id: 'buy-never-pin' }),
      ].join('\n\n'),
      i18n.t('en', { id: 'buy-already-sent', args: { orderId } }),
      probed.text,
    ]);
    expect(fake.callsTo('answerCallbackQuery').filter((c) => c.response?.ok)).toHaveLength(6);

    // Telegram sends the first Confirm again (as after a timeout): the engine drops it by update id.
    fake.redeliver(firstTap);
    const previous = probed;
    probed = await probe(previous.message_id);
    expect(fake.sentMessages(CHAT).filter((m) => m.message_id > previous.message_id)).toEqual([probed]);
    expect(fake.callsTo('answerCallbackQuery')).toHaveLength(7);
    expect(await orders()).toHaveLength(1);
  });
});

describe('a button on an older message', () => {
  const CHAT2 = 777002;
  const buttonsIn = (chat: number, match: RegExp, after: number) => waitForButton(match, after, chat);

  it('is refused with a "stale" toast and changes nothing; the current question’s buttons work', async () => {
    fake.sendText(CHAT2, '/buy');
    const amount = await buttonsIn(CHAT2, /^buy:amt:500$/, 0);
    fake.sendText(CHAT2, '1000');
    const token = await buttonsIn(CHAT2, /^buy:tok:USDT$/, amount.message.message_id);

    const before = fake.sentMessages(CHAT2).length;
    const staleCalls = fake.callsTo('answerCallbackQuery').length;
    fake.pressButton(CHAT2, amount.message.message_id, 'buy:amt:500');
    await fake.waitFor(() => fake.callsTo('answerCallbackQuery').length > staleCalls, 5000, 'the toast');
    const toast = fake.callsTo('answerCallbackQuery').at(-1)!.payload as { text?: string };
    expect(toast.text).toContain('older message');
    await engine.idle();
    expect(fake.sentMessages(CHAT2)).toHaveLength(before);

    fake.pressButton(CHAT2, token.message.message_id, token.data);
    const network = await buttonsIn(CHAT2, /^buy:net:polygon$/, token.message.message_id);
    expect(network).toBeDefined();
    const session = await store.load(`telegram:${CHAT2}`);
    expect(JSON.stringify(session)).toMatch(/amountKes\\*":1000\b/);
  });
});
