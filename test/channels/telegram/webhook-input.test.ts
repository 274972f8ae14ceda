/**
 * The Telegram webhook as the app mounts it (src/http server, real grammY webhookCallback): forged
 * or malformed posts get a 4xx with the reason logged at warn, never a 500, and a good update after
 * them is still handled.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTelegramChannel, type TelegramChannel } from '../../../src/channels/telegram/index.js';
import { createHttpServer, type HttpServer } from '../../../src/http/index.js';
import { FakeTelegramBotApi } from '../../fakes/telegram-bot-api.js';
import { captureLogger, ScriptedConversation, testI18n } from './helpers.js';

const TOKEN = '123456789:test-token-webhook-input-not-real';
const SECRET = 'hook-secret_42';
const CHAT = 5151;

let fake: FakeTelegramBotApi;
let http: HttpServer;
let channel: TelegramChannel;
let conversation: ScriptedConversation;
let log: ReturnType<typeof captureLogger>;
let hookUrl = '';

beforeEach(async () => {
  fake = await FakeTelegramBotApi.start({ token: TOKEN });
  conversation = new ScriptedConversation();
  log = captureLogger();
  http = createHttpServer({ health: async () => ({ ok: true, details: {} }), processMetrics: false });
  const { url } = await http.listen(0, '127.0.0.1');
  hookUrl = `${url}/telegram/hook`;
  channel = createTelegramChannel({
    token: TOKEN,
    apiRoot: fake.url,
    conversation,
    i18n: testI18n(),
    logger: log.logger,
    webhook: { url: hookUrl, secretToken: SECRET },
  });
  http.addRoute({ method: 'POST', path: channel.webhookPath!, handler: channel.webhookHandler! });
  await channel.start();
});

afterEach(async () => {
  await channel.stop();
  await http.close();
  await fake.close();
});

const post = (body: string, secret: string | null = SECRET) =>
  fetch(hookUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(secret ? { 'x-telegram-bot-api-secret-token': secret } : {}),
    },
    body,
  });

const message = (extra: Record<string, unknown>) => ({
  message_id: 1,
  date: 0,
  chat: { id: CHAT, type: 'private', first_name: 'A' },
  from: { id: CHAT, is_bot: false, first_name: 'A' },
  ...extra,
});

describe('the Telegram webhook with bad posts', () => {
  it('refuses a missing or wrong secret with 401, whatever the body', async () => {
    const update = JSON.stringify({ update_id: 1, message: message({ text: 'forged' }) });
    expect((await post(update, null)).status).toBe(401);
    expect((await post(update, `${SECRET}x`)).status).toBe(401);
    expect((await post('{not json', 'wrong')).status).toBe(401);
    expect(conversation.inputs).toEqual([]);
  });

  const takesTheNextGoodUpdate = async () => {
    const good = await post(JSON.stringify({ update_id: 100, message: message({ text: 'after' }) }));
    expect(good.status).toBe(200);
    await fake.waitFor(
      () => conversation.inputs.find((h) => h.updateId === '100'),
      5000,
      'the good update to be handled',
    );
  };

  it.each([
    ['broken JSON', '{"update_id": 1,'],
    ['an empty body', ''],
    ['null', 'null'],
    ['an array', '[{"update_id": 2}]'],
    ['a string', '"update"'],
    ['an object without update_id', '{}'],
    ['a text update_id', '{"update_id": "three"}'],
    ['a negative update_id', '{"update_id": -3}'],
    [
      'a body over 1 MiB',
      JSON.stringify({ update_id: 3, message: message({ text: 'x'.repeat(1_100_000) }) }),
    ],
  ])('refuses %s with 400 and takes the next good update', async (_name, body) => {
    expect((await post(body)).status).toBe(400);
    await takesTheNextGoodUpdate();
    expect(conversation.inputs).toHaveLength(1);
  });

  it.each([
    ['a message that is an array', { update_id: 4, message: [] }],
    ['a message without chat', { update_id: 5, message: { message_id: 1, date: 0, text: 'hi' } }],
    ['a callback query without data or message', { update_id: 7, callback_query: { id: 'q' } }],
  ])(
    'refuses an update with %s (400, nothing handled) and takes the next good one',
    async (_name, update) => {
      expect((await post(JSON.stringify(update))).status).toBe(400);
      await takesTheNextGoodUpdate();
      expect(conversation.inputs.map((h) => h.updateId)).toEqual(['100']);
    },
  );
});
