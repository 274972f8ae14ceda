import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { startApp } from '../../src/app/start.js';
import { FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { telegramAppConfig } from '../helpers/app-config.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';

const TOKEN = '123456789:test-token-standing-not-real';
const CHAT = 727272;

describe('alerts across an emptied Redis (the app)', () => {
  it('an alert set in chat is listed again after Redis came back empty and the app restarted', async () => {
    const prefix = uniquePrefix('standing-app');
    const fake = await FakeTelegramBotApi.start({ token: TOKEN });
    const config = telegramAppConfig({ token: TOKEN, apiRoot: fake.url }, testRedisUrl());
    const io = { stdin: new PassThrough(), stdout: new PassThrough(), redisPrefix: prefix };
    const redis = await connectTestRedis();
    try {
      const first = await startApp(config, io);
      fake.sendText(CHAT, '/alert USDT polygon below 128');
      await fake.waitFor(() => fake.sentMessages(CHAT).find((m) => /Alert 1 set/.test(m.text ?? '')), 10_000);
      await first.stop();
      await flushPrefix(redis, prefix);

      const second = await startApp(config, io);
      try {
        expect((await second.recovery)?.standing).toMatchObject({ restored: 1, told: 0 });
        const seen = fake.sentMessages(CHAT).length;
        fake.sendText(CHAT, '/alerts');
        const list = await fake.waitFor(
          () =>
            fake
              .sentMessages(CHAT)
              .slice(seen)
              .find((m) => /Your rate alerts/.test(m.text ?? '')),
          10_000,
        );
        expect(list.text).toMatch(/USDT/);
        expect(list.text).toMatch(/128/);
      } finally {
        await second.stop();
      }
    } finally {
      await flushPrefix(redis, prefix);
      await redis.quit();
      await fake.close();
    }
  }, 60_000);
});
