/**
 * Standing buys typed into the terminal chat of the whole app (sandbox ramp over HTTP, real Redis,
 * the real engine and tracker), in English and in Kiswahili: /save … asks the wallet and phone,
 * Confirm creates the plan; when it comes due the reminder offers Pay now; Pay now (tapped twice)
 * sends one STK push with the amounts said; the order ends Done; /history names the standing buy's
 * run. Then Skip, a Pay after the window, pause/resume/change/cancel, and two replicas tapping Pay.
 * Last, local mode (no REDIS_URL): the same journey with the plans in memory.
 */
import { PassThrough } from 'node:stream';
import type { RedisClientType } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import { type App, startApp } from '../../src/app/start.js';
import { loadConfig } from '../../src/config/env.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { decodePlan, encodePlan } from '../../src/savings/plan.js';
import { createPlanStore } from '../../src/savings/store.js';
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
      const id = key.slice(`${prefix}sv:p:`.length);
      const r = decodePlan(id, (await redis.get(key))!);
      if (!('plan' in r)) throw new Error(r.error);
      await redis.set(key, encodePlan({ ...r.plan, due: Date.now() - 1000 }));
      await redis.zAdd(`${prefix}sv:due`, { score: Date.now() - 1000, value: id });
      ids.push(id);
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
    } finally {
      await c.stop();
      await redis.quit();
    }
  }, 90_000);

  it('Kiswahili: /weka … kila ijumaa → Thibitisha → Lipa sasa → Done → /historia', async () => {
    const prefix = uniquePrefix('savej');
    prefixes.push(prefix);
    const redis = await connectTestRedis();
    const c = await chat({ locale: 'sw', prefix });
    try {
      let m = c.mark();
      c.type('/weka 500 USDT polygon kila ijumaa');
      await c.expectAfter(m, /anwani ya pochi/, 'the wallet question');
      m = c.mark();
      c.type(WALLET);
      await c.expectAfter(m, /M-Pesa itakayolipa/, 'the phone question');
      m = c.mark();
      c.type('0712345678');
      const summary = await c.expectAfter(m, /Mara ya kwanza: [\s\S]*Thibitisha/, 'the summary');
      expect(summary).toMatch(/Kila Ijumaa saa 09:00 \(saa za Nairobi\)/);
      m = c.mark();
      c.type(choice(summary, /Thibitisha/));
      await c.expectAfter(m, /Imehifadhiwa\. Ukumbusho wa kwanza:/, 'the plan created');
      m = c.mark();
      await makeDue(redis, prefix);
      const reminder = await c.expectAfter(
        m,
        /Akiba yako ya kila wiki: KSh 500 → takriban [\d.]+ USDT[\s\S]*Ruka mara hii/,
        'the reminder',
      );
      m = c.mark();
      c.type(choice(reminder, /Lipa sasa/));
      await c.expectAfter(m, /Ununuzi wa kudumu, zamu 1: ombi la M-Pesa la KSh [\d,.]+/, 'the amounts');
      await c.expectAfter(m, /🎉/, 'the order done');
      m = c.mark();
      c.type('/historia');
      await c.expectAfter(m, /Ununuzi wa kudumu, zamu 1:/, 'the run in /historia');
      expect(c.app.sandbox!.stkPushCount()).toBe(1);
    } finally {
      await c.stop();
      await redis.quit();
    }
  }, 90_000);

  it('Skip records the run (in /history too); a Pay after the window is "this run has passed" with no push; pause, resume, change, cancel; at most 5 plans', async () => {
    const prefix = uniquePrefix('savej');
    prefixes.push(prefix);
    const redis = await connectTestRedis();
    const c = await chat({ locale: 'en', prefix });
    try {
      let m = c.mark();
      c.type(`/save 300 KES USDT polygon monthly on the 31st ${WALLET} 0712345678`);
      let out = await c.expectAfter(m, /Confirm/, 'the summary');
      expect(out).toMatch(/Every month on day 31 at 09:00/);
      m = c.mark();
      c.type(choice(out, /Confirm/));
      await c.expectAfter(m, /Saved\./, 'created');
      m = c.mark();
      await makeDue(redis, prefix);
      out = await c.expectAfter(m, /Your monthly saving[\s\S]*Skip this time/, 'the reminder');
      const pay = choice(out, /Pay now/);
      m = c.mark();
      c.type(choice(out, /Skip this time/));
      await c.expectAfter(m, /Run 1 skipped/, 'skipped');
      m = c.mark();
      c.type(pay);
      await c.expectAfter(m, /This run was skipped; nothing was sent/, 'no pay after skip');
      m = c.mark();
      c.type('/history');
      out = await c.expectAfter(
        m,
        /Standing buys, runs that bought nothing:[\s\S]*run 1 \(\d{4}-\d{2}\): skipped/,
        'the skipped run in /history',
      );
      expect(out).toMatch(/Standing buy of KES 300\.00 of USDT/);
      // A second plan's run whose window passed: Pay is answered, nothing is sent.
      m = c.mark();
      c.type('/save 200 USDT polygon daily at 7am');
      out = await c.expectAfter(m, /Confirm/, 'the second summary');
      m = c.mark();
      // A typed yes confirms as the button does.
      c.type('yes');
      await c.expectAfter(m, /Saved\./, 'created');
      const plans = () =>
        createPlanStore(
          async () => redis,
          prefix,
          () => {},
        ).ofUser('terminal:local', 5);
      const mine = await plans();
      expect(mine).toHaveLength(2);
      const daily = mine.find((p) => p.c === 'd@7')!.id;
      m = c.mark();
      await makeDue(redis, prefix);
      out = await c.expectAfter(m, /Your daily saving[\s\S]*Skip this time/, 'the daily reminder');
      const key = `${prefix}sv:p:${daily}`;
      const rec = decodePlan(daily, (await redis.get(key))!);
      if (!('plan' in rec)) throw new Error(rec.error);
      await redis.set(
        key,
        encodePlan({ ...rec.plan, run: { ...rec.plan.run!, at: rec.plan.run!.at - 7 * 3600_000 } }),
      );
      m = c.mark();
      c.type(choice(out, /Pay now/));
      await c.expectAfter(m, /This run has passed; nothing was sent/, 'passed');
      expect(c.app.sandbox!.stkPushCount()).toBe(0);
      // The list, then pause, resume, change and cancel.
      m = c.mark();
      c.type('/savings');
      out = await c.expectAfter(m, /Your standing buys:[\s\S]*Cancel 2/, 'the list');
      expect(out).toMatch(/Run 1 \(\d{4}-\d{2}\): skipped/);
      m = c.mark();
      c.type(choice(out, /Pause 1/));
      await c.expectAfter(m, /Paused\./, 'paused');
      m = c.mark();
      c.type('/savings');
      out = await c.expectAfter(m, /Paused\.[\s\S]*Resume 1/, 'the paused plan');
      m = c.mark();
      c.type(choice(out, /Resume 1/));
      await c.expectAfter(m, /Resumed\. Next reminder:/, 'resumed');
      m = c.mark();
      c.type('/savings');
      out = await c.expectAfter(m, /Change 1/, 'the list');
      m = c.mark();
      c.type(choice(out, /Change 1/));
      await c.expectAfter(m, /Type the new amount/, 'the change question');
      m = c.mark();
      c.type('every monday at 8am');
      await c.expectAfter(m, /Changed\. Next reminder:/, 'changed');
      m = c.mark();
      c.type('/savings');
      out = await c.expectAfter(m, /Cancel 2/, 'the list');
      expect(out).toMatch(/Every Monday at 08:00/);
      m = c.mark();
      c.type(choice(out, /Cancel 2/));
      await c.expectAfter(m, /Cancelled\./, 'cancelled');
      expect(await plans()).toHaveLength(1);
      for (let i = 0; i < 5; i++) {
        m = c.mark();
        c.type(`/save ${100 + i} USDT polygon weekly`);
        out = await c.expectAfter(m, /Confirm/, 'a summary');
        m = c.mark();
        c.type(choice(out, /Confirm/));
        out = await c.expectAfter(m, /Saved\.|already have 5/, 'created or refused');
      }
      expect(out).toMatch(/already have 5 standing buys/);
      expect(await plans()).toHaveLength(5);
    } finally {
      await c.stop();
      await redis.quit();
    }
  }, 120_000);

  it('two replicas on one Redis, Pay now typed into both at once: one STK push', async () => {
    const prefix = uniquePrefix('savej');
    prefixes.push(prefix);
    const redis = await connectTestRedis();
    const keys = { apiKey: 'replica-key-12345678', apiSecret: 'replica-secret-0123456789abcdef' };
    const sandbox = await startSandbox({ ...keys, settleMs: 100 });
    const env = {
      RAMP_BASE_URL: sandbox.url,
      RAMP_API_KEY: keys.apiKey,
      RAMP_API_SECRET: keys.apiSecret,
    };
    const a = await chat({ locale: 'en', prefix, env });
    const b = await chat({ locale: 'en', prefix, env });
    try {
      let m = a.mark();
      a.type(`/save 500 KES USDT polygon every friday ${WALLET} 0712345678`);
      const out = await a.expectAfter(m, /Confirm/, 'the summary');
      m = a.mark();
      a.type(choice(out, /Confirm/));
      await a.expectAfter(m, /Saved\./, 'created');
      const ma = a.mark();
      const mb = b.mark();
      await makeDue(redis, prefix);
      // One reminder, printed by whichever replica's sweep took the plan.
      const seen = await waitFor('the reminder', () =>
        /Pay now/.test(a.printed().slice(ma) + b.printed().slice(mb)) ? true : undefined,
      );
      expect(seen).toBe(true);
      await new Promise((r) => setTimeout(r, 500));
      const reminders = (a.printed().slice(ma) + b.printed().slice(mb)).match(/Your weekly saving/g) ?? [];
      expect(reminders).toHaveLength(1);
      const text = a.printed().slice(ma) + b.printed().slice(mb);
      const pay = choice(text, /Pay now/);
      a.type(pay);
      b.type(pay);
      await waitFor('the order done', () => (a.printed() + b.printed()).includes('🎉 Done!'), 30_000);
      await new Promise((r) => setTimeout(r, 500));
      expect(sandbox.stkPushCount()).toBe(1);
    } finally {
      await a.stop();
      await b.stop();
      await sandbox.close();
      await redis.quit();
    }
  }, 90_000);

  it('without Redis (local mode): /save … → Confirm keeps the plan in memory, /savings lists it, a due run reminds once, Pay now sends one STK push', async () => {
    const config = loadConfig({
      HTTP_PORT: '0',
      LOG_LEVEL: 'silent',
      SANDBOX_SETTLE_MS: '100',
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
    const seen = (mark: number, pattern: RegExp, what: string) =>
      waitFor(what, () => (pattern.test(printed.slice(mark)) ? printed.slice(mark) : undefined), 30_000);
    const type = (line: string) => stdin.write(`${line}\n`);
    try {
      let m = printed.length;
      type('/save 500 KES USDT polygon every friday');
      await seen(m, /wallet address/, 'the wallet question');
      m = printed.length;
      type(WALLET);
      await seen(m, /M-Pesa number/, 'the phone question');
      m = printed.length;
      type('0712345678');
      const summary = await seen(m, /First run: .*EAT[\s\S]*Confirm/, 'the summary');
      m = printed.length;
      type(choice(summary, /Confirm/));
      await seen(m, /Saved\. First reminder:/, 'the plan created');
      m = printed.length;
      type('/savings');
      await seen(m, /Your standing buys:\s*1\. KES 500\.00 of USDT on Polygon/, 'the list');

      // Its day comes: the in-memory sweep (1 s ticks) sends the reminder once.
      const { store } = app.savings!;
      const [plan] = await store.ofUser('terminal:local', 5);
      const due = Date.now() - 1000;
      await store.update(plan!.id, (p) => ({ ...p, due }));
      m = printed.length;
      await store.schedule(plan!.id, due);
      const reminder = await seen(m, /Your weekly saving: KES 500[\s\S]*Skip this time/, 'the reminder');
      await new Promise((r) => setTimeout(r, 2_500));
      expect(printed.slice(m).match(/Your weekly saving/g)).toHaveLength(1);
      const pay = choice(reminder, /Pay now/);
      m = printed.length;
      type(pay);
      type(pay);
      await seen(m, /Standing buy, run 1: an M-Pesa prompt for KES [\d,.]+/, 'the amounts');
      await seen(m, /🎉 Done!/, 'the order done');
      await new Promise((r) => setTimeout(r, 500));
      expect(app.sandbox!.stkPushCount()).toBe(1);
      m = printed.length;
      type('/savings');
      await seen(m, /Run 1 \(\d{4}-W\d{2}\): paid, order D-/, 'the paid run in /savings');
    } finally {
      stdin.end();
      await app.stop();
    }
  }, 60_000);
});
