/** The Telegram adapter with real grammY against the local fake Bot API. */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RedisClientType } from 'redis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTelegramChannel,
  DEFAULT_COMMANDS,
  type TelegramChannel,
  type TelegramChannelOptions,
  TelegramRenderError,
} from '../../../src/channels/telegram/index.js';
import { scopedCall } from '../../../src/channels/telegram/send/call.js';
import { renderHtml } from '../../../src/channels/telegram/send/render.js';
import type { I18n } from '../../../src/i18n/index.js';
import { sendScope } from '../../../src/outbound/index.js';
import { createTelegramTopics } from '../../../src/support/telegram/topics.js';
import { FakeTelegramBotApi } from '../../fakes/telegram-bot-api.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../../helpers/redis.js';
import { captureLogger, ScriptedConversation, testI18n } from './helpers.js';

const TOKEN = '123456789:test-token-adapter-not-a-real-bot';
const CHAT = 4242;

let fake: FakeTelegramBotApi;
let conversation: ScriptedConversation;
let i18n: I18n;
let log: ReturnType<typeof captureLogger>;
const channels: TelegramChannel[] = [];

function channel(extra: Partial<TelegramChannelOptions> = {}): TelegramChannel {
  const ch = createTelegramChannel({
    token: TOKEN,
    apiRoot: fake.url,
    conversation,
    i18n,
    logger: log.logger,
    pollTimeoutSeconds: 2,
    ...extra,
  });
  channels.push(ch);
  return ch;
}

async function started(extra: Partial<TelegramChannelOptions> = {}): Promise<TelegramChannel> {
  const ch = channel(extra);
  await ch.start();
  return ch;
}

beforeEach(async () => {
  fake = await FakeTelegramBotApi.start({ token: TOKEN });
  conversation = new ScriptedConversation();
  i18n ??= testI18n();
  log = captureLogger();
});

afterEach(async () => {
  for (const ch of channels.splice(0)) await ch.stop();
  await fake.close();
});

