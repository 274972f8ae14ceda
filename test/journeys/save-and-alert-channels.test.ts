/**
 * Issue #26 as its users meet it, on the channels the terminal journeys do not cover: over both
 * WhatsApp transports a user types a standing buy, gets its reminder once when its day comes, pays
 * it with one tap (one STK push, Done) and sees the run in /history; on Telegram a user types a rate
 * alert, is told once when the rate crosses it, and Buy now opens the buy. The whole app, fakes at
 * the wire (Graph API, baileys socket, Bot API), the sandbox ramp, real Redis.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp } from '../../src/app/start.js';
import { loadConfig } from '../../src/config/env.js';
import { FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';
import { startWaRig, TRANSPORTS, type WaRig } from './whatsapp-drivers.js';

const WALLET = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';

describe.each(TRANSPORTS)('a standing buy over WhatsApp (%s)', (transport) => {
  let rig: WaRig;
  beforeAll(async () => {
    rig = await startWaRig(transport, { SANDBOX_SETTLE_MS: '100', POLL_INTERVAL_MS: '100' });
  });
  afterAll(async () => {
    await rig?.stop();
  });

  it('is set by typing, reminds once when due, is paid with one tap and shows in /history', async () => {
    const u = rig.user(transport === 'cloud' ? '254712349911' : '254712349912');
    await u.say('/save 500 KES USDT celo every friday');
    await u.until(/wallet/i);
    await u.say(WALLET);
    // The M-Pesa number is the sender's own on WhatsApp: straight to the summary.
    await u.until(/paid from \+254 712 349 91[12]\. First run: .*EAT/);
    await u.choose(/^save:confirm$/);
    await u.until(/Saved\. First reminder:/);

    // Its day comes: the plan is made due and the sweep sends the reminder, once.
    const { store } = rig.app.savings!;
    const [plan] = await store.ofUser(`whatsapp:${u.waId}`, 5);
    expect(plan).toBeDefined();
    const due = Date.now() - 1000;
    await store.update(plan!.id, (p) => ({ ...p, due }));
    await store.schedule(plan!.id, due);
    const reminder = /Your weekly saving: KES 500/;
    await u.until(reminder, 15_000);
    await u.choose(/^save:pay:/);
    await u.until(/Standing buy, run 1: an M-Pesa prompt for KES [\d,.]+/, 15_000);
    await u.until(/Done!/, 20_000);
    expect(u.texts().filter((t) => reminder.test(t))).toHaveLength(1);
    expect(rig.app.sandbox!.stkPushCount()).toBe(1);
    await u.say('/history');
    await u.until(/Standing buy, run 1/);
  }, 90_000);
});

describe('a rate alert on Telegram', () => {
  const TOKEN = '123456789:test-token-alert-telegram-not-real';
  const CHAT = 626262;
  const prefix = uniquePrefix('alerttg');
  afterAll(async () => {
    const redis = await connectTestRedis();
    await flushPrefix(redis, prefix);
    await redis.quit();
  });

  it('is set by typing, told once when the rate crosses, and Buy now opens the buy', async () => {
    // The alerts' settings are read from the environment at wiring, like the other capabilities'.
    const saved = process.env.ALERTS_INTERVAL_MS;
    process.env.ALERTS_INTERVAL_MS = '1000';
    const fake = await FakeTelegramBotApi.start({ token: TOKEN, floodLimits: true });
    const app = await startApp(
      loadConfig({
        HTTP_PORT: '0',
        LOG_LEVEL: 'silent',
        TELEGRAM_BOT_TOKEN: TOKEN,
        TELEGRAM_API_ROOT: fake.url,
        REDIS_URL: testRedisUrl(),
      }),
      { stdin: new PassThrough(), stdout: new PassThrough(), redisPrefix: prefix },
    );
    const texts = () => fake.sentMessages(CHAT).map((m) => m.text);
    const seen = (re: RegExp, what: string, ms = 10_000) =>
      fake.waitFor(() => fake.sentMessages(CHAT).find((m) => re.test(m.text)), ms, what);
    try {
      app.sandbox!.setKesPerUsd(131);
      fake.sendText(CHAT, '/alert USDT polygon below 128');
      await seen(/Alert 1 set/, 'the alert set');
      app.sandbox!.setKesPerUsd(127);
      const fired = /127\.00[\s\S]*128\.00/;
      const notice = await seen(fired, 'the alert told', 10_000);
      await new Promise((r) => setTimeout(r, 2_500));
      expect(texts().filter((t) => fired.test(t))).toHaveLength(1);
      const keyboard = (notice.reply_markup as { inline_keyboard: Array<Array<{ callback_data?: string }>> })
        .inline_keyboard;
      const buy = keyboard.flat().find((b) => b.callback_data?.startsWith('menu:buy:'))?.callback_data;
      expect(buy).toBe('menu:buy:USDT polygon');
      fake.pressButton(CHAT, notice.message_id, buy!);
      await seen(/How many (Kenyan )?shillings|How much/i, 'the buy asking the amount');
      expect(fake.floodRefusals).toBe(0);
    } finally {
      app.sandbox!.setKesPerUsd(129.5);
      await app.stop();
      await fake.close();
      if (saved === undefined) delete process.env.ALERTS_INTERVAL_MS;
      else process.env.ALERTS_INTERVAL_MS = saved;
    }
  }, 60_000);
});

describe('a standing buy on Telegram', () => {
  const TOKEN = '123456789:test-token-save-telegram-not-real';
  const CHAT = 636363;
  const prefix = uniquePrefix('savetg2');
  afterAll(async () => {
    const redis = await connectTestRedis();
    await flushPrefix(redis, prefix);
    await redis.quit();
  });

  it('is typed, and Pay now on the reminder works after the menu came in between', async () => {
    const fake = await FakeTelegramBotApi.start({ token: TOKEN, floodLimits: true });
    const app = await startApp(
      loadConfig({
        HTTP_PORT: '0',
        LOG_LEVEL: 'silent',
        TELEGRAM_BOT_TOKEN: TOKEN,
        TELEGRAM_API_ROOT: fake.url,
        REDIS_URL: testRedisUrl(),
        SANDBOX_SETTLE_MS: '100',
        POLL_INTERVAL_MS: '100',
      }),
      { stdin: new PassThrough(), stdout: new PassThrough(), redisPrefix: prefix },
    );
    let mark = 0;
    const seen = async (re: RegExp, what: string, ms = 10_000) => {
      const m = await fake.waitFor(
        () =>
          fake
            .sentMessages(CHAT)
            .slice(mark)
            .find((x) => re.test(x.text)),
        ms,
        what,
      );
      return m;
    };
    const say = (text: string) => {
      mark = fake.sentMessages(CHAT).length;
      fake.sendText(CHAT, text);
    };
    const tap = (m: { message_id: number; reply_markup?: unknown }, id: RegExp) => {
      const data = (
        m.reply_markup as { inline_keyboard: Array<Array<{ callback_data?: string }>> }
      ).inline_keyboard
        .flat()
        .find((b) => b.callback_data && id.test(b.callback_data))!.callback_data!;
      mark = fake.sentMessages(CHAT).length;
      fake.pressButton(CHAT, m.message_id, data);
    };
    try {
      say('/save 500 KES USDT polygon every friday');
      await seen(/wallet address/, 'the wallet question');
      say(WALLET);
      await seen(/M-Pesa number/, 'the phone question');
      say('0712345678');
      const summary = await seen(/First run: .*EAT/, 'the summary');
      tap(summary, /^save:confirm$/);
      await seen(/Saved\. First reminder:/, 'the plan saved');

      const { store } = app.savings!;
      const [plan] = await store.ofUser(`telegram:${CHAT}`, 5);
      const due = Date.now() - 1000;
      await store.update(plan!.id, (p) => ({ ...p, due }));
      await store.schedule(plan!.id, due);
      const reminder = await seen(/Your weekly saving: KES 500/, 'the reminder', 15_000);
      tap(reminder, /^save:pay:/);
      await seen(/Done!/, 'the order done', 20_000);
      expect(app.sandbox!.stkPushCount()).toBe(1);
      expect(fake.sentMessages(CHAT).filter((m) => /Your weekly saving/.test(m.text))).toHaveLength(1);
      say('/history');
      await seen(/Standing buy, run 1/, 'the run in /history');
    } finally {
      await app.stop();
      await fake.close();
    }
  }, 60_000);
});
