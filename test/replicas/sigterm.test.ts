/**
 * SIGTERM on a webhook replica (`src/main.ts` as a child process, real grammY, the fake Bot API
 * posting to it over real HTTP): the HTTP listener closes first, so an update posted after the
 * signal is not taken (refused, for Telegram to send to another replica); the update in flight
 * finishes, its reply is sent and its post answered 200; only then does the process stop, with 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { type AppProcess, startAppProcess } from '../helpers/app-process.js';

const TOKEN = '123456789:test-token-sigterm-not-real';
const SECRET = 'sigterm-secret-0123456789-abcdefghijklmnop';
let fake: FakeTelegramBotApi;
let app: AppProcess | undefined;

beforeAll(async () => {
  fake = await FakeTelegramBotApi.start({ token: TOKEN });
});
afterAll(async () => {
  await app?.kill('SIGKILL');
  await fake?.close();
});

const botReplies = (chat: number) => fake.sentMessages(chat).filter((m) => m.from === 'bot');

describe('SIGTERM on a webhook replica', () => {
  it('refuses new posts, finishes the one in flight with its reply and 200, then exits 0', async () => {
    app = await startAppProcess((port) => ({
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: fake.url,
      TELEGRAM_WEBHOOK_URL: `http://127.0.0.1:${port}/telegram/hook`,
      TELEGRAM_WEBHOOK_SECRET: SECRET,
      SHUTDOWN_TIMEOUT_MS: '20000',
    }));
    await fake.waitFor(() => fake.webhook, 10_000, 'the webhook');
    // The reply is held at "Telegram": the update is in flight when the signal comes.
    fake.hold('sendMessage');
    const slow = fake.sendText(1001, '/help');
    await fake.waitFor(() => fake.callsTo('sendMessage', 1001).length > 0, 20_000, 'the slow reply');
    const stopped = app.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    const late = fake.sendText(1002, '/help');
    await fake.waitFor(
      () => fake.webhookDeliveries.find((d) => d.updateId === late),
      10_000,
      'the late post',
    );
    fake.release('sendMessage');

    expect(await stopped, app.output().slice(-3000)).toEqual({ code: 0, signal: null });
    expect(fake.webhookDeliveries.find((d) => d.updateId === slow)?.status).toBe(200);
    expect(botReplies(1001).length).toBeGreaterThan(0);
    expect(fake.webhookDeliveries.find((d) => d.updateId === late)?.status).not.toBe(200);
    expect(botReplies(1002)).toEqual([]);
    expect(fake.callsTo('sendMessage', 1002)).toEqual([]);
  }, 90_000);
});
