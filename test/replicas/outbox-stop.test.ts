/**
 * The outbox across stops (real processes running `src/main.ts`, real grammY against the fake Bot
 * API, a redis-server of the test's own): a replica SIGTERMed with 50 replies waiting for their turn
 * exits 0 well inside SHUTDOWN_TIMEOUT_MS and leaves them to the next replica, which sends each once;
 * a SIGKILLed one loses none of the replies it had put in the outbox. Only a send in flight at the
 * very instant of the kill (Telegram took it, its answer never recorded) can go a second time:
 * Telegram has no idempotency key to prevent that.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { type AppProcess, startAppProcess } from '../helpers/app-process.js';
import { freePort, type OwnRedis, ownRedis } from '../helpers/redis-server.js';

const TOKEN = '123456789:test-token-outbox-stop-not-real';
const SHUTDOWN_MS = 10_000;
/**
 * The first replica's line: slow enough that 50 replies queue, no slower. The slots it booked in
 * Redis (replies book up to 2 min ahead) stay booked after it stops, so the next replica's first
 * send waits for them: at 2 a second that was ~20 s idle in each test, at 4 about half.
 */
const SLOW_PER_SECOND = 4;
/** The world every replica shares: the fake Bot API, a redis-server of the test's own, a data dir. */
const world = {} as { fake: FakeTelegramBotApi; redis: OwnRedis; dir: string };
const apps: AppProcess[] = [];

beforeAll(async () => {
  world.dir = mkdtempSync(join(tmpdir(), 'outbox-stop-'));
  world.redis = ownRedis({ port: await freePort(), dir: world.dir, aof: false });
  [world.fake] = await Promise.all([FakeTelegramBotApi.start({ token: TOKEN }), world.redis.start()]);
});
afterAll(async () => {
  await Promise.all(apps.map((app) => app.kill('SIGKILL')));
  await Promise.all([world.fake?.close(), world.redis?.kill()]);
});

/** A polling replica; `perSecond` slows the bot's line so replies queue up. */
const replica = async (perSecond: number) => {
  const app = await startAppProcess({
    TELEGRAM_BOT_TOKEN: TOKEN,
    TELEGRAM_API_ROOT: world.fake.url,
    REDIS_URL: world.redis.url,
    DATA_DIR: join(world.dir, 'data'),
    TELEGRAM_SENDS_PER_SECOND: String(perSecond),
    SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_MS),
  });
  apps.push(app);
  return app;
};

const texts = (chat: number) =>
  world.fake
    .sentMessages(chat)
    .filter((m) => m.from === 'bot')
    .map((m) => m.text);
const replied = (chats: number[]) => chats.filter((c) => texts(c).length > 0);

/** 50 users ask at once; resolves once the first replies are out and the rest wait in line. */
async function backlog(base: number, control: string[]): Promise<number[]> {
  const chats = Array.from({ length: 50 }, (_, i) => base + i);
  for (const c of chats) world.fake.sendText(c, '/help');
  await world.fake.waitFor(() => replied(chats).length >= control.length * 3, 30_000, 'the first replies');
  return chats;
}

/** Every chat got the whole reply, once. */
function expectEachOnce(chats: number[], control: string[]) {
  for (const c of chats) expect(texts(c), `chat ${c}: ${JSON.stringify(texts(c))}`).toEqual(control);
}

describe('the outbox across stops', () => {
  let control: string[] = [];

  it('SIGTERM with 50 replies queued: exit 0 within the grace, each sent once by the next replica', async () => {
    const a = await replica(SLOW_PER_SECOND);
    world.fake.sendText(1, '/help');
    await world.fake.waitFor(() => texts(1).length > 0, 30_000, 'the control reply');
    await new Promise((r) => setTimeout(r, 1500));
    control = texts(1);
    const chats = await backlog(10_000, control);
    const t0 = Date.now();
    const exit = await a.kill('SIGTERM');
    const took = Date.now() - t0;
    expect(exit, a.output().slice(-3000)).toEqual({ code: 0, signal: null });
    expect(took).toBeLessThan(SHUTDOWN_MS * 0.6);
    // Deep enough that a stop which waited for the line could not have sent them all.
    expect(replied(chats).length).toBeLessThan(40);
    await replica(27);
    await world.fake.waitFor(() => replied(chats).length === 50, 60_000, 'every reply');
    await new Promise((r) => setTimeout(r, 1500));
    expectEachOnce(chats, control);
  }, 180_000);

  it('SIGKILL loses none of the replies in the outbox: another replica sends them, once', async () => {
    for (const app of apps.splice(0)) await app.kill('SIGTERM');
    const a = await replica(SLOW_PER_SECOND);
    const chats = await backlog(20_000, control);
    // Every update handled (its reply in the outbox) before the kill.
    await new Promise((r) => setTimeout(r, 1500));
    const killedAt = Date.now();
    await a.kill('SIGKILL');
    expect(replied(chats).length).toBeLessThan(40);
    await replica(27);
    await world.fake.waitFor(() => replied(chats).length === 50, 90_000, 'every reply');
    await new Promise((r) => setTimeout(r, 1500));
    const inFlight = (c: number) =>
      world.fake.callsTo('sendMessage', c).some((x) => x.at >= killedAt - 1000 && x.at <= killedAt + 50);
    const twice = chats.filter((c) => texts(c).length > control.length);
    expect(twice.filter((c) => !inFlight(c))).toEqual([]);
    expect(twice.length).toBeLessThanOrEqual(1);
    expectEachOnce(
      chats.filter((c) => !twice.includes(c)),
      control,
    );
  }, 180_000);
});
