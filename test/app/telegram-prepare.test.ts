/**
 * A start with Telegram: its own calls (getMe, the command menus, the webhook's removal) are
 * answered while the app wires its capabilities, and no update is taken before every capability is
 * in place.
 */
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { type App, startApp } from '../../src/app/start.js';
import { FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { telegramAppConfig } from '../helpers/app-config.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';
import { waitFor } from '../helpers/wait.js';

const TOKEN = '424242:test-token-prepare-not-real';
const CHAT = 5150;

describe('a start with Telegram', () => {
  const prefix = uniquePrefix('tgprep');
  let fake: FakeTelegramBotApi | undefined;
  let starting: Promise<App> | undefined;
  afterAll(async () => {
    // Also after a failure while getMe was held: the start is let through, then stopped.
    fake?.release('getMe');
    const app = await starting?.catch(() => undefined);
    await app?.stop();
    await fake?.close();
    const redis = await connectTestRedis();
    await flushPrefix(redis, prefix);
    await redis.quit();
  });

  it("wires the capabilities while Telegram's start calls are out, and takes no update before", async () => {
    fake = await FakeTelegramBotApi.start({ token: TOKEN });
    // Telegram is slow to answer; a user already wrote.
    fake.hold('getMe');
    fake.sendText(CHAT, '/start');
    const lines: string[] = [];
    const log = new PassThrough();
    log.on('data', (d: Buffer) => lines.push(...d.toString().split('\n').filter(Boolean)));
    starting = startApp(
      telegramAppConfig({ token: TOKEN, apiRoot: fake.url }, testRedisUrl(), { LOG_LEVEL: 'info' }),
      { stdin: new PassThrough(), stdout: new PassThrough(), redisPrefix: prefix, logDestination: log },
    );
    // The support desk is wired (its log line) with getMe unanswered, and getMe was asked first.
    const support = await waitFor(
      'the support desk wired',
      () => lines.findIndex((l) => l.includes('"component":"support"')) + 1,
      10_000,
    );
    const askedGetMe = lines.findIndex((l) => l.includes('waiting for Telegram getMe')) + 1;
    expect(askedGetMe, lines.join('\n').slice(0, 3000)).toBeGreaterThan(0);
    expect(askedGetMe).toBeLessThan(support);
    expect(fake.callsTo('getUpdates')).toHaveLength(0);
    expect(fake.sentMessages(CHAT).filter((m) => m.from === 'bot')).toHaveLength(0);

    const released = Date.now();
    fake.release('getMe');
    await starting;
    const menu = await fake.waitFor(
      () => fake!.sentMessages(CHAT).find((m) => m.from === 'bot'),
      10_000,
      'the menu',
    );
    expect(menu.text).toMatch(/Buy/);
    // Taken by polling begun once the start calls were answered, not before.
    expect(fake.callsTo('getUpdates')[0]?.at).toBeGreaterThanOrEqual(released);
  }, 30_000);

  it('takes no update when a stop was asked for during the start (a SIGTERM at getMe)', async () => {
    const api = await FakeTelegramBotApi.start({ token: TOKEN });
    const stopAsked = new AbortController();
    let app: App | undefined;
    let start: Promise<App> | undefined;
    try {
      api.hold('getMe');
      api.sendText(CHAT, '/start');
      start = startApp(
        telegramAppConfig({ token: TOKEN, apiRoot: api.url }, testRedisUrl(), { LOG_LEVEL: 'silent' }),
        {
          stdin: new PassThrough(),
          stdout: new PassThrough(),
          redisPrefix: `${prefix}stop:`,
          stopAsked: stopAsked.signal,
        },
      );
      await api.waitFor(() => api.callsTo('getMe').length > 0 || undefined, 10_000, 'getMe asked');
      stopAsked.abort();
      api.release('getMe');
      app = await start;
      await app.stop();
      // Not one poll: the waiting update stays with Telegram for the replica that takes over.
      expect(api.callsTo('getUpdates')).toHaveLength(0);
      expect(api.sentMessages(CHAT).filter((m) => m.from === 'bot')).toHaveLength(0);
    } finally {
      api.release('getMe');
      if (!app) await (await start?.catch(() => undefined))?.stop();
      await api.close();
    }
  }, 30_000);
});