describe('inbound updates', () => {
  it('hands text to the conversation with the update id and a locale hint', async () => {
    await started();
    const en = fake.sendText(CHAT, 'hello');
    const sw = fake.sendText(CHAT, 'habari', { languageCode: 'sw' });
    await fake.waitFor(() => conversation.inputs.length === 2, 5000, 'two inputs');
    expect(conversation.inputs).toEqual([
      {
        user: { channel: 'telegram', id: String(CHAT) },
        input: { kind: 'text', text: 'hello' },
        updateId: String(en),
        locale: 'en',
      },
      {
        user: { channel: 'telegram', id: String(CHAT) },
        input: { kind: 'text', text: 'habari' },
        updateId: String(sw),
        locale: 'sw',
      },
    ]);
  });

  it('turns /commands into command inputs and ignores commands meant for another bot', async () => {
    await started();
    fake.sendText(CHAT, '/start ref-42 x');
    fake.sendText(CHAT, '/buy@other_bot');
    fake.sendText(CHAT, '/BUY@rampchat_test_bot');
    await fake.waitFor(() => conversation.inputs.length === 2, 5000, 'two commands');
    // a later plain text proves the other-bot command was skipped, not delayed
    fake.sendText(CHAT, 'after');
    await fake.waitFor(() => conversation.inputs.length === 3, 5000, 'third input');
    expect(conversation.inputs.map((h) => h.input)).toEqual([
      { kind: 'command', command: 'start', args: 'ref-42 x' },
      { kind: 'command', command: 'buy', args: '' },
      { kind: 'text', text: 'after' },
    ]);
  });

  it('passes a redelivered update on with the same update id (the engine drops the copy)', async () => {
    await started();
    const id = fake.sendText(CHAT, 'once');
    await fake.waitFor(() => conversation.inputs.length === 1, 5000, 'first delivery');
    fake.redeliver(id);
    await fake.waitFor(() => conversation.inputs.length === 2, 5000, 'redelivery');
    expect(conversation.inputs.map((h) => h.updateId)).toEqual([String(id), String(id)]);
  });

  it('answers a button tap and hands its callback data on, with the message it was on', async () => {
    const ch = await started();
    await ch.adapter.send(
      String(CHAT),
      { texts: [{ id: 'test-choose' }], buttons: [[{ id: 'buy:confirm', label: { id: 'test-yes' } }]] },
      'en',
    );
    const msg = fake.lastMessage(CHAT);
    fake.pressButton(CHAT, msg?.message_id ?? 0, 'buy:confirm');
    await fake.waitFor(() => conversation.inputs.length === 1, 5000, 'button input');
    // With the message the button was on (a picture's range goes in its place).
    expect(conversation.inputs[0]?.input).toEqual({
      kind: 'button',
      id: 'buy:confirm',
      on: String(msg!.message_id),
    });
    // Answered once the conversation is done with the tap.
    const answered = await fake.waitFor(() => {
      const calls = fake.callsTo('answerCallbackQuery');
      return calls.length ? calls : undefined;
    });
    expect(answered).toHaveLength(1);
    expect(fake.callbackAnswered(String(answered[0]?.payload.callback_query_id))).toBe(true);
  });

  it('still answers the tap when the conversation fails, and tells the user something went wrong', async () => {
    await started();
    conversation.script = async () => {
      throw new Error('engine down');
    };
    fake.pressButton(CHAT, 1, 'menu:buy');
    await fake.waitFor(() => fake.lastMessage(CHAT), 5000, 'error message');
    expect(fake.callsTo('answerCallbackQuery')).toHaveLength(1);
    expect(fake.lastMessage(CHAT)?.text).toBe(i18n.t('en', { id: 'tg-error' }));
    expect(log.lines.some((l) => l.includes('engine down'))).toBe(true);
  });

  it('answers messages it cannot read (a sticker) without bothering the conversation', async () => {
    await started();
    fake.injectUpdate({
      message: {
        message_id: 1,
        date: 0,
        chat: { id: CHAT, type: 'private', first_name: 'A' },
        from: { id: CHAT, is_bot: false, first_name: 'A', language_code: 'sw' },
        sticker: {
          file_id: 'x',
          file_unique_id: 'y',
          type: 'regular',
          width: 1,
          height: 1,
          is_animated: false,
          is_video: false,
        },
      },
    });
    await fake.waitFor(() => fake.lastMessage(CHAT), 5000, 'reply');
    expect(fake.lastMessage(CHAT)?.text).toBe(i18n.t('sw', { id: 'tg-unsupported' }));
    expect(conversation.inputs).toHaveLength(0);
  });
});

