/**
 * Issue #31, long polling: an update nothing was done with is never acknowledged unanswered. The app
 * runs in long polling on the fake Bot API with a redis-server of this test's own. An update that
 * comes while Redis is down and is older than the "try again" notice's first-delivery window (one
 * fetched again after a kill) gets no notice; it stays unacknowledged and is handled once Redis is
 * back: the user gets their answer, once.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { startApp } from '../../../src/app/start.js';
import { loadConfig } from '../../../src/config/env.js';
import { loadI18n } from '../../../src/i18n/index.js';
import { FakeTelegramBotApi } from '../../fakes/telegram-bot-api.js';
import { freePort, type OwnRedis, ownRedis } from '../../helpers/redis-server.js';

const TOKEN = '123456789:test-token-polling-outage-not-real';
const CHAT = 626262;
const i18n = loadI18n();
let redis: OwnRedis | undefined;
afterAll(async () => redis?.kill());

describe('long polling across a Redis outage', () => {
  it('an old update met by the outage is kept unacknowledged and answered once Redis is back', async () => {
    redis = ownRedis({
      port: await freePort(),
      dir: mkdtempSync(join(tmpdir(), 'rampchat-poll-')),
      aof: true,
    });
    await redis.start();
    const fake = await FakeTelegramBotApi.start({ token: TOKEN });
    const config = loadConfig({
      HTTP_PORT: '0',
      LOG_LEVEL: 'silent',
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: fake.url,
      REDIS_URL: redis.url,
    });
    const app = await startApp(config, { stdin: new PassThrough(), stdout: new PassThrough() });
    const title = i18n.t('en', { id: 'core-menu-title' });
    const texts = () => fake.sentMessages(CHAT).map((m) => m.text ?? '');
    try {
      fake.sendText(CHAT, '/start');
      await fake.waitFor(() => texts().some((t) => t.includes(title)), 8000, 'the first menu');
      const before = texts().length;

      await redis.kill();
      await new Promise((r) => setTimeout(r, 300));
      // Fetched again after a kill: its message is 30 s old, past the notice's first-delivery window.
      const from = { id: CHAT, is_bot: false, first_name: 'Polly', language_code: 'en' };
      const id = fake.injectUpdate({
        message: {
          message_id: 9_001,
          date: Math.floor(Date.now() / 1000) - 30,
          chat: { id: CHAT, type: 'private', first_name: 'Polly' },
          from,
          text: '/start',
          entities: [{ type: 'bot_command', offset: 0, length: 6 }],
        },
      });
      await new Promise((r) => setTimeout(r, 2_500));
      // Not acknowledged while nothing of it was done.
      const offsets = fake.callsTo('getUpdates').map((c) => Number(c.payload.offset ?? 0));
      expect(Math.max(...offsets)).toBeLessThanOrEqual(id);

      await redis.start();
      await fake.waitFor(
        () =>
          texts()
            .slice(before)
            .some((t) => t.includes(title)),
        20_000,
        'the answer once Redis is back',
      );
      await new Promise((r) => setTimeout(r, 1_000));
      expect(
        texts()
          .slice(before)
          .filter((t) => t.includes(title)),
      ).toHaveLength(1);
    } finally {
      await app.stop();
      await fake.close();
    }
  }, 60_000);
});
