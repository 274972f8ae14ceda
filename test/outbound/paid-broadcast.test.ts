/**
 * Paid broadcast on Telegram (TELEGRAM_PAID_BROADCAST_AFTER_MS): when the line is deep, an order's
 * outcome that has waited long enough goes with `allow_paid_broadcast` on a paid rate of its own,
 * still one chat at a time; replies, progress and notices (reminders, rate alerts) never do. Real grammY against the fake Bot API
 * (which keeps paid sends outside the bot's 30 a second and charges 0.1 Star each), real Redis.
 */
import type { RedisClientType } from 'redis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTelegramChannel,
  type TelegramChannel,
  type TelegramChannelOptions,
} from '../../src/channels/telegram/index.js';
import type { I18n } from '../../src/i18n/index.js';
import { captureLogger, ScriptedConversation, testI18n } from '../channels/telegram/helpers.js';
import { FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';

const TOKEN = '123456789:test-token-paid-broadcast-not-real';
let fake: FakeTelegramBotApi | undefined;
let redis: RedisClientType;
let prefix: string;
let i18n: I18n;
const channels: TelegramChannel[] = [];

async function start(opts: { stars?: number } = {}): Promise<FakeTelegramBotApi> {
  fake = await FakeTelegramBotApi.start({ token: TOKEN, floodLimits: true, ...opts });
  return fake;
}

function replica(api: FakeTelegramBotApi, pacing: TelegramChannelOptions['pacing'] = {}): TelegramChannel {
  const ch = createTelegramChannel({
    token: TOKEN,
    apiRoot: api.url,
    conversation: new ScriptedConversation(),
    i18n,
    logger: captureLogger().logger,
    botInfo: api.botInfo,
    redis,
    redisPrefix: prefix,
    pacing: { redis, ...pacing },
  });
  channels.push(ch);
  return ch;
}

const reply = { texts: [{ id: 'test-no' }] };
const outcome = { texts: [{ id: 'test-yes' }], outcome: true };
/** An order's final state in its status message (the tracker's outcome). */
const orderOutcome = (orderId: string) => ({ ...outcome, replaceKey: `order:${orderId}` });
const paidCalls = (api: FakeTelegramBotApi) =>
  api.calls.filter((c) => c.payload.allow_paid_broadcast === true);

/** A backlog of `n` replies to their own chats: the free line is booked n/27 s ahead. */
const backlog = (ch: TelegramChannel, n: number, base: number) =>
  Array.from({ length: n }, (_, i) => ch.adapter.send(String(base + i), reply, 'en'));

/**
 * Resolves once the free line is booked `ms` ahead (its slot in Redis): a fixed pause let outcomes
 * in before a loaded machine had booked the backlog, and they went free (1 of 4 runs).
 */
async function lineDeep(ms: number): Promise<void> {
  const end = Date.now() + 10_000;
  while (Number((await redis.get(`${prefix}tg:pace:bot`)) ?? 0) < Date.now() + ms) {
    if (Date.now() > end) throw new Error(`the free line was never booked ${ms} ms ahead`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeEach(async () => {
  redis = await connectTestRedis();
  prefix = uniquePrefix('paid');
  i18n ??= testI18n();
});

afterEach(async () => {
  for (const ch of channels.splice(0)) await ch.stop();
  await fake?.close();
  fake = undefined;
  await flushPrefix(redis, prefix);
  await redis.quit();
});

describe('paid broadcast for order outcomes', () => {
  it('is off unless set: nothing is ever sent paid', async () => {
    const api = await start();
    const a = replica(api);
    await Promise.all([...backlog(a, 40, 20_000), a.adapter.send('20999', orderOutcome('O-1'), 'en')]);
    expect(paidCalls(api)).toHaveLength(0);
  }, 20_000);

  it('sends order outcomes waiting behind a deep line paid, ahead of it; replies and notices stay free; no 429', async () => {
    const api = await start();
    const a = replica(api, { paidAfterMs: 300 });
    const b = replica(api, { paidAfterMs: 300 });
    const replies = backlog(a, 120, 21_000);
    await lineDeep(2000);
    const outcomes = Array.from({ length: 40 }, (_, i) =>
      b.adapter.send(String(22_000 + i), orderOutcome(`A-${i}`), 'en'),
    );
    // Notices of the same class (a standing buy's reminder, a rate alert) wait their free turn.
    const notices = Array.from({ length: 10 }, (_, i) => b.adapter.send(String(22_100 + i), outcome, 'en'));
    await Promise.all(outcomes);
    const outcomesDoneAt = Date.now();
    await Promise.all([...replies, ...notices]);
    const repliesDoneAt = Date.now();

    const paid = paidCalls(api);
    // Every outcome went paid (each waited past 300 ms behind 4.4 s of replies), no reply did.
    expect(paid.map((c) => Number(c.payload.chat_id)).sort()).toEqual(
      Array.from({ length: 40 }, (_, i) => 22_000 + i),
    );
    expect(api.paidCount).toBe(40);
    // They were all out long before the free backlog drained.
    expect(repliesDoneAt - outcomesDoneAt).toBeGreaterThan(2000);
    for (let i = 0; i < 40; i++) expect(api.sentMessages(22_000 + i).map((m) => m.text)).toEqual(['Yes']);
    for (let i = 0; i < 10; i++) expect(api.sentMessages(22_100 + i).map((m) => m.text)).toEqual(['Yes']);
    expect(api.floodRefusals).toBe(0);
  }, 30_000);

  it("turns an outcome edit into one paid message in the status message's place", async () => {
    const api = await start();
    const a = replica(api, { paidAfterMs: 300 });
    const chat = 23_000;
    await a.adapter.send(String(chat), { texts: [{ id: 'test-no' }], replaceKey: 'order:P-1' }, 'en');
    expect(api.sentMessages(chat).map((m) => m.text)).toEqual(['No']);
    // Past the chat's edit spacing, so the progress below goes straight into the line.
    await new Promise((r) => setTimeout(r, 1100));
    const replies = backlog(a, 100, 23_100);
    await lineDeep(2000);
    // Progress waits behind the replies (never paid); the outcome replacing it waits as an outcome.
    const progress = a.adapter.send(
      String(chat),
      { texts: [{ id: 'test-no' }], replaceKey: 'order:P-1' },
      'en',
    );
    await new Promise((r) => setTimeout(r, 150));
    await a.adapter.send(String(chat), { ...outcome, replaceKey: 'order:P-1' }, 'en');
    await progress;
    // The old status message is gone; the outcome stands alone, sent paid (an edit cannot be).
    expect(api.sentMessages(chat).map((m) => m.text)).toEqual(['Yes']);
    expect(paidCalls(api).map((c) => c.method)).toEqual(['sendMessage']);
    expect(api.callsTo('editMessageText', chat)).toHaveLength(0);
    // A later state edits the paid message in place.
    await Promise.all(replies);
    await a.adapter.send(String(chat), { texts: [{ id: 'test-no' }], replaceKey: 'order:P-1' }, 'en');
    expect(api.sentMessages(chat).map((m) => m.text)).toEqual(['No']);
    expect(api.callsTo('editMessageText', chat)).toHaveLength(1);
  }, 30_000);

  it('a refused paid send (no Stars left) goes free instead and paid sending stops: nothing is lost', async () => {
    const api = await start({ stars: 0.2 });
    const a = replica(api, { paidAfterMs: 300 });
    const replies = backlog(a, 80, 24_000);
    await lineDeep(2000);
    const outcomes = Array.from({ length: 10 }, (_, i) =>
      a.adapter.send(String(24_500 + i), orderOutcome(`R-${i}`), 'en'),
    );
    await Promise.all([...outcomes, ...replies]);
    expect(api.paidCount).toBe(2);
    // Tries already on their way when the first refusal came were refused too; none began after it.
    const paid = paidCalls(api);
    const firstRefused = paid[2]?.at ?? 0;
    expect(paid.length).toBeGreaterThanOrEqual(3);
    // (Within half a second: a try dispatched just before the refusal may reach the fake that much
    // later on a loaded machine; a line that kept paying would go on for seconds with this backlog.)
    for (const c of paid) expect(c.at - firstRefused).toBeLessThan(500);
    // Every refused one was sent free instead, once.
    for (let i = 0; i < 10; i++) expect(api.sentMessages(24_500 + i).map((m) => m.text)).toEqual(['Yes']);
    expect(api.floodRefusals).toBe(0);
  }, 30_000);
});