describe('outbound messages', () => {
  it('escapes user-supplied text in HTML mode', async () => {
    const ch = await started();
    conversation.script = async ({ user, input }) => {
      if (input.kind === 'text')
        await ch.adapter.send(user.id, { texts: [{ id: 'test-echo', args: { text: input.text } }] }, 'en');
    };
    fake.sendText(CHAT, '<b>x</b>&');
    const msg = await fake.waitFor(() => fake.lastMessage(CHAT), 5000, 'echo');
    expect(msg.parse_mode).toBe('HTML');
    expect(msg.text).toBe('You said: <b>x</b>&');
    expect(msg.raw).toBe('You said: &lt;b&gt;x&lt;/b&gt;&amp;');
    expect(msg.entities).toEqual([]);
  });

  it("keeps a translation's own formatting while escaping its arguments, and joins paragraphs with blank lines", async () => {
    const ch = await started();
    await ch.adapter.send(
      String(CHAT),
      { texts: [{ id: 'test-bold', args: { name: 'A<i>B', amount: 5 } }, { id: 'test-choose' }] },
      'sw',
    );
    const msg = fake.lastMessage(CHAT);
    expect(msg?.text).toBe('A<i>B & wenzake: 5\n\nChagua moja');
    expect(msg?.entities).toEqual([{ type: 'bold', offset: 0, length: 'A<i>B'.length }]);
  });

  it('renders buttons as an inline keyboard: callback data = id, localized labels, https links only', async () => {
    const ch = await started();
    await ch.adapter.send(
      String(CHAT),
      {
        texts: [{ id: 'test-choose' }],
        buttons: [
          [
            { id: 'yes', label: { id: 'test-yes' } },
            { id: 'no', label: { id: 'test-no' } },
          ],
          [
            { id: 'site', label: { id: 'test-site' }, url: 'https://example.org/order?id=1' },
            { id: 'insecure', label: { id: 'test-site' }, url: 'http://example.org/' },
          ],
        ],
      },
      'sw',
    );
    expect(fake.lastMessage(CHAT)?.reply_markup).toEqual({
      inline_keyboard: [
        [
          { text: 'Ndiyo', callback_data: 'yes' },
          { text: 'Hapana', callback_data: 'no' },
        ],
        [{ text: 'Tovuti', url: 'https://example.org/order?id=1' }],
      ],
    });
    expect(log.lines.some((l) => l.includes('insecure') && l.includes('https'))).toBe(true);
  });

  it('refuses a button id Telegram could not carry back (over 64 bytes) and sends nothing', async () => {
    const ch = await started();
    const send = ch.adapter.send(
      String(CHAT),
      { texts: [{ id: 'test-choose' }], buttons: [[{ id: 'x'.repeat(65), label: { id: 'test-yes' } }]] },
      'en',
    );
    await expect(send).rejects.toBeInstanceOf(TelegramRenderError);
    expect(fake.callsTo('sendMessage')).toHaveLength(0);
  });

  it('splits a text longer than Telegram allows into several messages, buttons on the last', async () => {
    const ch = await started();
    const long = 'y'.repeat(3000);
    await ch.adapter.send(
      String(CHAT),
      {
        texts: [
          { id: 'test-echo', args: { text: long } },
          { id: 'test-echo', args: { text: long } },
        ],
        buttons: [[{ id: 'ok', label: { id: 'test-yes' } }]],
      },
      'en',
    );
    const sent = fake.sentMessages(CHAT);
    expect(sent).toHaveLength(2);
    expect(sent[0]?.reply_markup).toBeUndefined();
    expect(sent[1]?.reply_markup?.inline_keyboard?.[0]?.[0]?.callback_data).toBe('ok');
  });

  it('retries a 429 after retry_after and a 5xx, delivering each message once', async () => {
    const ch = await started();
    fake.failNext('sendMessage', {
      error_code: 429,
      description: 'Too Many Requests: retry after 1',
      retry_after: 1,
    });
    await ch.adapter.send(String(CHAT), { texts: [{ id: 'test-yes' }] }, 'en');
    fake.failNext('sendMessage', { error_code: 502, description: 'Bad Gateway' });
    await ch.adapter.send(String(CHAT), { texts: [{ id: 'test-no' }] }, 'en');
    expect(fake.callsTo('sendMessage').map((c) => c.response?.error_code ?? 'ok')).toEqual([
      429,
      'ok',
      502,
      'ok',
    ]);
    expect(fake.sentMessages(CHAT).map((m) => m.text)).toEqual(['Yes', 'No']);
  }, 20_000);

  it('gives up a send that keeps failing at its deadline instead of retrying forever', async () => {
    const ch = await started({ retry: { deadlineMs: 300 } });
    fake.failNext('sendMessage', { error_code: 502, description: 'Bad Gateway' }, 100);
    await expect(ch.adapter.send(String(CHAT), { texts: [{ id: 'test-yes' }] }, 'en')).rejects.toThrow();
    expect(fake.callsTo('sendMessage')).toHaveLength(1);
    expect(fake.sentMessages(CHAT)).toHaveLength(0);
  });
});

