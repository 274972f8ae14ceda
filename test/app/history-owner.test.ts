/**
 * /history shows the caller's own orders only, each with its real outcome. Two Telegram users (the
 * fake Bot API) on the whole app (real Redis, the sandbox, the tracker): Alice buys twice, once to a
 * phone the sandbox fails (ending 0001), once to one where the prompt is cancelled (0003) and once to
 * one it pays; Bob, who types Alice's wallet
 * everywhere he can, sees none of her orders.
 */
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { startApp } from '../../src/app/start.js';
import { loadConfig } from '../../src/config/env.js';
import { loadI18n } from '../../src/i18n/index.js';
import { FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';
import { confirmBuy } from '../helpers/telegram-app.js';

const TOKEN = '123456789:test-token-history-owner-not-real';
const ALICE = 610001;
const BOB = 610002;
const WALLET = '0x52908400098527886e0f7030069857d2e4169ee7';
const prefix = uniquePrefix('hist-owner');
const i18n = loadI18n();

afterAll(async () => {
  const redis = await connectTestRedis();
  await flushPrefix(redis, prefix);
  await redis.quit();
});

describe('/history on Telegram with two users', () => {
  it("lists each user's own orders with their real outcome, and nothing of anyone else's", async () => {
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
    const texts = (chat: number) => fake.sentMessages(chat).map((m) => m.text);
    const said = (chat: number, id: string) => {
      const line = i18n.t('en', { id }).split('{')[0]!.trim();
      return texts(chat).some((t) => t.includes(line));
    };
    const buy = (chat: number, phone: string) => confirmBuy(fake, chat, { wallet: WALLET, phone });
    try {
      await buy(ALICE, '0712340001');
      await fake.waitFor(
        // The outcome itself: the summary's third-party note ("… is not a number this chat has shown
        // to be yours … M-Pesa") matched a looser pattern and let /history run before the failure.
        () => texts(ALICE).some((t) => t.includes('did not go through')),
        15_000,
        'the failed payment',
      );
      await buy(ALICE, '0712340003');
      await fake.waitFor(
        () => texts(ALICE).some((t) => t.includes('was cancelled')),
        15_000,
        'the cancelled payment',
      );
      await buy(ALICE, '0712345678');
      await fake.waitFor(() => texts(ALICE).some((t) => t.includes('🎉')), 20_000, 'the release');

      const before = fake.sentMessages(ALICE).length;
      fake.sendText(ALICE, '/history');
      const shown = await fake.waitFor(
        () =>
          fake
            .sentMessages(ALICE)
            .slice(before)
            .find((m) => m.text.includes('✅') || m.text.includes('❌')),
        8000,
        "Alice's history",
      );
      const lines = shown.text.split('\n');
      const completed = lines.find((l) => l.includes('✅'));
      const failed = lines.find((l) => l.includes('❌'));
      const cancelled = lines.find((l) => l.includes('✖️'));
      // The amount as the chat said it ("your KES 500.00 purchase") and the fee, as the summary's
      // "You pay: KES 506.00".
      expect(completed).toMatch(
        /Bought 3\.861004 USDT for KES 500\.00 \+ fee KES 6\.00 = KES 506\.00 on Polygon/,
      );
      expect(completed).toMatch(/M-Pesa \w{6,}/);
      expect(completed).toMatch(/transaction 0x[0-9a-f]{64}/i);
      expect(failed).toMatch(/failed: the M-Pesa payment did not go through/);
      // The prompt cancelled on the phone is listed as the chat told it: cancelled, no money taken.
      expect(cancelled).toMatch(/✖️ cancelled: no money was taken/);
      expect(cancelled).not.toMatch(/failed|did not go through/);
      // Newest first: the completed buy, the cancelled one, then the failed one.
      expect(lines.indexOf(completed!)).toBeLessThan(lines.indexOf(cancelled!));
      expect(lines.indexOf(cancelled!)).toBeLessThan(lines.indexOf(failed!));
      const aliceOrders = [...shown.text.matchAll(/order (D-[\w-]+)/g)].map((m) => m[1]);
      expect(aliceOrders).toHaveLength(3);

      // Bob: no orders of his own; Alice's wallet is public, her orders are not his to see.
      fake.sendText(BOB, '/history');
      await fake.waitFor(() => said(BOB, 'history-own-empty'), 8000, "Bob's empty history");
      fake.sendText(BOB, WALLET);
      await new Promise((r) => setTimeout(r, 500));
      for (const id of aliceOrders) expect(texts(BOB).join('\n')).not.toContain(id!);
      expect(texts(BOB).join('\n')).not.toMatch(/M-Pesa [A-Z0-9]{8,}/);
    } catch (err) {
      if (process.env.DEBUG_HIST)
        console.error(JSON.stringify(texts(ALICE), null, 1), JSON.stringify(texts(BOB)));
      throw err;
    } finally {
      await app.stop();
      await fake.close();
    }
  });
});
