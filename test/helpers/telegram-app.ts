/**
 * The whole app on the fake Bot API with real Redis, the in-process sandbox settling payments in
 * 100 ms and the tracker polling every 100 ms, as journeys through the Telegram chat need it; and a
 * buy typed the way a user does it, up to the tap on Confirm.
 */
import { PassThrough } from 'node:stream';
import type { RedisClientType } from 'redis';
import { type App, startApp } from '../../src/app/start.js';
import { type FakeMessage, FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { telegramAppConfig } from './app-config.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from './redis.js';

export interface TelegramApp {
  fake: FakeTelegramBotApi;
  app: App;
  redis: RedisClientType;
  /** The app's Redis key prefix. */
  prefix: string;
  stop(): Promise<void>;
}

export async function startTelegramApp(token: string, name: string): Promise<TelegramApp> {
  const prefix = uniquePrefix(name);
  const redis = await connectTestRedis();
  const fake = await FakeTelegramBotApi.start({ token });
  const app = await startApp(
    telegramAppConfig({ token, apiRoot: fake.url }, testRedisUrl(), {
      SANDBOX_SETTLE_MS: '100',
      POLL_INTERVAL_MS: '100',
    }),
    { stdin: new PassThrough(), stdout: new PassThrough(), redisPrefix: prefix },
  );
  return {
    fake,
    app,
    redis,
    prefix,
    async stop() {
      await app.stop();
      await fake.close();
      await flushPrefix(redis, prefix);
      await redis.quit();
    },
  };
}

type Markup = { inline_keyboard?: Array<Array<{ text: string; callback_data?: string; url?: string }>> };
export const buttonsOf = (m: FakeMessage | undefined) =>
  (m?.reply_markup as Markup | undefined)?.inline_keyboard?.flat() ?? [];

/** `/buy 500 USDT polygon`, the wallet, the phone, then Confirm; `languageCode` as the user's Telegram. */
export async function confirmBuy(
  fake: FakeTelegramBotApi,
  chat: number,
  o: { wallet: string; phone: string; languageCode?: string },
): Promise<void> {
  const opts = o.languageCode ? { languageCode: o.languageCode } : {};
  const count = fake.sentMessages(chat).length;
  fake.sendText(chat, '/buy 500 USDT polygon', opts);
  await fake.waitFor(() => fake.sentMessages(chat).length > count, 8000, 'the wallet question');
  fake.sendText(chat, o.wallet, opts);
  await new Promise((r) => setTimeout(r, 300));
  fake.sendText(chat, o.phone, opts);
  const confirm = await fake.waitFor(
    () => {
      const m = fake.lastMessage(chat);
      const b = buttonsOf(m).find((x) => x.callback_data?.includes('confirm'));
      return m && b ? { id: m.message_id, data: b.callback_data! } : undefined;
    },
    8000,
    'the confirm button',
  );
  fake.pressButton(chat, confirm.id, confirm.data, opts);
}
