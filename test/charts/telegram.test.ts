/**
 * Price charts on Telegram, the whole app on the fake Bot API with real Redis and the sandbox: with
 * a day of rates kept, `/price USDT polygon` sends one picture (sendPhoto, an 800×450 PNG whose buy
 * and sell lines sit where the rates put them) with today's rates and their change as its caption,
 * in English or Kiswahili, and the 7-day button puts that range in the picture's place
 * (editMessageMedia; a new picture when the old one is gone); a pair with nothing
 * kept says so, and starts being recorded.
 */
import { PassThrough } from 'node:stream';
import type { RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, startApp } from '../../src/app/start.js';
import { RedisRateHistory } from '../../src/charts/history-redis.js';
import { COLOURS, HEIGHT, layout, WIDTH } from '../../src/charts/svg.js';
import { type FakeMessage, FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { telegramAppConfig } from '../helpers/app-config.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';
import { decodePng } from './pixels.js';

const TOKEN = '123456789:test-token-charts-telegram-not-real';
const MIN = 60_000;
const usdt = { token: 'USDT', network: 'polygon' };
const prefix = uniquePrefix('chartstg');

let fake: FakeTelegramBotApi;
let app: App;
let redis: RedisClientType;
let history: RedisRateHistory;

beforeAll(async () => {
  redis = await connectTestRedis();
  history = new RedisRateHistory(redis, prefix);
  // A day of minutes: the buy rate climbs from 130 to 131, the sell rate stays at 127.
  const now = Date.now();
  for (let m = 1439; m >= 0; m--) {
    await history.record(usdt, 'buy', 131 - m / 1440, now - m * MIN);
    await history.record(usdt, 'sell', 127, now - m * MIN);
  }
  fake = await FakeTelegramBotApi.start({ token: TOKEN });
  app = await startApp(telegramAppConfig({ token: TOKEN, apiRoot: fake.url }, testRedisUrl()), {
    stdin: new PassThrough(),
    stdout: new PassThrough(),
    redisPrefix: prefix,
  });
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await fake?.close();
  await flushPrefix(redis, prefix);
  await redis.quit();
});

const photos = (chat: number) => fake.sentMessages(chat).filter((m) => m.photo);
const nthPhoto = (chat: number, n: number) =>
  fake.waitFor(() => photos(chat)[n - 1], 10_000, `picture ${n} in chat ${chat}`);

const HOUR = 3600_000;
/** Every time gridline falls on a 6-hour mark of Nairobi time (UTC+3); this is how far `at` is from the nearest. */
const fromTimeGridline = (at: number) => {
  const into = (((at + 3 * HOUR) % (6 * HOUR)) + 6 * HOUR) % (6 * HOUR);
  return Math.min(into, 6 * HOUR - into);
};

/**
 * The buy and sell lines are where the history kept in Redis puts them, a few hours back: at a
 * time at least 90 minutes from any time gridline, so "background only" never lands on one.
 */
async function linesWhereRatesAre(msg: FakeMessage, range: '24h' | '7d'): Promise<void> {
  const pic = decodePng(msg.photo!.bytes);
  expect([pic.width, pic.height]).toEqual([WIDTH, HEIGHT]);
  expect(msg.photo!.bytes.length).toBeLessThan(150 * 1024);
  const now = Date.now();
  const h = await history.read(usdt, range, now);
  const l = layout(h, now);
  const point = h.points.findLast((p) => p.at <= now - HOUR && fromTimeGridline(p.at) >= 1.5 * HOUR)!;
  expect(pic.near(l.x(point.at), l.y(point.buy!), COLOURS.buy, 2)).toBe(true);
  expect(pic.near(l.x(point.at), l.y(point.sell!), COLOURS.sell, 2)).toBe(true);
  // Above the buy line and below the sell line: background only.
  expect(pic.at(l.x(point.at), l.y(point.buy!) - 20)).toBe(COLOURS.bg);
  expect(pic.near(l.x(point.at), l.y(point.sell!) + 20, COLOURS.sell, 3)).toBe(false);
}

describe('a price chart on Telegram', () => {
  it('/price sends the 24-hour picture with the rates and their change under it, and 7 days on a tap', async () => {
    const chat = 717171;
    fake.sendText(chat, '/price USDT polygon');
    const day = await nthPhoto(chat, 1);
    expect(fake.callsTo('sendPhoto', chat)).toHaveLength(1);
    expect(day.text).toContain('USDT on Polygon, the last 24 hours');
    expect(day.text).toMatch(/Buy rate now: KES 131\.00 \(\+0\.7\d % in 24 hours\)/);
    expect(day.text).toMatch(/Sell rate now: KES 127\.00 \(±0 % in 24 hours\)/);
    // The history began within the week, not the day: only the longer ranges say since when.
    expect(day.text).not.toContain('Rates kept since');
    await linesWhereRatesAre(day, '24h');
    const buttons = (
      day.reply_markup as { inline_keyboard: Array<Array<{ callback_data: string; text: string }>> }
    ).inline_keyboard[0]!;
    expect(buttons.map((b) => b.text)).toEqual(['• 24 hours •', '7 days', '30 days']);

    // The 7 days go in the picture's place: one message, its picture, caption and buttons edited.
    const dayBytes = Buffer.from(day.photo!.bytes);
    fake.pressButton(chat, day.message_id, buttons[1]!.callback_data);
    await fake.waitFor(() => fake.callsTo('editMessageMedia', chat).length === 1, 10_000, 'the edit');
    expect(fake.callsTo('sendPhoto', chat)).toHaveLength(1);
    const week = photos(chat)[0]!;
    expect(week.message_id).toBe(day.message_id);
    expect(Buffer.from(week.photo!.bytes).equals(dayBytes)).toBe(false);
    expect(week.text).toContain('the last 7 days');
    expect(week.text).toMatch(/Rates kept since \d{4}-\d\d-\d\d \d\d:\d\d EAT/);
    const weekButtons = (week.reply_markup as { inline_keyboard: Array<Array<{ text: string }>> })
      .inline_keyboard[0]!;
    expect(weekButtons.map((b) => b.text)).toEqual(['24 hours', '• 7 days •', '30 days']);
    await linesWhereRatesAre(week, '7d');
  });

  it('a picture that cannot be edited any more gets its new range as a new picture', async () => {
    const chat = 747474;
    fake.sendText(chat, '/price USDT polygon');
    const day = await nthPhoto(chat, 1);
    const buttons = (day.reply_markup as { inline_keyboard: Array<Array<{ callback_data: string }>> })
      .inline_keyboard[0]!;
    // The picture was deleted meanwhile (as a user may): the edit is refused, a new picture goes.
    fake.deleteMessage(chat, day.message_id);
    fake.pressButton(chat, day.message_id, buttons[2]!.callback_data);
    const month = await nthPhoto(chat, 1);
    expect(month.message_id).not.toBe(day.message_id);
    expect(month.text).toContain('the last 30 days');
    expect(fake.callsTo('editMessageMedia', chat)).toHaveLength(1);
  });

  it('speaks Kiswahili to a Kiswahili client, in the caption and the picture alike', async () => {
    const chat = 727272;
    fake.sendText(chat, '/price usdt polygon', { languageCode: 'sw' });
    const day = await nthPhoto(chat, 1);
    expect(day.text).toContain('USDT kwenye Polygon, saa 24 zilizopita');
    expect(day.text).toMatch(/Bei ya kununua sasa: KSh 131\.00 \(\+0\.7\d % kwa saa 24\)/);
    // The English picture of the same minute is not reused: the legend is in the user's language.
    const english = photos(717171)[0]!.photo!.bytes;
    expect(Buffer.from(day.photo!.bytes).equals(Buffer.from(english))).toBe(false);
  });

  it('a pair with no rates kept says so in words, and is quoted from then on', async () => {
    const chat = 737373;
    fake.sendText(chat, '/price USDC celo');
    await fake.waitFor(
      () => fake.sentMessages(chat).find((m) => /no rates of USDC on Celo kept yet/.test(m.text)),
      10_000,
      'the empty answer',
    );
    expect(photos(chat)).toHaveLength(0);
    expect(await redis.zScore(`${prefix}chart:pairs`, 'USDC:celo')).toBeGreaterThan(0);
  });
});
