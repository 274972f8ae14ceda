/**
 * Cases the system opens, and users on WhatsApp: the tracker (tiny horizon, a sandbox phone that
 * never settles) escalates through the desk's `escalate`, which opens a topic with the card and
 * tells the user once; a WhatsApp user reaches support and gets the agent's reply on WhatsApp.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskPhone } from '../../src/domain/phone.js';
import { message, waitFor } from '../channels/whatsapp/helpers.js';
import { AGENT, buttonsOf, type Rig, SUPPORT_CHAT, startRig, WALLET, waitForText } from './rig.js';

const USER = 777_301;
const STUCK_PHONE = '254700000002';
const WA_PHONE = '254733333333';
const WA_JID = `${WA_PHONE}@s.whatsapp.net`;

let rig: Rig;

beforeAll(async () => {
  rig = await startRig({ whatsapp: true, onrampHorizonMs: 300 });
  await waitFor(() => rig.whatsapp?.state === 'open', 5000, 'WhatsApp open');
});

afterAll(async () => {
  await rig?.stop();
});

describe('an order past its horizon', () => {
  it('opens a case with a topic and its card, and tells the user once', async () => {
    const user = { channel: 'telegram' as const, id: String(USER) };
    const orderId = await rig.onrampOrder(STUCK_PHONE, user);

    const topic = await rig.fake.waitFor(
      () => rig.fake.forumTopics(SUPPORT_CHAT).find((t) => t.name.startsWith(orderId)),
      10_000,
      'the escalation topic',
    );
    expect(topic.name).toBe(`${orderId} · ${maskPhone(STUCK_PHONE)}`);
    const card = await rig.fake.waitFor(
      () => rig.fake.topicMessages(SUPPORT_CHAT, topic.message_thread_id)[0],
      5000,
      'the card',
    );
    expect(card.text).toContain('Reason: the order is past its time limit');
    expect(card.text).toContain(`Order: ${orderId} (purchase)`);
    expect(card.text).toContain(`Phone: ${maskPhone(STUCK_PHONE)}`);
    expect(card.text).toContain('Paid: KES 500.00 · to receive 3.86 USDT on Polygon');
    expect(card.text).toContain('Order state: PENDING');
    expect(card.text).toContain(`Wallet: ${WALLET}`);
    expect(card.text).not.toContain(STUCK_PHONE);
    await rig.fake.waitFor(
      () =>
        rig.fake
          .topicMessages(SUPPORT_CHAT, topic.message_thread_id)
          .some((m) => m.text.includes('Escalated: the order is past its time limit')),
      5000,
    );

    const alert = await waitForText(rig.fake, USER, 'We opened support case');
    expect(alert.text).toContain(orderId);
    expect(buttonsOf(alert)).toContain(`support:order:${orderId}`);
    await waitForText(rig.fake, USER, 'taking longer than it should');

    // The tracker may hand the same order over again (a retried notification): no second alert.
    const c = await rig.support.store.get((await rig.support.store.slot(user, { kind: 'order', orderId }))!);
    await rig.support.escalate({
      reason: 'horizon',
      order: {
        orderId,
        side: 'onramp',
        user,
        network: 'polygon',
        walletAddress: WALLET,
        token: { symbol: 'USDT', address: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', decimals: 6 },
        amountKes: 500,
        phone: STUCK_PHONE,
        createdAt: Date.now(),
      },
      polls: 3,
      at: Date.now(),
    });
    const alerts = rig.fake.sentMessages(USER).filter((m) => m.text.includes('We opened support case'));
    expect(alerts).toHaveLength(1);
    expect(rig.fake.forumTopics(SUPPORT_CHAT).filter((t) => t.name.startsWith(orderId))).toHaveLength(1);
    expect((await rig.support.store.get(c!.id))?.events.map((e) => e.kind)).toEqual(['opened', 'escalated']);
  });
});

describe('a WhatsApp user', () => {
  it('reaches support by typing "support", and the agent\'s reply arrives on WhatsApp', async () => {
    const socket = rig.socket!;
    socket.receive(message(WA_JID, 'support'));
    await waitFor(
      () => socket.sent.find((s) => s.jid === WA_JID && s.text.includes('talking to our support team')),
      8000,
      'the WhatsApp answer',
    );
    const topic = await rig.fake.waitFor(
      () => rig.fake.forumTopics(SUPPORT_CHAT).find((t) => t.name.includes(maskPhone(WA_PHONE))),
      5000,
      'the WhatsApp case topic',
    );
    const card = await rig.fake.waitFor(
      () => rig.fake.topicMessages(SUPPORT_CHAT, topic.message_thread_id)[0],
      5000,
      'the card',
    );
    expect(card.text).toContain('Channel: whatsapp');
    expect(card.text).toContain('Order: none given');
    expect(card.text).not.toContain(WA_PHONE);

    socket.receive(message(WA_JID, 'My sale did not pay out'));
    await rig.fake.waitFor(
      () =>
        rig.fake
          .topicMessages(SUPPORT_CHAT, topic.message_thread_id)
          .some((m) => m.text === '👤 User: My sale did not pay out'),
      5000,
      'the relayed WhatsApp message',
    );

    rig.fake.sendText(SUPPORT_CHAT, 'Please send your M-Pesa message', {
      userId: AGENT,
      threadId: topic.message_thread_id,
    });
    const reply = await waitFor(
      () => socket.sent.find((s) => s.jid === WA_JID && s.text.includes('Please send your M-Pesa message')),
      5000,
      'the agent reply on WhatsApp',
    );
    expect(reply.text).toContain('Support: Please send your M-Pesa message');
  });
});
