/**
 * A standing buy's reminder on Telegram (fake Bot API at the wire, the app's own outbound line):
 * it arrives as a message with inline Pay now / Skip buttons, and two taps on Pay now send one STK
 * push whose order ends Done.
 */

import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { startApp } from '../../src/app/start.js';
import { loadConfig } from '../../src/config/env.js';
import { createPlanStore } from '../../src/savings/store.js';
import { FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';
import { weeklyPlan } from './plan-fixture.js';

const TOKEN = '123456789:test-token-savings-not-real';
const CHAT = 515151;
const prefix = uniquePrefix('savetg');

afterAll(async () => {
  const redis = await connectTestRedis();
  await flushPrefix(redis, prefix);
  await redis.quit();
});

describe('standing buy reminder on Telegram', () => {
  it('comes with inline buttons; Pay now tapped twice sends one STK push, and the order ends Done', async () => {
    const fake = await FakeTelegramBotApi.start({ token: TOKEN });
    const config = loadConfig({
      HTTP_PORT: '0',
      LOG_LEVEL: 'silent',
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: fake.url,
      REDIS_URL: testRedisUrl(),
      SANDBOX_SETTLE_MS: '100',
      POLL_INTERVAL_MS: '100',
    });
    const app = await startApp(config, {
      stdin: new PassThrough(),
      stdout: new PassThrough(),
      redisPrefix: prefix,
    });
    const redis = await connectTestRedis();
    try {
      const store = createPlanStore(
        async () => redis,
        prefix,
        () => {},
      );
      await store.create(weeklyPlan(`telegram:${CHAT}`, Date.now()), 5);
      const reminder = await fake.waitFor(
        () => {
          const m = fake.lastMessage(CHAT);
          return m && /Your weekly saving/.test(m.text) ? m : undefined;
        },
        10_000,
        'the reminder',
      );
      const keyboard = (reminder.reply_markup as { inline_keyboard: Array<Array<{ callback_data: string }>> })
        .inline_keyboard;
      const pay = keyboard.flat().find((b) => b.callback_data.startsWith('save:pay:'))!.callback_data;
      expect(keyboard.flat().some((b) => b.callback_data.startsWith('save:skip:'))).toBe(true);
      fake.pressButton(CHAT, reminder.message_id, pay);
      fake.pressButton(CHAT, reminder.message_id, pay);
      await fake.waitFor(
        () => (/Done!/.test(fake.lastMessage(CHAT)?.text ?? '') ? true : undefined),
        20_000,
        'the order done',
      );
      expect(app.sandbox!.stkPushCount()).toBe(1);
    } finally {
      await app.stop();
      await fake.close();
      await redis.quit();
    }
  }, 40_000);
});
