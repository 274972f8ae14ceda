/**
 * The whole app in-process (startApp with stream pairs): a scripted buy in the terminal chat
 * against the in-process sandbox over real HTTP.
 */
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { startApp } from '../../src/app/start.js';
import type { Locale } from '../../src/chat/types.js';
import { loadConfig } from '../../src/config/env.js';
import { displayPhone } from '../../src/flows/index.js';
import { loadI18n } from '../../src/i18n/index.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';

const WALLET = '0x52908400098527886e0f7030069857d2e4169ee7';
const prefixes: string[] = [];

afterAll(async () => {
  const redis = await connectTestRedis();
  for (const p of prefixes) await flushPrefix(redis, p);
  await redis.quit();
});

async function journey(lines: string[], locale: Locale, env: Record<string, string> = {}) {
  const config = loadConfig({
    HTTP_PORT: '0',
    LOG_LEVEL: 'silent',
    SANDBOX_SETTLE_MS: '50',
    POLL_INTERVAL_MS: '100',
    ...env,
  });
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let printed = '';
  stdout.on('data', (d) => {
    printed += String(d);
  });
  const redisPrefix = uniquePrefix('journey');
  prefixes.push(redisPrefix);
  const app = await startApp(config, { stdin, stdout, terminal: { TERMINAL_LOCALE: locale }, redisPrefix });
  try {
    stdin.end(`${lines.join('\n')}\n`);
    await app.done;
    const history = await app.ramp.getHistory('onramp', WALLET);
    return { printed, history, sandbox: app.sandbox, store: app.store.kind };
  } finally {
    await app.stop();
  }
}

const buyLines = ['/buy 500 USDT polygon', WALLET, '0712345678', '1'];

describe.each<{ locale: Locale; env: Record<string, string>; store: string }>([
  { locale: 'en', env: {}, store: 'memory' },
  { locale: 'sw', env: { REDIS_URL: testRedisUrl() }, store: 'redis' },
])('a scripted buy in the terminal ($locale, $store state)', ({ locale, env, store }) => {
  it('reaches the STK push message and files exactly one order', async () => {
    const r = await journey(buyLines, locale, env);
    expect(r.store).toBe(store);
    expect(r.printed).toContain(r.sandbox?.url);

    expect(r.history.records).toHaveLength(1);
    const orderId = r.history.records[0]?.orderId ?? '';
    expect(orderId).toMatch(/^D-/);
    expect(r.sandbox?.order(orderId)).toMatchObject({ amountKes: 500 });

    const i18n = loadI18n();
    expect(i18n.hasIn(locale, 'buy-stk-sent')).toBe(true);
    const stk = i18n.t(locale, {
      id: 'buy-stk-sent',
      args: { orderId, phone: displayPhone('254712345678') },
    });
    expect(r.printed).toContain(stk);
    expect(r.printed).toContain(i18n.t(locale, { id: 'terminal-welcome' }));
  });
});
