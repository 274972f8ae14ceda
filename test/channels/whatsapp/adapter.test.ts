import { Registry } from 'prom-client';
import type { RedisClientType } from 'redis';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Conversation } from '../../../src/channels/types.js';
import { createWhatsAppChannel, type WhatsAppChannel } from '../../../src/channels/whatsapp/index.js';
import type { OutMessage } from '../../../src/chat/types.js';
import type { I18n } from '../../../src/i18n/index.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../../helpers/redis.js';
import { message, RecordingSocket, recordingConversation, silent, testI18n, waitFor } from './helpers.js';

const PHONE = '254712345678';
const JID = `${PHONE}@s.whatsapp.net`;

const MENU: OutMessage = {
  texts: [{ id: 'wa-test-question', args: { amount: 500 } }],
  buttons: [
    [
      { id: 'buy:confirm', label: { id: 'wa-test-confirm' } },
      { id: 'buy:cancel', label: { id: 'wa-test-cancel' } },
    ],
    [{ id: 'pay', label: { id: 'wa-test-pay' }, url: 'https://pay.example/x' }],
  ],
};

describe('WhatsApp adapter', () => {
  let redis: RedisClientType;
  let prefix: string;
  let i18n: I18n;
  let sockets: RecordingSocket[];
  let channels: WhatsAppChannel[];

  beforeAll(() => {
    i18n = testI18n();
  });

  beforeEach(async () => {
    redis = await connectTestRedis();
    prefix = uniquePrefix('wa');
    sockets = [];
    channels = [];
  });

  afterEach(async () => {
    for (const c of channels) await c.stop();
    await flushPrefix(redis, prefix);
    await redis.quit();
  });

  async function startChannel(conversation: Conversation, registry = new Registry()) {
    const channel = createWhatsAppChannel({
      conversation,
      i18n,
      redis,
      logger: silent,
      keyPrefix: prefix,
      numberId: 'bot',
      registry,
      pacing: { intervalMs: 40, jitterMs: 10 },
      makeSocket: (config) => {
        const s = new RecordingSocket(config);
        sockets.push(s);
        return s;
      },
    });
    channels.push(channel);
    await channel.start();
    await waitFor(() => channel.state === 'open', 5000, 'open');
    return { channel, socket: sockets.at(-1)! };
  }

  it('hands text with the sender phone as the M-Pesa hint and the message id as update id', async () => {
    const conversation = recordingConversation();
    const { socket } = await startChannel(conversation);
    const msg = message(JID, 'hi');
    socket.receive(msg);
    await waitFor(() => conversation.handled.length === 1);
    expect(conversation.handled[0]).toEqual({
      user: { channel: 'whatsapp', id: PHONE },
      input: { kind: 'text', text: 'hi' },
      updateId: msg.key.id,
      phone: PHONE,
    });
  });

  it('reads extended text and turns /commands into command inputs', async () => {
    const conversation = recordingConversation();
    const { socket } = await startChannel(conversation);
    socket.receive(
      message(JID, { extendedTextMessage: { text: '/buy  500 usdt ' } }),
      message(JID, '/Start'),
    );
    await waitFor(() => conversation.handled.length === 2);
    expect(conversation.handled.map((h) => h.input)).toEqual([
      { kind: 'command', command: 'buy', args: '500 usdt' },
      { kind: 'command', command: 'start', args: '' },
    ]);
  });

  it('prints buttons as a numbered menu and resolves number or word answers to the button id', async () => {
    const conversation = recordingConversation(async (user, input) => {
      if (input.kind === 'text' && input.text === 'hi') await channel.adapter.send(user.id, MENU, 'en');
    });
    const { channel, socket } = await startChannel(conversation);
    socket.receive(message(JID, 'hi'));
    await waitFor(() => socket.sent.length === 1);
    const menuText = socket.sent[0]!.text;
    expect(socket.sent[0]!.jid).toBe(JID);
    expect(menuText).toContain('Buy 500 KES?');
    expect(menuText).toContain('*1.* ✅ Confirm');
    expect(menuText).toContain('*2.* Cancel order');
    expect(menuText).toContain('🔗 Pay online: https://pay.example/x');
    expect(menuText).toContain(i18n.t('en', { id: 'wa-menu-hint' }));

    for (const answer of ['2', '1.', 'confirm', '  CANCEL order ', '3', 'maybe', '✅ Confirm']) {
      socket.receive(message(JID, answer));
    }
    await waitFor(() => conversation.handled.length === 8);
    expect(conversation.handled.slice(1).map((h) => h.input)).toEqual([
      { kind: 'button', id: 'buy:cancel' },
      { kind: 'button', id: 'buy:confirm' },
      { kind: 'button', id: 'buy:confirm' },
      { kind: 'button', id: 'buy:cancel' },
      { kind: 'text', text: '3' },
      { kind: 'text', text: 'maybe' },
      { kind: 'button', id: 'buy:confirm' },
    ]);
  });

  it('matches the words of the language the menu was sent in, and keeps the menu in Redis', async () => {
    const conversation = recordingConversation(async (user, input) => {
      if (input.kind === 'text' && input.text === 'habari') await channel.adapter.send(user.id, MENU, 'sw');
    });
    const { channel, socket } = await startChannel(conversation);
    socket.receive(message(JID, 'habari'));
    await waitFor(() => socket.sent.length === 1);
    expect(socket.sent[0]!.text).toContain('*1.* ✅ Thibitisha');
    expect(await redis.ttl(`${prefix}bot:menu:${PHONE}`)).toBeGreaterThan(0);
    socket.receive(message(JID, 'thibitisha'), message(JID, 'Confirm'));
    await waitFor(() => conversation.handled.length === 3);
    expect(conversation.handled[1]!.input).toEqual({ kind: 'button', id: 'buy:confirm' });
    expect(conversation.handled[2]!.input).toEqual({ kind: 'text', text: 'Confirm' });
  });

  it('keeps the last menu across a restart of the channel', async () => {
    const first = recordingConversation(async (user) => channel.adapter.send(user.id, MENU, 'en'));
    const { channel, socket } = await startChannel(first);
    socket.receive(message(JID, 'hi'));
    await waitFor(() => socket.sent.length === 1);
    await channel.stop();

    const second = recordingConversation();
    const { socket: again } = await startChannel(second);
    again.receive(message(JID, '2'));
    await waitFor(() => second.handled.length === 1);
    expect(second.handled[0]!.input).toEqual({ kind: 'button', id: 'buy:cancel' });
  });

  it('ignores our own messages, groups, status updates, broadcasts and channels', async () => {
    const conversation = recordingConversation();
    const { socket } = await startChannel(conversation);
    socket.receive(
      message(JID, 'from me', { fromMe: true }),
      message('120363025246125486@g.us', 'group hello', { participant: JID }),
      message('status@broadcast', 'my status', { participant: JID }),
      message('1234567890@broadcast', 'broadcast list', { participant: JID }),
      message('120363170000000000@newsletter', 'channel post'),
      message(JID, { reactionMessage: { text: '👍', key: { id: 'x', remoteJid: JID } } }),
    );
    socket.ev.emit('messages.upsert', { messages: [message(JID, 'history')], type: 'append' });
    socket.receive(message(JID, 'real'));
    await waitFor(() => conversation.handled.length === 1);
    await new Promise((r) => setTimeout(r, 50));
    expect(conversation.handled.map((h) => h.input)).toEqual([{ kind: 'text', text: 'real' }]);
    expect(socket.sent).toEqual([]);
  });

  it('answers media with a please-type-text note instead of handing it to the conversation', async () => {
    const conversation = recordingConversation();
    const { socket } = await startChannel(conversation);
    socket.receive(message(JID, { stickerMessage: { mimetype: 'image/webp' } }));
    await waitFor(() => socket.sent.length === 1);
    expect(socket.sent[0]).toMatchObject({ jid: JID, text: i18n.t('en', { id: 'wa-text-only' }) });
    expect(conversation.handled).toEqual([]);
  });

  it('spaces messages to one chat and keeps their order, without holding up other chats', async () => {
    const other = '254798765432';
    const conversation = recordingConversation(async (user) => {
      if (user.id === PHONE) {
        await Promise.all(
          [1, 2, 3, 4].map((n) => channel.adapter.send(user.id, { texts: [{ id: `m${n}` }] }, 'en')),
        );
      } else {
        await channel.adapter.send(user.id, { texts: [{ id: 'other' }] }, 'en');
      }
    });
    const { channel, socket } = await startChannel(conversation);
    socket.receive(message(JID, 'burst'));
    await waitFor(() => socket.sent.length >= 1);
    socket.receive(message(`${other}@s.whatsapp.net`, 'me too'));
    await waitFor(() => socket.sent.length === 5);

    const mine = socket.sent.filter((s) => s.jid === JID);
    expect(mine.map((s) => s.text)).toEqual(['m1', 'm2', 'm3', 'm4']);
    // Slots are booked (40 ± 10) ms apart; a send that leaves late (a busy event loop) shortens the gap
    // after it, so the pace is read over the whole burst, with room for one such delay.
    expect(mine[3]!.at - mine[0]!.at).toBeGreaterThanOrEqual(3 * (40 - 10) - 20);
    const otherIndex = socket.sent.findIndex((s) => s.jid === `${other}@s.whatsapp.net`);
    expect(otherIndex).toBeLessThan(4);
  });

  it('only messages people who wrote first', async () => {
    const registry = new Registry();
    const conversation = recordingConversation();
    const { channel, socket } = await startChannel(conversation, registry);
    await channel.adapter.send(PHONE, { texts: [{ id: 'wa-text-only' }] }, 'en');
    expect(socket.sent).toEqual([]);
    const refused = await registry.getSingleMetric('rampchat_whatsapp_refused_sends_total')!.get();
    expect(refused.values[0]!.value).toBe(1);

    socket.receive(message(JID, 'hello'));
    await waitFor(() => conversation.handled.length === 1);
    await channel.adapter.send(PHONE, { texts: [{ id: 'wa-text-only' }] }, 'en');
    expect(socket.sent.map((s) => s.jid)).toEqual([JID]);
  });

  it('learns LID-to-phone mappings, keeps them in Redis and uses them when the phone is absent', async () => {
    const conversation = recordingConversation();
    const { channel, socket } = await startChannel(conversation);
    const lid = '181926412345678@lid';
    socket.receive(message(lid, 'first', { remoteJidAlt: JID }));
    await waitFor(() => conversation.handled.length === 1);
    expect(conversation.handled[0]!.user).toEqual({ channel: 'whatsapp', id: PHONE });
    expect(await redis.hGet(`${prefix}bot:lid`, '181926412345678')).toBe(PHONE);

    await channel.stop();
    const later = recordingConversation();
    const { socket: again } = await startChannel(later);
    again.receive(message(lid, 'second'));
    await waitFor(() => later.handled.length === 1);
    expect(later.handled[0]).toMatchObject({ user: { id: PHONE }, phone: PHONE });
  });

  it("asks baileys' LID store, and asks a sender with a hidden number to show it", async () => {
    const conversation = recordingConversation();
    const { socket } = await startChannel(conversation);
    socket.knownLids.set('5550001@lid', '254700000555@s.whatsapp.net');
    socket.receive(message('5550001@lid', 'known to baileys'));
    await waitFor(() => conversation.handled.length === 1);
    expect(conversation.handled[0]!.user.id).toBe('254700000555');
    expect(await redis.hGet(`${prefix}bot:lid`, '5550001')).toBe('254700000555');

    socket.receive(message('9990001@lid', 'who am i'));
    await waitFor(() => socket.sent.length === 1);
    expect(socket.sent[0]).toEqual(
      expect.objectContaining({ jid: '9990001@lid', text: i18n.t('en', { id: 'wa-number-hidden' }) }),
    );
    expect(conversation.handled).toHaveLength(1);
  });

  it('learns mappings from lid-mapping.update events', async () => {
    const conversation = recordingConversation();
    const { socket } = await startChannel(conversation);
    socket.ev.emit('lid-mapping.update', { lid: '777@lid', pn: '254711000777@s.whatsapp.net' });
    await waitFor(async () => (await redis.hGet(`${prefix}bot:lid`, '777')) === '254711000777');
    socket.receive(message('777@lid', 'hey'));
    await waitFor(() => conversation.handled.length === 1);
    expect(conversation.handled[0]!.user.id).toBe('254711000777');
  });

  it('offers no M-Pesa hint for a number outside Kenya', async () => {
    const conversation = recordingConversation();
    const { socket } = await startChannel(conversation);
    socket.receive(message('447700900123@s.whatsapp.net', 'hello'));
    await waitFor(() => conversation.handled.length === 1);
    expect(conversation.handled[0]).toMatchObject({ user: { id: '447700900123' }, phone: undefined });
  });
});
