/**
 * The whole app in-process, typed into the terminal chat with Redis: set an alert, the sandbox's rate
 * moves, the alert arrives once, "Buy now" opens the buy at the token and network, and the buy
 * reaches its summary. In English and Kiswahili. Then local mode (no REDIS_URL): the alert lives in
 * memory, is listed, and fires once with Buy now.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp } from '../../src/app/start.js';
import type { Locale } from '../../src/chat/types.js';
import { loadConfig } from '../../src/config/env.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';

const WALLET = '0x52908400098527886e0f7030069857d2e4169ee7';
const prefixes: string[] = [];
const saved = process.env.ALERTS_INTERVAL_MS;

beforeAll(() => {
  process.env.ALERTS_INTERVAL_MS = '1000';
});
afterAll(async () => {
  if (saved === undefined) delete process.env.ALERTS_INTERVAL_MS;
  else process.env.ALERTS_INTERVAL_MS = saved;
  const redis = await connectTestRedis();
  for (const p of prefixes) await flushPrefix(redis, p);
  await redis.quit();
});

async function until(read: () => string, what: RegExp | string, from: number, ms = 8_000): Promise<number> {
  const end = Date.now() + ms;
  for (;;) {
    const out = read().slice(from);
    const at = typeof what === 'string' ? out.indexOf(what) : out.search(what);
    if (at >= 0) return from + at;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; printed since:\n${out}`);
    await new Promise((res) => setTimeout(res, 25));
  }
}

const WORDS = {
  en: {
    set: '/alert USDT celo below 128',
    setOk: 'Alert 1 set',
    fired: 'at or below your alert',
    buyNow: 'Buy now',
    summary: 'You pay',
  },
  sw: {
    set: '/alert USDT celo chini ya 128',
    setOk: 'Arifa 1 imewekwa',
    fired: 'sawa au chini ya arifa yako',
    buyNow: 'Nunua sasa',
    summary: 'Utalipa',
  },
} as const;

describe.each<Locale>(['en', 'sw'])('a rate alert in the terminal (%s)', (locale) => {
  it('is set, fires once when the rate crosses, and Buy now reaches the buy summary', async () => {
    const w = WORDS[locale];
    const config = loadConfig({
      HTTP_PORT: '0',
      LOG_LEVEL: 'silent',
      SANDBOX_SETTLE_MS: '50',
      POLL_INTERVAL_MS: '100',
      REDIS_URL: testRedisUrl(),
    });
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let printed = '';
    stdout.on('data', (d) => {
      printed += String(d);
    });
    const redisPrefix = uniquePrefix('aljourney');
    prefixes.push(redisPrefix);
    const app = await startApp(config, { stdin, stdout, terminal: { TERMINAL_LOCALE: locale }, redisPrefix });
    const read = () => printed;
    try {
      app.sandbox!.setKesPerUsd(130);
      stdin.write(`${w.set}\n`);
      let at = await until(read, w.setOk, 0);
      app.sandbox!.setKesPerUsd(127.5);
      at = await until(read, w.fired, at);
      // The notice's choices are lettered: find the letter of Buy now.
      const notice = printed.slice(at);
      const letter = new RegExp(`\\[([A-Z])\\]\\s*\\S*\\s*${w.buyNow}`).exec(notice)?.[1];
      expect(letter, notice).toBeDefined();
      // Two more ticks: the alert does not fire again.
      await new Promise((res) => setTimeout(res, 2_300));
      expect(printed.split(w.fired)).toHaveLength(2);
      stdin.write(`${letter}\n`);
      await until(read, /KES|KSh|shilingi|shillings/, at + notice.length);
      stdin.write('1000\n');
      stdin.write(`${WALLET}\n`);
      stdin.write('0712345678\n');
      await until(read, w.summary, at);
      // The buy summary was reached at the alert's token and network.
      expect(printed.slice(at)).toMatch(/USDT/);
      expect(printed.slice(at)).toMatch(/Celo/);
    } finally {
      stdin.end();
      await app.stop();
    }
  }, 30_000);
});

describe('a rate alert in local mode (no Redis)', () => {
  it('/alert sets it in memory, /alerts lists it, and it fires once with Buy now when the rate crosses', async () => {
    const config = loadConfig({
      HTTP_PORT: '0',
      LOG_LEVEL: 'silent',
      SANDBOX_SETTLE_MS: '50',
      POLL_INTERVAL_MS: '100',
    });
    expect(config.REDIS_URL).toBeUndefined();
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let printed = '';
    stdout.on('data', (d) => {
      printed += String(d);
    });
    const app = await startApp(config, { stdin, stdout, terminal: { TERMINAL_LOCALE: 'en' } });
    const read = () => printed;
    try {
      app.sandbox!.setKesPerUsd(130);
      stdin.write('/alert USDT polygon below 128\n');
      let at = await until(read, 'Alert 1 set', 0);
      expect(printed.slice(at)).not.toMatch(/not available/);
      stdin.write('/alerts\n');
      at = await until(read, 'Your rate alerts (1 of 10)', at);
      at = await until(read, 'USDT on Polygon at or below KES 128.00', at);
      app.sandbox!.setKesPerUsd(127.5);
      at = await until(read, 'at or below your alert', at);
      const notice = printed.slice(at);
      expect(notice).toMatch(/\[[A-Z]\]\s*\S*\s*Buy now/);
      // Two more ticks: the alert does not fire again.
      await new Promise((res) => setTimeout(res, 2_300));
      expect(printed.split('at or below your alert')).toHaveLength(2);
    } finally {
      stdin.end();
      await app.stop();
    }
  }, 30_000);
});
