/**
 * Issue #31, "start": a process serves nothing half-wired. From the moment its port opens, a
 * signing link and Telegram webhook posts are sent to a starting app (webhook mode on the fake Bot
 * API, real Redis) as fast as they are answered. Before every route and handler exists they wait or
 * get 503 with Retry-After: never the server's 404, never a 500, and no user hears "unavailable".
 * `/healthz` (liveness) answers all along; `/readyz` says not ready until the start is done.
 */
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { type App, startApp } from '../../src/app/start.js';
import { loadConfig } from '../../src/config/env.js';
import { loadI18n } from '../../src/i18n/index.js';
import { FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';
import { freePort } from '../helpers/redis-server.js';

const TOKEN = '123456789:test-token-start-ready-not-real';
const SECRET = 'start_ready_secret_0123456789_abcdef';
const prefix = uniquePrefix('startready');
const i18n = loadI18n();

afterAll(async () => {
  const redis = await connectTestRedis();
  await flushPrefix(redis, prefix);
  await redis.quit();
});

type Answer = { what: 'sign' | 'hook' | 'readyz'; status: number; retryAfter: string | null; body: string };

describe('a starting process', () => {
  it('holds or refuses requests with 503 until every route and handler exists, never 404 or a wrong answer', async () => {
    const fake = await FakeTelegramBotApi.start({ token: TOKEN });
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const config = loadConfig({
      HTTP_PORT: String(port),
      LOG_LEVEL: 'silent',
      SANDBOX_SETTLE_MS: '100',
      REDIS_URL: testRedisUrl(),
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: fake.url,
      TELEGRAM_WEBHOOK_URL: `${base}/tg/hook`,
      TELEGRAM_WEBHOOK_SECRET: SECRET,
    });
    let app: App | undefined;
    const starting = startApp(config, {
      stdin: new PassThrough(),
      stdout: new PassThrough(),
      redisPrefix: prefix,
    });
    void starting.then((a) => {
      app = a;
    });
    const answers: Answer[] = [];
    const chats: number[] = [];
    const ask = async (what: Answer['what'], url: string, init?: RequestInit) => {
      const res = await fetch(url, init).catch(() => undefined);
      if (!res) return undefined;
      const answer = {
        what,
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        body: await res.text(),
      };
      answers.push(answer);
      return answer;
    };
    let afterReady = 0;
    for (let i = 0; afterReady < 3 && i < 2_000; i++) {
      if (app) afterReady += 1;
      const chat = 7_100_000 + i;
      fake.setChat({ id: chat, type: 'private' });
      const update = {
        update_id: 900_000 + i,
        message: {
          message_id: 1,
          date: Math.floor(Date.now() / 1000),
          chat: { id: chat, type: 'private' },
          from: { id: chat, is_bot: false, first_name: 'Early' },
          text: '/alert',
          entities: [{ type: 'bot_command', offset: 0, length: 6 }],
        },
      };
      const [, hook] = await Promise.all([
        ask('sign', `${base}/sign/${'x'.repeat(32)}`),
        ask('hook', `${base}/tg/hook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': SECRET },
          body: JSON.stringify(update),
        }),
        ask('readyz', `${base}/readyz`),
      ]);
      if (hook?.status === 200) chats.push(chat);
    }
    try {
      expect(app, 'the app started').toBeDefined();
      // The signing link is answered by the signing routes (an HTML page), never the server's fallback.
      const wrong = answers.filter(
        (a) => (a.what === 'sign' && a.status !== 503 && !a.body.includes('<html')) || a.status === 500,
      );
      expect(wrong.map((a) => `${a.what} ${a.status} ${a.body.slice(0, 60)}`)).toEqual([]);
      expect(
        answers
          .filter((a) => a.what === 'hook')
          .map((a) => a.status)
          .filter((s) => s !== 200 && s !== 503),
      ).toEqual([]);
      const early = answers.filter((a) => a.status === 503);
      // The window was hit: the port opened before the start was done.
      expect(early.length).toBeGreaterThan(0);
      for (const a of early.filter((x) => x.what !== 'readyz')) expect(a.retryAfter).toBe('1');
      expect(answers.filter((a) => a.what === 'readyz').at(-1)?.status).toBe(200);
      expect(chats.length).toBeGreaterThan(0);
      // Each update taken was answered by the alerts flow, never "unavailable".
      const unavailable = [
        i18n.t('en', { id: 'alerts-unavailable' }),
        i18n.t('en', { id: 'core-error-unavailable' }),
      ];
      await fake.waitFor(() => chats.every((c) => fake.sentMessages(c).length > 0), 10_000, 'every answer');
      for (const c of chats)
        for (const m of fake.sentMessages(c))
          for (const u of unavailable) expect(m.text ?? '').not.toContain(u);
    } finally {
      await (await starting).stop();
      await fake.close();
    }
  }, 60_000);
});
