/**
 * No secret and no whole phone number in any log line: the whole app (startApp) at LOG_LEVEL=trace,
 * Telegram against the fake Bot API, Redis state and the sweep tracker, the in-process sandbox over
 * real HTTP with a custom key and secret. One buy settles, one fails (a number ending 0001).
 */
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { startApp } from '../../src/app/start.js';
import { loadConfig } from '../../src/config/env.js';
import { loadI18n } from '../../src/i18n/index.js';
import { type FakeMessage, FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';

const TOKEN = '555000111:scrub-bot-token-Qx7Lm2Zr9Wv4';
const API_KEY = 'scrub-api-key-Hk3Jd8Pq';
const API_SECRET = 'scrub-api-secret-Tz6Bn1Rc';
const CHECKOUT_SECRET = 'scrub-checkout-secret-Yw5Ga0Ue';
const WEBHOOK_SECRET = 'scrub-webhook-secret-Ms4Vf9Ki_0123456789';
const SECRETS = [TOKEN, TOKEN.split(':')[1]!, API_KEY, API_SECRET, CHECKOUT_SECRET, WEBHOOK_SECRET];
const WALLET = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
/** A whole Kenyan mobile number in any common spelling: 2547…, +2547…, 07…, with spaces or not. */
const WHOLE_PHONE = /(?:\+?254|\b0)\s?7\d{2}\s?\d{3}\s?\d{3}/;

const prefix = uniquePrefix('logscrub');

afterAll(async () => {
  const redis = await connectTestRedis();
  await flushPrefix(redis, prefix);
  await redis.quit();
});

const buttonsOf = (m: FakeMessage): string[] =>
  (m.reply_markup?.inline_keyboard ?? [])
    .flat()
    .map((b: { callback_data?: string }) => b.callback_data ?? '');

describe('logs of a whole run at trace level', () => {
  it('carry no API key, secret, bot token or whole phone number through a settled and a failed buy', async () => {
    const lines: string[] = [];
    const logDestination = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const fake = await FakeTelegramBotApi.start({ token: TOKEN });
    const config = loadConfig({
      HTTP_PORT: '0',
      LOG_LEVEL: 'trace',
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: fake.url,
      TELEGRAM_WEBHOOK_SECRET: WEBHOOK_SECRET,
      REDIS_URL: testRedisUrl(),
      SANDBOX_API_KEY: API_KEY,
      SANDBOX_API_SECRET: API_SECRET,
      SANDBOX_CHECKOUT_SECRET: CHECKOUT_SECRET,
      SANDBOX_SETTLE_MS: '50',
      POLL_INTERVAL_MS: '100',
    });
    const app = await startApp(config, { logDestination, redisPrefix: prefix });
    const i18n = loadI18n();
    const buy = async (chat: number, phone: string, finalId: string): Promise<string> => {
      const seen = () => fake.lastMessage(chat)?.message_id ?? 0;
      fake.sendText(chat, '/buy 500 USDT polygon');
      await fake.waitFor(() => seen() > 0, 8000, 'the wallet question');
      let before = seen();
      fake.sendText(chat, WALLET);
      await fake.waitFor(() => seen() > before, 8000, 'the phone question');
      before = seen();
      fake.sendText(chat, phone);
      const confirm = await fake.waitFor(
        () =>
          fake
            .sentMessages(chat)
            .map((message) => ({
              message,
              data: buttonsOf(message).find((d) => d.startsWith('buy:confirm:')),
            }))
            .find((c) => c.message.message_id > before && c.data),
        8000,
        'the Confirm button',
      );
      fake.pressButton(chat, confirm.message.message_id, confirm.data ?? '');
      const final = i18n.t('en', { id: finalId, args: { amount: '500', orderId: '' } }).slice(0, 12);
      await fake.waitFor(
        () => fake.sentMessages(chat).find((m) => m.text.startsWith(final)),
        15_000,
        `the final message ${finalId}`,
      );
      const orders = await app.ramp.getHistory('onramp', WALLET);
      return orders.records.map((r) => r.orderId ?? '').find((id) => !orderIds.includes(id)) ?? '';
    };
    const orderIds: string[] = [];
    try {
      orderIds.push(await buy(601001, '0712345678', 'tracker-onramp-done'));
      orderIds.push(await buy(601002, '+254 700 000 001', 'tracker-onramp-failed'));
    } finally {
      await app.stop();
      await fake.close();
    }

    // The scan looks at real traffic: both orders were logged from creation to their outcome.
    for (const [orderId, outcome] of [
      [orderIds[0], 'success'],
      [orderIds[1], 'failed'],
    ]) {
      expect(orderId).toMatch(/^D-/);
      expect(
        lines.some((l) => l.includes(`"orderId":"${orderId}"`) && l.includes(`"outcome":"${outcome}"`)),
      ).toBe(true);
    }
    expect(lines.some((l) => l.includes('"path":"/api/onramp-orders"'))).toBe(true);
    const leaks = lines.filter((l) => SECRETS.some((s) => l.includes(s)) || WHOLE_PHONE.test(l));
    expect(leaks).toEqual([]);
  }, 60_000);
});
