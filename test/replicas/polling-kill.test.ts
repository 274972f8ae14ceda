/**
 * Long polling acknowledges an update only once it was handled: a replica SIGKILLed while handling
 * one (here, inside a straight reply's send, which skips the outbox) leaves it unacknowledged at
 * Telegram, and the next replica on the same Redis fetches it and handles it. Real processes (`src/main.ts`), real grammY against the fake Bot API, a redis-server
 * of the test's own.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { type AppProcess, startAppProcess } from '../helpers/app-process.js';
import { freePort, type OwnRedis, ownRedis } from '../helpers/redis-server.js';

const TOKEN = '123456789:test-token-polling-kill-not-real';
const CHAT = 4242;
let fake: FakeTelegramBotApi;
let redis: OwnRedis;
let dir: string;
const apps: AppProcess[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'polling-kill-'));
  redis = ownRedis({ port: await freePort(), dir, aof: false });
  await redis.start();
  fake = await FakeTelegramBotApi.start({ token: TOKEN });
});
afterAll(async () => {
  for (const app of apps) await app.kill('SIGKILL');
  await fake?.close();
  await redis?.kill();
});

const replica = async () => {
  const app = await startAppProcess({
    TELEGRAM_BOT_TOKEN: TOKEN,
    TELEGRAM_API_ROOT: fake.url,
    REDIS_URL: redis.url,
    DATA_DIR: join(dir, 'data'),
  });
  apps.push(app);
  return app;
};

describe('long polling across a kill', () => {
  it('an update a killed replica was handling is handled by the next one', async () => {
    const first = await replica();
    // The reply is held at "Telegram": the first replica is caught mid-update.
    fake.hold('sendMessage');
    const id = fake.sendText(CHAT, '/help');
    await fake.waitFor(() => fake.callsTo('sendMessage', CHAT).length > 0, 20_000, 'the reply attempt');
    // Give a prefetching poller every chance to acknowledge the update before the kill.
    await new Promise((r) => setTimeout(r, 500));
    // The reply in flight is a straight one (a message-only step): nothing of it is in the outbox,
    // so only the update's redelivery can answer the user after the kill.
    const client = createClient({ url: redis.url });
    await client.connect();
    expect(await client.keys('rampchat:outbox:tg:m:*')).toEqual([]);
    expect(await client.exists(`rampchat:chat-lock:telegram:${CHAT}`)).toBe(1);
    await client.quit();
    await first.kill('SIGKILL');
    fake.release('sendMessage');

    const second = await replica();
    const reply = await fake
      .waitFor(() => fake.sentMessages(CHAT).find((m) => m.from === 'bot'), 20_000, 'the reply')
      .catch((e: Error) => {
        throw new Error(`${e.message}\n--- second replica:\n${second.output().slice(-3000)}`);
      });
    expect(reply.text.length).toBeGreaterThan(0);
    const fetched = fake
      .callsTo('getUpdates')
      .filter((c) => (c.response?.result ?? []).some((u: { update_id: number }) => u.update_id === id));
    expect(fetched.length).toBeGreaterThanOrEqual(2);
    expect(await second.kill('SIGTERM')).toEqual({ code: 0, signal: null });
  }, 90_000);
});
