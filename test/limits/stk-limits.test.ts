/**
 * No harassment through the STK push (the whole app, Telegram on the fake Bot API, real Redis, the
 * sandbox): a typed number that the chat has not proven to be the user's is confirmed as "not my
 * number" and rate limited; the user's own number (a shared contact) is not. Limits live in Redis,
 * so two limiters (two processes) share them.
 */
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { startApp } from '../../src/app/start.js';
import { loadConfig } from '../../src/config/env.js';
import { createRedisLimiter } from '../../src/limits/index.js';
import { FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';

const TOKEN = '123456789:test-token-stk-limits-not-real';
const WALLET = '0x52908400098527886e0f7030069857d2e4169ee7';
const prefixes: string[] = [];

afterAll(async () => {
  const redis = await connectTestRedis();
  for (const p of prefixes) await flushPrefix(redis, p);
  await redis.quit();
});

type Markup = { inline_keyboard?: Array<Array<{ text: string; callback_data?: string }>> };

async function withApp(run: (fake: FakeTelegramBotApi, pushes: () => number) => Promise<void>) {
  const prefix = uniquePrefix('stk-limits');
  prefixes.push(prefix);
  const fake = await FakeTelegramBotApi.start({ token: TOKEN });
  const config = loadConfig({
    HTTP_PORT: '0',
    LOG_LEVEL: 'silent',
    TELEGRAM_BOT_TOKEN: TOKEN,
    TELEGRAM_API_ROOT: fake.url,
    REDIS_URL: testRedisUrl(),
    SANDBOX_SETTLE_MS: '60000',
  });
  const app = await startApp(config, {
    stdin: new PassThrough(),
    stdout: new PassThrough(),
    redisPrefix: prefix,
  });
  try {
    await run(fake, () => app.sandbox!.stkPushCount());
  } finally {
    await app.stop();
    await fake.close();
  }
}

/** Walks a one-line buy to its summary and returns the Confirm button. */
async function summary(fake: FakeTelegramBotApi, chat: number, phone: string) {
  const before = fake.sentMessages(chat).length;
  fake.sendText(chat, `/buy 500 USDT polygon ${WALLET} ${phone}`);
  return fake.waitFor(
    () => {
      const m = fake.sentMessages(chat).slice(before).at(-1);
      const b = (m?.reply_markup as Markup | undefined)?.inline_keyboard
        ?.flat()
        .find((x) => x.callback_data?.includes('confirm'));
      return m && b ? { id: m.message_id, data: b.callback_data!, label: b.text, text: m.text } : undefined;
    },
    8000,
    'the summary',
  );
}

describe('STK pushes to a number that is not the user’s own', () => {
  it('are confirmed as "not my number", at most one in flight, and refused with when to retry', async () => {
    await withApp(async (fake, pushes) => {
      const chat = 620001;
      const s = await summary(fake, chat, '0712345001');
      expect(s.label).toContain('not my number');
      expect(s.text).toContain('is not a number this chat has shown to be yours');
      // Seven taps on seven fresh buys, as fast as the chat allows.
      fake.pressButton(chat, s.id, s.data);
      for (let i = 0; i < 6; i++) {
        const next = await summary(fake, chat, '0712345001');
        fake.pressButton(chat, next.id, next.data);
      }
      await fake.waitFor(
        () => fake.sentMessages(chat).filter((m) => m.text.includes('Too many M-Pesa prompts')).length >= 6,
        10_000,
        'six refusals',
      );
      expect(pushes()).toBe(1);
      const refusal = fake.sentMessages(chat).find((m) => m.text.includes('Too many M-Pesa prompts'))!;
      expect(refusal.text).toMatch(/try again in about \d+ min/);
    });
  });

  it('the user’s own number (a shared contact) is not limited this way', async () => {
    await withApp(async (fake, pushes) => {
      const chat = 620002;
      fake.injectUpdate({
        message: {
          message_id: 1,
          date: Math.floor(Date.now() / 1000),
          chat: { id: chat, type: 'private', first_name: 'Own' },
          from: { id: chat, is_bot: false, first_name: 'Own' },
          contact: { phone_number: '+254712345002', first_name: 'Own', user_id: chat },
        },
      });
      await fake.waitFor(() => fake.sentMessages(chat).length > 0, 5000, 'the contact reply');
      for (let i = 0; i < 3; i++) {
        const s = await summary(fake, chat, '0712345002');
        expect(s.label).not.toContain('not my number');
        fake.pressButton(chat, s.id, s.data);
        await fake.waitFor(() => pushes() === i + 1, 8000, `push ${i + 1}`);
      }
      expect(fake.sentMessages(chat).some((m) => m.text.includes('Too many'))).toBe(false);
    });
  });
});

describe('the limiter', () => {
  it('is shared by processes through Redis and counts nothing when it refuses', async () => {
    const prefix = uniquePrefix('limiter');
    prefixes.push(prefix);
    const [a, b] = [await connectTestRedis(), await connectTestRedis()];
    try {
      const one = createRedisLimiter(a, prefix);
      const two = createRedisLimiter(b, prefix);
      const limits = [
        { key: 'x:phone', max: 3, windowMs: 10_000 },
        { key: 'x:user', max: 5, windowMs: 60_000 },
      ];
      const t0 = 1_000_000;
      expect(await one.take(limits, t0)).toEqual({ ok: true });
      expect(await two.take(limits, t0 + 1)).toEqual({ ok: true });
      expect(await one.take(limits, t0 + 2)).toEqual({ ok: true });
      expect(await two.take(limits, t0 + 3)).toEqual({ ok: false, retryAt: t0 + 10_000, key: 'x:phone' });
      // The refusal counted nothing against the user: two more fit once the phone window moves on.
      expect(await one.take(limits, t0 + 10_001)).toEqual({ ok: true });
      expect(await two.take(limits, t0 + 10_002)).toEqual({ ok: true });
      expect(await one.take(limits, t0 + 20_003)).toMatchObject({ ok: false, key: 'x:user' });
    } finally {
      await a.quit();
      await b.quit();
    }
  });
});
