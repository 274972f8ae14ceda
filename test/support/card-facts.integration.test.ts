/**
 * Issue #23, the fourth walk: the card holds the money facts as the user saw them (paid, fee,
 * received, rounded), the escrow or release transaction, the wallet, the ticket and who filed it,
 * what the user was last told in the tracker's words, and the agent's next step; a payout failure
 * is worded as a payout, not an M-Pesa prompt.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buttonsOf, type Rig, SUPPORT_CHAT, startRig, WALLET, waitForText } from './rig.js';

const BUYER = 777_601;
const SELLER = 777_602;
const FAILED_PHONE = '254700000001';

let rig: Rig;

beforeAll(async () => {
  rig = await startRig({ ownership: true });
});

afterAll(async () => {
  await rig?.stop();
});

const cardOf = async (orderId: string, has: string) => {
  const topic = await rig.fake.waitFor(
    () => rig.fake.forumTopics(SUPPORT_CHAT).find((t) => t.name.startsWith(orderId)),
    8000,
    `the topic of ${orderId}`,
  );
  return rig.fake.waitFor(
    () => {
      const card = rig.fake.topicMessages(SUPPORT_CHAT, topic.message_thread_id)[0];
      return card?.text.includes(has) ? card : undefined;
    },
    8000,
    `the card of ${orderId} with "${has}"`,
  );
};

describe('the card of a failed buy', () => {
  it('shows paid, fee and received rounded, what the user was told, the next step and buttons', async () => {
    const buyer = { channel: 'telegram' as const, id: String(BUYER) };
    const orderId = await rig.onrampOrder(FAILED_PHONE, buyer, true, {
      paidKes: 506,
      tokenAmount: '3.8610038610038613',
    });
    const failure = await rig.fake.waitFor(
      () => rig.fake.sentMessages(BUYER).find((m) => buttonsOf(m).includes(`support:order:${orderId}`)),
      8000,
      'the failure with the talk button',
    );
    rig.fake.pressButton(BUYER, failure.message_id, `support:order:${orderId}`);
    await waitForText(rig.fake, BUYER, 'support team', failure.message_id);
    const card = await cardOf(orderId, 'last told');
    expect(card.text).toContain(
      'Paid: KES 506.00 (KES 500.00 + fee KES 6.00) · to receive 3.861004 USDT on Polygon',
    );
    expect(card.text).not.toContain('3.8610038610038613');
    expect(card.text).toContain(`Wallet: ${WALLET}`);
    expect(card.text).toContain('The user was last told:');
    expect(card.text).toContain(failure.text.split('\n')[0]!.slice(0, 30));
    expect(card.text).not.toContain('last posted');
    expect(card.text).toContain('Next: file the refund ticket');
    expect(buttonsOf(card)).toEqual(
      expect.arrayContaining(
        ['status', 'ticket', 'resolve'].map((a) => expect.stringContaining(`desk:${a}:`)),
      ),
    );
  });
});

describe('the card of a failed sale', () => {
  it("shows amount, escrow transaction, wallet, the user's ticket, and the payout failure in payout words", async () => {
    const seller = { channel: 'telegram' as const, id: String(SELLER) };
    const { orderId, hash } = await rig.offrampOrder(FAILED_PHONE, seller);
    const failure = await rig.fake.waitFor(
      () => rig.fake.sentMessages(SELLER).find((m) => buttonsOf(m).includes(`ticket:${orderId}`)),
      8000,
      'the failure with the ticket button',
    );
    rig.fake.pressButton(SELLER, failure.message_id, `ticket:${orderId}`);
    const ask = await waitForText(rig.fake, SELLER, 'what went wrong', failure.message_id);
    rig.fake.pressButton(SELLER, ask.message_id, 'ticket:desc:default');
    const done = await waitForText(rig.fake, SELLER, 'Refund ticket', ask.message_id);
    expect(done.text).not.toContain('Our support team filed');
    const ticket = rig.sandbox.tickets().find((t) => t.orderID === orderId)!;
    const card = await cardOf(orderId, ticket._id);
    expect(card.text).toContain('Sent: 10 USDT on Polygon · to receive KES 1,268.50 by M-Pesa');
    expect(card.text).toContain(`Escrow transaction: ${hash}`);
    expect(card.text).toContain(`Wallet: ${WALLET}`);
    expect(card.text).toContain(`Ramp ticket: ${ticket._id} · filed by the user`);
    expect(card.text).toContain('the M-Pesa payout timed out');
    expect(card.text).not.toContain('prompt timed out');
    expect(card.text).toContain('Next: follow the ticket up at the ramp');
  });
});
