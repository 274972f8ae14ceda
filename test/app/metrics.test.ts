/**
 * The metrics the alert rules are built on count what happens, read from a running app's /metrics:
 * Telegram's 429s by method, ramp calls by method and outcome, HTTP answers by route and status,
 * Redis reachability (1 while it answers, 0 once it does not, 1 again once it is back).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, startApp } from '../../src/app/start.js';
import { loadConfig } from '../../src/config/env.js';
import { FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { freePort, type OwnRedis, ownRedis } from '../helpers/redis-server.js';

const TOKEN = `123456789:${'R'.repeat(35)}`;
let fake: FakeTelegramBotApi;
let redis: OwnRedis;
let app: App;
let url: string;

beforeAll(async () => {
  redis = ownRedis({ port: await freePort(), dir: mkdtempSync(join(tmpdir(), 'metrics-')), aof: false });
  await redis.start();
  fake = await FakeTelegramBotApi.start({ token: TOKEN });
  app = await startApp(
    loadConfig({
      HTTP_PORT: '0',
      LOG_LEVEL: 'silent',
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: fake.url,
      REDIS_URL: redis.url,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'metrics-data-')),
    }),
    { stdin: new PassThrough(), stdout: new PassThrough() },
  );
  const address = app.http.server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await fake?.close();
  await redis?.kill();
});

/** The value of one series on /metrics (0 when absent). */
async function value(series: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('metrics for the alert rules', () => {
  it("counts Telegram's 429s by method, the reply still going out", async () => {
    fake.failNext('sendMessage', {
      error_code: 429,
      description: 'Too Many Requests: retry after 1',
      retry_after: 1,
    });
    fake.sendText(4242, '/help');
    await fake.waitFor(() => fake.sentMessages(4242).find((m) => m.from === 'bot'), 15_000, 'the reply');
    expect(await value('rampchat_telegram_throttled_total{method="sendMessage"}')).toBe(1);
  });

  it('counts ramp calls by method and outcome', async () => {
    const before = await value('rampchat_ramp_calls_total{method="getQuote",outcome="ok"}');
    await app.ramp.getQuote({
      type: 'onramp',
      network: 'polygon',
      token: 'USDT',
      fiatCurrency: 'KES',
      amount: '1000',
    });
    await expect(
      app.ramp.getQuote({
        type: 'onramp',
        network: 'polygon',
        token: 'USDT',
        fiatCurrency: 'KES',
        amount: '99999999',
      }),
    ).rejects.toThrow();
    expect(await value('rampchat_ramp_calls_total{method="getQuote",outcome="ok"}')).toBe(before + 1);
    expect(await value('rampchat_ramp_calls_total{method="getQuote",outcome="validation"}')).toBe(1);
  });

  it('counts HTTP answers by route and status', async () => {
    await fetch(`${url}/healthz`);
    await fetch(`${url}/no-such-page`);
    expect(await value('rampchat_http_requests_total{route="/healthz",status="200"}')).toBeGreaterThanOrEqual(
      1,
    );
    expect(await value('rampchat_http_requests_total{route="unmatched",status="404"}')).toBe(1);
  });

  it('reports Redis up while it answers and down once it is gone', async () => {
    expect(await value('rampchat_redis_up')).toBe(1);
    await redis.kill();
    expect(await value('rampchat_redis_up')).toBe(0);
    await redis.start();
    const until = Date.now() + 15_000;
    while ((await value('rampchat_redis_up')) !== 1 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 200));
    expect(await value('rampchat_redis_up')).toBe(1);
  }, 30_000);
});