describe('phone number', () => {
  const askPhone = { texts: [{ id: 'test-phone' }], requestPhone: true };

  it('offers a localized one-time contact button and takes the user own contact, then removes the keyboard', async () => {
    const ch = await started();
    await ch.adapter.send(String(CHAT), askPhone, 'sw');
    expect(fake.replyKeyboard(CHAT)).toEqual({
      keyboard: [[{ text: i18n.t('sw', { id: 'tg-share-phone' }), request_contact: true }]],
      one_time_keyboard: true,
      resize_keyboard: true,
      input_field_placeholder: i18n.t('sw', { id: 'tg-share-phone-placeholder' }),
    });
    fake.shareContact(CHAT, '+254712345678');
    await fake.waitFor(() => conversation.inputs.length === 1, 5000, 'contact input');
    expect(conversation.inputs[0]?.input).toEqual({ kind: 'contact', phone: '+254712345678' });
    expect(fake.replyKeyboard(CHAT)).toBeUndefined();
  });

  it("refuses someone else's contact", async () => {
    const ch = await started();
    await ch.adapter.send(String(CHAT), askPhone, 'en');
    fake.shareContact(CHAT, '+254700000001', { contactUserId: 999 });
    fake.shareContact(CHAT, '+254700000002', { contactUserId: null });
    await fake.waitFor(() => fake.sentMessages(CHAT).length === 3, 5000, 'two refusals');
    expect(conversation.inputs).toHaveLength(0);
    const refusal = i18n.t('en', { id: 'tg-contact-not-yours' });
    expect(
      fake
        .sentMessages(CHAT)
        .slice(1)
        .map((m) => m.text),
    ).toEqual([refusal, refusal]);
    expect(fake.replyKeyboard(CHAT)).toBeDefined();
  });

  it('puts the contact button in its own message when the question also has inline buttons', async () => {
    const ch = await started();
    await ch.adapter.send(
      String(CHAT),
      { ...askPhone, buttons: [[{ id: 'phone:saved', label: { id: 'test-yes' } }]] },
      'en',
    );
    const [question, hint] = fake.sentMessages(CHAT);
    expect(question?.reply_markup?.inline_keyboard).toBeDefined();
    expect(hint?.text).toBe(i18n.t('en', { id: 'tg-share-phone-hint' }));
    expect(hint?.reply_markup?.keyboard?.[0]?.[0]?.request_contact).toBe(true);
  });

  it('removes the contact button with the next plain message when the user typed the number instead', async () => {
    const ch = await started();
    await ch.adapter.send(String(CHAT), askPhone, 'en');
    expect(fake.replyKeyboard(CHAT)).toBeDefined();
    await ch.adapter.send(String(CHAT), { texts: [{ id: 'test-done' }] }, 'en');
    expect(fake.replyKeyboard(CHAT)).toBeUndefined();
    expect(fake.lastMessage(CHAT)?.reply_markup).toEqual({ remove_keyboard: true });
  });
});

