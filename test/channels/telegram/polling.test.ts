/**
 * Our long polling (src/channels/telegram/receive/polling.ts): a slow update holds neither other chats nor
 * the fetching, keeps its own chat's next update waiting (order), and is not acknowledged at
 * Telegram (no getUpdates offset past it) until it is done; an update a Redis outage met is tried
 * again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTelegramChannel, type TelegramChannel } from '../../../src/channels/telegram/index.js';
import { StoreUnavailableError } from '../../../src/store/errors.js';
import { FakeTelegramBotApi } from '../../fakes/telegram-bot-api.js';
import { captureLogger, ScriptedConversation, testI18n } from './helpers.js';

const TOKEN = '123456789:test-token-polling-not-real';
let fake: FakeTelegramBotApi | undefined;
let channel: TelegramChannel | undefined;
afterEach(async () => {
  await channel?.stop();
  await fake?.close();
});

/** A channel in long polling against the fake. */
const polling = (apiRoot: string, conversation: ScriptedConversation) =>
  createTelegramChannel({
    token: TOKEN,
    apiRoot,
    conversation,
    i18n: testI18n(),
    logger: captureLogger().logger,
    pollTimeoutSeconds: 1,
  });

describe('long polling', () => {
  it('acknowledges only handled updates, other chats go on, one chat stays in order', async () => {
    fake = await FakeTelegramBotApi.start({ token: TOKEN });
    const conversation = new ScriptedConversation();
    let release!: () => void;
    const slow = new Promise<void>((r) => {
      release = r;
    });
    const done: string[] = [];
    conversation.script = async (h) => {
      if (h.input.kind === 'text' && h.input.text === 'slow') await slow;
      done.push(h.input.kind === 'text' ? h.input.text : h.input.kind);
    };
    channel = polling(fake.url, conversation);
    await channel.start();
    const slowId = fake.sendText(1, 'slow');
    await fake.waitFor(() => conversation.inputs.length === 1);
    fake.sendText(1, 'after slow');
    fake.sendText(2, 'other chat');
    await fake.waitFor(() => done.includes('other chat'), 5000, 'the other chat');
    expect(done).toEqual(['other chat']);
    // Long polls go on while the slow one runs, never acknowledging it.
    await new Promise((r) => setTimeout(r, 300));
    const offsets = fake.callsTo('getUpdates').map((c) => Number(c.payload.offset ?? 0));
    expect(Math.max(...offsets)).toBeLessThanOrEqual(slowId);

    release();
    await fake.waitFor(() => done.length === 3, 5000, 'all handled');
    expect(done).toEqual(['other chat', 'slow', 'after slow']);
    await fake.waitFor(
      () => fake?.callsTo('getUpdates').some((c) => Number(c.payload.offset) > slowId + 2),
      5000,
      'the acknowledgement',
    );
  });

  it('a stop acknowledges what was handled: the next poller does not get it again', async () => {
    fake = await FakeTelegramBotApi.start({ token: TOKEN });
    const make = (conversation: ScriptedConversation) =>
      createTelegramChannel({
        token: TOKEN,
        apiRoot: fake!.url,
        conversation,
        i18n: testI18n(),
        logger: captureLogger().logger,
        pollTimeoutSeconds: 1,
      });
    const first = new ScriptedConversation();
    channel = make(first);
    await channel.start();
    fake.sendText(3, 'before the stop');
    await fake.waitFor(() => first.inputs.length === 1);
    await channel.stop();

    const second = new ScriptedConversation();
    channel = make(second);
    await channel.start();
    fake.sendText(3, 'after the restart');
    await fake.waitFor(() => second.inputs.length > 0);
    await new Promise((r) => setTimeout(r, 200));
    expect(second.inputs.map((h) => h.input)).toEqual([{ kind: 'text', text: 'after the restart' }]);
  });

  it('tries again the updates a Redis outage met, many chats at once, without a listener-leak warning', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      fake = await FakeTelegramBotApi.start({ token: TOKEN });
      const conversation = new ScriptedConversation();
      const tried = new Map<string, number>();
      conversation.script = async (h) => {
        const text = h.input.kind === 'text' ? h.input.text : '';
        tried.set(text, (tried.get(text) ?? 0) + 1);
        // Redis is down for each update's first try: nothing was done, the update waits to go again.
        if (tried.get(text) === 1) throw new StoreUnavailableError();
      };
      channel = polling(fake.url, conversation);
      await channel.start();
      for (let chat = 1; chat <= 12; chat++) fake.sendText(100 + chat, `chat ${chat}`);
      await fake.waitFor(
        () => tried.size === 12 && [...tried.values()].every((n) => n === 2),
        10_000,
        'every update handled on its second try',
      );
      expect([...tried.values()].every((n) => n === 2)).toBe(true);
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});
