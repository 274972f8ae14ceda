/** startApp in bot mode: with TELEGRAM_BOT_TOKEN the app answers on Telegram (fake Bot API at the wire), not the terminal. */
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { startApp } from '../../src/app/start.js';
import { loadConfig } from '../../src/config/env.js';
import { loadI18n } from '../../src/i18n/index.js';
import { FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';
import { waitFor } from '../helpers/wait.js';

const TOKEN = '123456789:test-token-app-wiring-not-real';
const CHAT = 424242;
const prefix = uniquePrefix('apptg');

afterAll(async () => {
  const redis = await connectTestRedis();
  await flushPrefix(redis, prefix);
  await redis.quit();
});

describe('startApp with TELEGRAM_BOT_TOKEN', () => {
  it('serves the chat on Telegram with Redis state and stops cleanly', async () => {
    const fake = await FakeTelegramBotApi.start({ token: TOKEN });
    const stdout = new PassThrough();
    let printed = '';
    stdout.on('data', (d) => {
      printed += String(d);
    });
    const config = loadConfig({
      HTTP_PORT: '0',
      LOG_LEVEL: 'silent',
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: fake.url,
      REDIS_URL: testRedisUrl(),
    });
    const app = await startApp(config, { stdin: new PassThrough(), stdout, redisPrefix: prefix });
    try {
      expect(app.terminal).toBeUndefined();
      expect(app.telegram).toBeDefined();
      expect(app.store.kind).toBe('redis');
      fake.sendText(CHAT, '/start');
      const reply = await fake.waitFor(() => fake.lastMessage(CHAT), 8000, 'a reply to /start');
      const title = loadI18n().t('en', { id: 'core-menu-title' });
      expect(reply.text).toContain(title);
      expect(printed).toBe('');
      // A reply of messages only is saved as its update finishes, just after it is sent.
      await waitFor('the saved session', async () => (await app.store.load(`telegram:${CHAT}`)).rev > 0);
      // A new user whose Telegram is in Kiswahili is welcomed in Kiswahili from the first word.
      const SW_CHAT = CHAT + 1;
      fake.sendText(SW_CHAT, 'hi', { languageCode: 'sw' });
      const karibu = await fake.waitFor(() => fake.lastMessage(SW_CHAT), 8000, 'a reply to hi');
      const i18n = loadI18n();
      expect(karibu.text).toContain(i18n.t('sw', { id: 'core-menu-title' }));
      expect(karibu.text).toContain('Karibu rampchat');
    } finally {
      await app.stop();
      await fake.close();
    }
  });
});
