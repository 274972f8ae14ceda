/**
 * A Redis restart under the running app (Telegram in webhook mode on the fake Bot API, a redis-server
 * of this test's own): no crash; an update that arrives while Redis is down is answered "try again in
 * a moment" and refused (non-2xx) so Telegram redelivers it; once Redis is back the redelivered
 * update is handled.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { startApp } from '../../src/app/start.js';
import { loadConfig } from '../../src/config/env.js';
import { loadI18n } from '../../src/i18n/index.js';
import { FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { freePort, type OwnRedis, ownRedis } from '../helpers/redis-server.js';

const TOKEN = '123456789:test-token-redis-outage-not-real';
const SECRET = 'outage_secret_0123456789_abcdefghij';
const CHAT = 515151;
const i18n = loadI18n();

const redisDir = mkdtempSync(join(tmpdir(), 'rampchat-outage-'));
let redis: OwnRedis | undefined;
afterAll(async () => redis?.kill());

describe('a Redis restart under the running app', () => {
  it('does not crash it; updates during the outage are refused with "try again" and handled when redelivered', async () => {
    redis = ownRedis({ port: await freePort(), dir: redisDir, aof: false });
    await redis.start();
    const httpPort = await freePort();
    const fake = await FakeTelegramBotApi.start({ token: TOKEN });
    const crashes: unknown[] = [];
    const onCrash = (err: unknown) => crashes.push(err);
    process.on('uncaughtException', onCrash);
    const config = loadConfig({
      HTTP_PORT: String(httpPort),
      LOG_LEVEL: 'silent',
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: fake.url,
      TELEGRAM_WEBHOOK_URL: `http://127.0.0.1:${httpPort}/tg/hook`,
      TELEGRAM_WEBHOOK_SECRET: SECRET,
      REDIS_URL: redis.url,
    });
    const app = await startApp(config, { stdin: new PassThrough(), stdout: new PassThrough() });
    const title = i18n.t('en', { id: 'core-menu-title' });
    const storeDown = i18n.t('en', { id: 'engine-store-down' });
    const texts = () => fake.sentMessages(CHAT).map((m) => m.text);
    try {
      fake.sendText(CHAT, '/start');
      await fake.waitFor(() => texts().find((t) => t.includes(title)), 8000, 'the menu');
      const before = texts().length;

      await redis.kill();
      await new Promise((r) => setTimeout(r, 300));
      const during = fake.sendText(CHAT, '/start');
      await fake.waitFor(() => texts().find((t) => t.includes(storeDown)), 8000, '"try again"');
      const delivery = await fake.waitFor(
        () => fake.webhookDeliveries.find((d) => d.updateId === during),
        8000,
        'the webhook answer',
      );
      expect(delivery.status).toBeGreaterThanOrEqual(500);
      expect(
        texts()
          .slice(before)
          .filter((t) => t.includes(title)),
      ).toEqual([]);

      await redis.start();
      // Telegram redelivers until the webhook takes it; the menu then comes once.
      const end = Date.now() + 15_000;
      for (;;) {
        fake.redeliver(during);
        await new Promise((r) => setTimeout(r, 300));
        const answers = fake.webhookDeliveries.filter((d) => d.updateId === during);
        if (answers.at(-1)?.status === 200) break;
        if (Date.now() > end)
          throw new Error(`never taken after Redis came back: ${JSON.stringify(answers)}`);
      }
      await fake.waitFor(
        () =>
          texts()
            .slice(before)
            .find((t) => t.includes(title)),
        8000,
        'the menu after the outage',
      );
      fake.redeliver(during);
      await new Promise((r) => setTimeout(r, 500));
      expect(
        texts()
          .slice(before)
          .filter((t) => t.includes(title)),
      ).toHaveLength(1);
      expect(texts().filter((t) => t.includes(storeDown))).toHaveLength(1);
      expect(crashes).toEqual([]);
    } finally {
      process.off('uncaughtException', onCrash);
      await app.stop();
      await fake.close();
    }
  });
});
