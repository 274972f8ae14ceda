/**
 * Issue #23, the second and third walks: a refund ticket a seller files from a failed payout
 * reaches the desk (the order's case opens with the ticket), a failed order offers "Talk to a
 * person" about that order, and an agent's /ticket on a ticket the user filed does not tell the
 * user that support filed it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { message, waitFor } from '../channels/whatsapp/helpers.js';
import { AGENT2, buttonsOf, lastId, type Rig, SUPPORT_CHAT, startRig, waitForText } from './rig.js';

const SELLER = 777_401;
const BUYER = 777_402;
const FAILED_PHONE = '254700000001';

let rig: Rig;

const WA_PHONE = '254722000401';
const WA_JID = `${WA_PHONE}@s.whatsapp.net`;

beforeAll(async () => {
  rig = await startRig({ ownership: true, whatsapp: true });
  await waitFor(() => rig.whatsapp?.state === 'open', 5000, 'WhatsApp open');
});

afterAll(async () => {
  await rig?.stop();
});

const topicTexts = (threadId: number) => rig.fake.topicMessages(SUPPORT_CHAT, threadId).map((m) => m.text);
const topicOf = (orderId: string) =>
  rig.fake.waitFor(
    () => rig.fake.forumTopics(SUPPORT_CHAT).find((t) => t.name.startsWith(orderId)),
    8000,
    `the topic of ${orderId}`,
  );

describe('a refund ticket filed by a seller from a failed payout', () => {
  it("opens the order's case with the ticket in the support chat", async () => {
    const seller = { channel: 'telegram' as const, id: String(SELLER) };
    const { orderId } = await rig.offrampOrder(FAILED_PHONE, seller);
    const failure = await rig.fake.waitFor(
      () => rig.fake.sentMessages(SELLER).find((m) => buttonsOf(m).includes(`ticket:${orderId}`)),
      8000,
      'the ticket button',
    );
    expect(buttonsOf(failure)).toContain(`support:order:${orderId}`);

    rig.fake.pressButton(SELLER, failure.message_id, `ticket:${orderId}`);
    const ask = await waitForText(rig.fake, SELLER, 'what went wrong', failure.message_id);
    rig.fake.sendText(SELLER, 'The M-Pesa money never came');
    const done = await waitForText(rig.fake, SELLER, 'Refund ticket', ask.message_id);
    const ticket = rig.sandbox.tickets().find((t) => t.orderID === orderId)!;
    expect(done.text).toContain(ticket._id);

    const topic = await topicOf(orderId);
    await rig.fake.waitFor(
      () =>
        topicTexts(topic.message_thread_id).some((t) =>
          t.includes(`The user filed ramp ticket ${ticket._id}`),
        ),
      8000,
      'the ticket in the topic',
    );
    expect(topicTexts(topic.message_thread_id).join('\n')).toContain('The M-Pesa money never came');
    await rig.fake.waitFor(
      () =>
        (rig.fake.topicMessages(SUPPORT_CHAT, topic.message_thread_id)[0]?.text ?? '').includes(ticket._id),
      8000,
      'the ticket on the card',
    );

    // An agent's /ticket finds the user's ticket: nothing new at the ramp, the user is not told support filed one.
    const before = lastId(rig.fake, SELLER);
    rig.fake.sendText(SUPPORT_CHAT, '/ticket', { userId: AGENT2, threadId: topic.message_thread_id });
    await rig.fake.waitFor(
      () => topicTexts(topic.message_thread_id).some((t) => t.includes('already has ramp ticket')),
      8000,
    );
    await rig.support.desk.idle();
    expect(rig.sandbox.tickets().filter((t) => t.orderID === orderId)).toHaveLength(1);
    expect(
      rig.fake
        .sentMessages(SELLER)
        .filter((m) => m.message_id > before)
        .map((m) => m.text)
        .join('\n'),
    ).not.toContain('Our support team filed');
  });
});

describe('a refund ticket filed by a seller on WhatsApp', () => {
  it("opens the order's case with the ticket", async () => {
    const socket = rig.socket!;
    socket.receive(message(WA_JID, 'hi'));
    await waitFor(() => socket.sent.find((s) => s.jid === WA_JID), 8000, 'the menu on WhatsApp');
    const { orderId } = await rig.offrampOrder(FAILED_PHONE, { channel: 'whatsapp', id: WA_PHONE });
    await waitFor(
      () => socket.sent.find((s) => s.jid === WA_JID && s.text.includes(orderId)),
      8000,
      'the failure on WhatsApp',
    );
    socket.receive(message(WA_JID, `/ticket ${orderId}`));
    await waitFor(
      () => socket.sent.find((s) => s.jid === WA_JID && s.text.includes('what went wrong')),
      8000,
      'the description prompt',
    );
    // Written in Kiswahili, so answered in Kiswahili from then on (#25).
    socket.receive(message(WA_JID, 'Pesa ya M-Pesa haikufika'));
    await waitFor(
      () => socket.sent.find((s) => s.jid === WA_JID && s.text.includes('Tiketi ya kurejeshewa pesa')),
      8000,
      'the ticket on WhatsApp, in Kiswahili',
    );
    const ticket = rig.sandbox.tickets().find((t) => t.orderID === orderId)!;
    const topic = await topicOf(orderId);
    await rig.fake.waitFor(
      () =>
        topicTexts(topic.message_thread_id).some((t) =>
          t.includes(`The user filed ramp ticket ${ticket._id}`),
        ),
      8000,
      'the ticket in the topic',
    );
    expect(topicTexts(topic.message_thread_id)[0]).toContain('Channel: whatsapp');
  });
});

describe('a failed buy', () => {
  it('offers "Talk to a person" about that order, which opens the order\'s case (Swahili)', async () => {
    const buyer = { channel: 'telegram' as const, id: String(BUYER) };
    rig.fake.sendText(BUYER, '/start', { languageCode: 'sw' });
    await rig.fake.waitFor(() => lastId(rig.fake, BUYER) > 0, 8000, 'welcome');
    const orderId = await rig.onrampOrder(FAILED_PHONE, buyer);
    const failure = await rig.fake.waitFor(
      () => rig.fake.sentMessages(BUYER).find((m) => buttonsOf(m).includes(`ticket:${orderId}`)),
      8000,
      'the failure with the ticket button',
    );
    expect(buttonsOf(failure)).toContain(`support:order:${orderId}`);
    rig.fake.pressButton(BUYER, failure.message_id, `support:order:${orderId}`, { languageCode: 'sw' });
    const connected = await waitForText(rig.fake, BUYER, 'Sasa unaongea', failure.message_id);
    expect(connected.text).toContain(orderId);
    await topicOf(orderId);
  });
});
