/**
 * The webhook at the wire: Meta's verification handshake; posts with a wrong or missing signature
 * refused with 401, malformed bodies with 400, both without anything handled; a redelivered message
 * id handled once; a text, a button tap and a list tap read as the inputs a Telegram user's would
 * be, with the message id as the update id and the sender's number as the M-Pesa hint; a tap on an
 * older question's button answered "stale"; media answered "text only"; read receipts with typing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadI18n } from '../../../src/i18n/index.js';
import { FakeWhatsAppGraphApi } from '../../fakes/whatsapp-graph-api.js';
import { waitFor } from '../whatsapp/helpers.js';
import { APP_SECRET, type CloudRig, startCloudRig, VERIFY_TOKEN } from './helpers.js';

const USER = '254711000001';
const i18n = loadI18n();
let rig: CloudRig;

beforeAll(async () => {
  rig = await startCloudRig();
});
afterAll(async () => {
  await rig?.stop();
});
beforeEach(() => {
  rig.conversation.handled.length = 0;
});

const handled = () => rig.conversation.handled;
const settle = async () => {
  await new Promise((r) => setTimeout(r, 50));
  await rig.channel.idle();
};

describe('the WhatsApp Cloud API webhook', () => {
  it('answers the verification handshake only with the verify token', async () => {
    const url = (token: string, mode = 'subscribe') =>
      `${rig.fake.webhookUrl}?hub.mode=${mode}&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=1158201444`;
    const ok = await fetch(url(VERIFY_TOKEN));
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('1158201444');
    expect((await fetch(url('wrong-token-0123456789'))).status).toBe(403);
    expect((await fetch(url(VERIFY_TOKEN, 'unsubscribe'))).status).toBe(403);
  });

  it('refuses a post whose signature is wrong, missing or made with another secret, and handles nothing', async () => {
    const body = rig.fake.envelope({
      messages: [
        {
          from: USER,
          id: 'wamid.forged1',
          // Recent: a message older than the answer window is not answered at all (replay-and-stop.test.ts).
          timestamp: String(Math.floor(Date.now() / 1000)),
          type: 'text',
          text: { body: '/buy 500' },
        },
      ],
    });
    expect(await rig.fake.post(body, rig.fake.sign(body, 'another-secret'))).toBe(401);
    expect(await rig.fake.post(body, null)).toBe(401);
    expect(await rig.fake.post(body, 'sha256=zz')).toBe(401);
    // The right signature over a different body.
    expect(await rig.fake.post(body, rig.fake.sign(`${body} `))).toBe(401);
    await settle();
    expect(handled()).toEqual([]);
    expect(rig.fake.reads).toEqual([]);
    // The same body signed with the app secret is taken.
    expect(await rig.fake.post(body, rig.fake.sign(body, APP_SECRET))).toBe(200);
    await waitFor(() => handled().length === 1, 5000, 'the signed message');
  });

  it('refuses malformed bodies with 400 and handles nothing', async () => {
    const bad = [
      'not json',
      JSON.stringify({ object: 'page', entry: [] }),
      rig.fake.envelope({
        messages: [{ from: USER, timestamp: '1700000000', type: 'text', text: { body: 'no id' } }],
      }),
      rig.fake.envelope({ messages: [{ from: 'someone', id: 'wamid.x', timestamp: '1', type: 'text' }] }),
      JSON.stringify({
        object: 'whatsapp_business_account',
        entry: [{ id: '1', changes: [{ field: 'messages', value: { messaging_product: 'sms' } }] }],
      }),
    ];
    for (const body of bad) expect(await rig.fake.post(body), body.slice(0, 60)).toBe(400);
    await settle();
    expect(handled()).toEqual([]);
  });

  it('handles a message once when Meta delivers it again', async () => {
    const first = await rig.fake.sendText(USER, 'hi');
    expect(first.status).toBe(200);
    await waitFor(() => handled().length === 1, 5000, 'the first delivery');
    expect(await rig.fake.post(first.body)).toBe(200);
    await Promise.all([rig.fake.post(first.body), rig.fake.post(first.body)]);
    await settle();
    expect(handled()).toHaveLength(1);
    expect(handled()[0]).toMatchObject({
      user: { channel: 'whatsapp', id: USER },
      input: { kind: 'text', text: 'hi' },
      updateId: first.id,
      phone: USER,
    });
    // Blue ticks and the typing indicator, once.
    expect(rig.fake.reads.filter((r) => r.messageId === first.id)).toEqual([
      { messageId: first.id, typing: true },
    ]);
  });

  it('reads commands, and ignores messages for another business number', async () => {
    await rig.fake.sendText(USER, '/buy 500 USDT');
    await waitFor(() => handled().length === 1, 5000, 'the command');
    expect(handled()[0]!.input).toEqual({ kind: 'command', command: 'buy', args: '500 USDT' });
    const other = rig.fake.envelope({
      metadata: { phone_number_id: '999999999' },
      messages: [
        { from: USER, id: 'wamid.other', timestamp: '1700000000', type: 'text', text: { body: 'hi' } },
      ],
    });
    expect(await rig.fake.post(other)).toBe(200);
    await settle();
    expect(handled()).toHaveLength(1);
  });

  it('reads a reply-button tap and a list tap as button inputs; a tap on an older question is stale', async () => {
    await rig.fake.sendText(USER, 'hello');
    await waitFor(() => handled().length === 1, 5000, 'hello');
    await rig.channel.adapter.send(
      USER,
      {
        texts: [{ id: 'buy-ask-amount' }],
        buttons: [[{ id: 'buy:amt:500', label: { id: 'core-menu-buy' } }]],
      },
      'en',
    );
    const old = rig.fake.to(USER).at(-1)!;
    const items = ['USDT', 'USDC', 'cKES', 'CELO'].map((s) => ({
      id: `buy:tok:${s}`,
      label: { id: 'core-menu-buy' },
    }));
    await rig.channel.adapter.send(USER, { texts: [{ id: 'buy-ask-token' }], buttons: [items] }, 'en');
    const list = rig.fake.to(USER).at(-1)!;
    expect(list.body.interactive.type).toBe('list');

    await rig.fake.tap(USER, list, 'buy:tok:cKES');
    await waitFor(() => handled().length === 2, 5000, 'the list tap');
    expect(handled()[1]!.input).toEqual({ kind: 'button', id: 'buy:tok:cKES' });

    const before = rig.fake.to(USER).length;
    await rig.fake.tap(USER, old, 'buy:amt:500');
    const stale = await rig.fake.waitFor(
      () => rig.fake.to(USER).slice(before).at(0),
      5000,
      'the stale answer',
    );
    expect(FakeWhatsAppGraphApi.textOf(stale)).toBe(i18n.t('en', { id: 'wa-cloud-button-stale' }));
    await settle();
    expect(handled()).toHaveLength(2);

    // A reply button on the current question goes through.
    await rig.channel.adapter.send(
      USER,
      {
        texts: [{ id: 'buy-ask-amount' }],
        buttons: [[{ id: 'buy:amt:1000', label: { id: 'core-menu-quote' } }]],
      },
      'en',
    );
    await rig.fake.tap(USER, rig.fake.to(USER).at(-1)!, 'buy:amt:1000');
    await waitFor(() => handled().length === 3, 5000, 'the button tap');
    expect(handled()[2]!.input).toEqual({ kind: 'button', id: 'buy:amt:1000' });
    // Typing the words of a choice is that choice; a bare number under buttons stays a number.
    await rig.fake.sendText(USER, i18n.t('en', { id: 'core-menu-quote' }).toUpperCase());
    await waitFor(() => handled().length === 4, 5000, 'the typed label');
    expect(handled()[3]!.input).toEqual({ kind: 'button', id: 'buy:amt:1000' });
    await rig.fake.sendText(USER, '1');
    await waitFor(() => handled().length === 5, 5000, 'the typed number');
    expect(handled()[4]!.input).toEqual({ kind: 'text', text: '1' });
  });

  it('answers media with "text only, please" in the user\'s language, and ignores reactions', async () => {
    const user = '254711000002';
    await rig.fake.sendText(user, 'habari');
    await waitFor(() => handled().length === 1, 5000, 'habari');
    await rig.channel.adapter.send(user, { texts: [{ id: 'core-menu-title' }] }, 'sw');
    const before = rig.fake.to(user).length;
    await rig.fake.userMessage(user, { type: 'image', image: { id: '1', mime_type: 'image/jpeg' } });
    const reply = await rig.fake.waitFor(
      () => rig.fake.to(user).slice(before).at(0),
      5000,
      'the text-only answer',
    );
    expect(FakeWhatsAppGraphApi.textOf(reply)).toBe(i18n.t('sw', { id: 'wa-text-only' }));
    await rig.fake.userMessage(user, { type: 'reaction', reaction: { message_id: reply.id, emoji: '👍' } });
    await settle();
    expect(rig.fake.to(user)).toHaveLength(before + 1);
    expect(handled()).toHaveLength(1);
  });

  it('answers 503 while stopped, so Meta delivers again later', async () => {
    await rig.channel.stop();
    try {
      const { status } = await rig.fake.sendText(USER, 'are you there?');
      expect(status).toBe(503);
      await settle();
      expect(handled()).toEqual([]);
    } finally {
      await rig.channel.start();
    }
  });
});