describe('replaceKey messages', () => {
  const status = (status: string) => ({
    texts: [{ id: 'test-status', args: { id: 'D-1', status } }],
    replaceKey: 'order:D-1',
  });

  it('keeps one message per key, coalesces rapid updates and spaces edits about a second apart', async () => {
    const ch = await started();
    await ch.adapter.send(String(CHAT), status('created'), 'en');
    await Promise.all(
      ['pending', 'paying', 'paid', 'SUCCESS'].map((s) => ch.adapter.send(String(CHAT), status(s), 'en')),
    );
    const shown = fake.sentMessages(CHAT);
    expect(shown).toHaveLength(1);
    expect(shown[0]?.text).toBe('Order D-1 is SUCCESS');
    expect(fake.callsTo('sendMessage')).toHaveLength(1);
    expect(fake.callsTo('editMessageText')).toHaveLength(1);

    await ch.adapter.send(String(CHAT), status('settled'), 'en');
    const edits = fake.callsTo('editMessageText');
    const sent = fake.callsTo('sendMessage');
    expect(edits).toHaveLength(2);
    expect((edits[0]?.at ?? 0) - (sent[0]?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect((edits[1]?.at ?? 0) - (edits[0]?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect(fake.sentMessages(CHAT).map((m) => m.text)).toEqual(['Order D-1 is settled']);
  });

  it('keeps other keys and other chats apart, and sending the same content again is fine', async () => {
    const ch = await started({ editIntervalMs: 50 });
    await ch.adapter.send(String(CHAT), status('created'), 'en');
    await ch.adapter.send(String(CHAT), { ...status('other'), replaceKey: 'order:D-2' }, 'en');
    await ch.adapter.send(String(CHAT + 1), status('created'), 'en');
    await ch.adapter.send(String(CHAT), status('created'), 'en');
    expect(fake.sentMessages(CHAT).map((m) => m.text)).toEqual([
      'Order D-1 is created',
      'Order D-1 is other',
    ]);
    expect(fake.sentMessages(CHAT + 1)).toHaveLength(1);
  });

  it('sends a new message when the one to edit is gone', async () => {
    const ch = await started({ editIntervalMs: 50 });
    await ch.adapter.send(String(CHAT), status('created'), 'en');
    const first = fake.lastMessage(CHAT);
    fake.deleteMessage(CHAT, first?.message_id ?? 0);
    await ch.adapter.send(String(CHAT), status('pending'), 'en');
    await ch.adapter.send(String(CHAT), status('SUCCESS'), 'en');
    const shown = fake.sentMessages(CHAT);
    expect(shown).toHaveLength(1);
    expect(shown[0]?.message_id).not.toBe(first?.message_id);
    expect(shown[0]?.text).toBe('Order D-1 is SUCCESS');
    expect(shown[0]?.edits).toBe(1);
  });

  describe('with Redis', () => {
    let redis: RedisClientType;
    let prefix: string;
    beforeEach(async () => {
      redis = await connectTestRedis();
      prefix = uniquePrefix('tg');
    });
    afterEach(async () => {
      await flushPrefix(redis, prefix);
      await redis.quit();
    });

    it('edits the message a previous process sent (message ids live in Redis)', async () => {
      const before = channel({ redis, redisPrefix: prefix, botInfo: fake.botInfo, editIntervalMs: 50 });
      await before.adapter.send(String(CHAT), status('created'), 'en');
      await before.stop();
      const after = channel({ redis, redisPrefix: prefix, botInfo: fake.botInfo, editIntervalMs: 50 });
      await after.adapter.send(String(CHAT), status('SUCCESS'), 'en');
      expect(fake.sentMessages(CHAT).map((m) => [m.text, m.edits])).toEqual([['Order D-1 is SUCCESS', 1]]);
      expect(await redis.get(`${prefix}tg:replace:${CHAT}:order:D-1`)).toBe(
        String(fake.lastMessage(CHAT)?.message_id),
      );
    });

    it("a scope's name reaches the outbox through grammY: work done again sends its messages once", async () => {
      const ch = channel({ redis, redisPrefix: prefix, botInfo: fake.botInfo, pacing: { redis } });
      const echo = (text: string) => ({ texts: [{ id: 'test-echo', args: { text } }] });
      const first = sendScope('tg:77');
      await ch.adapter.send(String(CHAT), echo('one'), 'en', undefined, first);
      await ch.adapter.send(String(CHAT), echo('two'), 'en', undefined, first);
      // The update handled again after a kill: its sends carry the same names, so they are the
      // messages already in the outbox, and the answers recorded for them.
      const again = sendScope('tg:77');
      await ch.adapter.send(String(CHAT), echo('one'), 'en', undefined, again);
      await ch.adapter.send(String(CHAT), echo('two'), 'en', undefined, again);
      // Unnamed, a send is a message of its own.
      await ch.adapter.send(String(CHAT), echo('one'), 'en');
      expect(fake.sentMessages(CHAT).map((m) => m.text)).toEqual([
        'You said: one',
        'You said: two',
        'You said: one',
      ]);
    });

    it("the desk's posts carry their scope's name too (user lines taken over by another replica go once)", async () => {
      const ch = channel({ redis, redisPrefix: prefix, botInfo: fake.botInfo, pacing: { redis } });
      const group = -1001234500;
      const topics = createTelegramTopics({
        api: ch.bot.api,
        chatId: String(group),
        i18n,
        logger: log.logger,
        renderHtml,
        scopedCall,
      });
      const lines = [{ id: 'test-echo', args: { text: 'my money' } }];
      await topics.post(undefined, lines, undefined, sendScope('dl:c1:1-1', { strict: true }));
      // The replica that took the lines over posts them under the same name.
      await topics.post(undefined, lines, undefined, sendScope('dl:c1:1-1', { strict: true }));
      await topics.post(undefined, lines);
      expect(fake.sentMessages(group).map((m) => m.text)).toEqual([
        'You said: my money',
        'You said: my money',
      ]);
    });
  });
});

describe('start-up', () => {
  it('sets the command menu in English (default) and Kiswahili', async () => {
    await started();
    const en = fake.commands();
    const sw = fake.commands('sw');
    expect(en?.map((c) => c.command)).toEqual([...DEFAULT_COMMANDS]);
    expect(sw?.map((c) => c.command)).toEqual([...DEFAULT_COMMANDS]);
    const buyEn = en?.find((c) => c.command === 'buy');
    const buySw = sw?.find((c) => c.command === 'buy');
    expect(buyEn).toEqual({ command: 'buy', description: i18n.t('en', { id: 'tg-command-buy' }) });
    expect(buySw).toEqual({ command: 'buy', description: i18n.t('sw', { id: 'tg-command-buy' }) });
    expect(buySw?.description).not.toBe(buyEn?.description);
  });

  it('never logs the bot token, even when the network fails', async () => {
    await started();
    await fake.close();
    await new Promise<void>((resolve, reject) => {
      const t0 = Date.now();
      const tick = setInterval(() => {
        if (log.lines.some((l) => l.includes('fetching updates failed'))) {
          clearInterval(tick);
          resolve();
        } else if (Date.now() - t0 > 5000) {
          clearInterval(tick);
          reject(new Error(`no failure logged: ${log.lines.join('')}`));
        }
      }, 20);
    });
    const all = log.lines.join('\n');
    expect(all).toContain('[bot-token]');
    expect(all).not.toContain(TOKEN);
    expect(all).not.toContain(TOKEN.split(':')[1]);
  });
});

describe('webhook mode', () => {
  let server: Server;
  let listener: RequestListener = (_req, res) => res.writeHead(503).end();
  let base = '';

  beforeEach(async () => {
    server = createServer((req, res) => listener(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const post = (secret: string | undefined, body: unknown) =>
    fetch(`${base}/telegram/hook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(secret ? { 'x-telegram-bot-api-secret-token': secret } : {}),
      },
      body: JSON.stringify(body),
    });

  it('registers the webhook with its secret and only accepts requests carrying it', async () => {
    const ch = channel({ webhook: { url: `${base}/telegram/hook`, secretToken: 'right-secret_1' } });
    expect(ch.webhookPath).toBe('/telegram/hook');
    const handler = ch.webhookHandler;
    if (!handler) throw new Error('no webhook handler');
    listener = (req, res) => {
      if (req.method === 'POST' && req.url === ch.webhookPath) void handler(req, res);
      else res.writeHead(404).end();
    };
    await ch.start();
    expect(fake.webhook).toEqual({
      url: `${base}/telegram/hook`,
      secret_token: 'right-secret_1',
      allowed_updates: ['message', 'callback_query'],
    });

    const update = {
      update_id: 5,
      message: {
        message_id: 1,
        date: 0,
        chat: { id: CHAT, type: 'private', first_name: 'A' },
        from: { id: CHAT, is_bot: false, first_name: 'A' },
        text: 'forged',
      },
    };
    expect((await post(undefined, update)).status).toBe(401);
    expect((await post('wrong-secret', update)).status).toBe(401);
    expect(conversation.inputs).toHaveLength(0);
    const garbage = await fetch(`${base}/telegram/hook`, {
      method: 'POST',
      headers: { 'x-telegram-bot-api-secret-token': 'right-secret_1' },
      body: '{not json',
    });
    expect(garbage.status).toBe(400);
    // Authenticated but malformed: answered 400 with nothing handled.
    for (const body of [
      { update_id: 6, message: { message_id: 1, date: 0, text: 'no chat' } },
      { update_id: 7, message: { message_id: 1, date: 0, chat: { id: 'x', type: 'private' }, text: 'hi' } },
      { update_id: 8, message: 'not an object' },
      { update_id: 9, callback_query: { id: '1', data: 'menu:main' } },
    ]) {
      const res = await post('right-secret_1', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.text()).toBe('');
    }
    expect(conversation.inputs).toHaveLength(0);

    const id = fake.sendText(CHAT, 'via webhook');
    await fake.waitFor(() => fake.webhookDeliveries.find((d) => d.updateId === id), 5000, 'delivery');
    expect(fake.webhookDeliveries).toEqual([{ updateId: id, status: 200 }]);
    expect(conversation.inputs.map((h) => [h.input, h.updateId])).toEqual([
      [{ kind: 'text', text: 'via webhook' }, String(id)],
    ]);
    expect(fake.callsTo('getUpdates')).toHaveLength(0);
  });
});
