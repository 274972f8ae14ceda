/**
 * A user acts on their own orders only (Telegram on the fake Bot API, two users, the sandbox, the
 * tracker recording who made each order). Bob names Alice's failed order: no ramp ticket is filed
 * (its refund number would be Bob's), an agent gets a case marked "not the requester's order" with
 * nothing of the order on its card, and Alice can still file her own ticket afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastId, type Rig, SUPPORT_CHAT, startRig, waitForText } from './rig.js';

const ALICE = 777_301;
const BOB = 777_302;
const FAILED_PHONE = '254700000001';
const alice = { channel: 'telegram' as const, id: String(ALICE) };

let rig: Rig;
beforeAll(async () => {
  rig = await startRig({ ownership: true });
});
afterAll(async () => {
  await rig?.stop();
});

describe("another user's order", () => {
  it('is never ticketed at the ramp for the wrong user; the owner still can', async () => {
    const orderId = await rig.onrampOrder(FAILED_PHONE, alice);
    await waitForText(rig.fake, ALICE, 'did not go through');

    let before = lastId(rig.fake, BOB);
    rig.fake.sendText(BOB, `/ticket ${orderId}`);
    const ask = await waitForText(rig.fake, BOB, 'what went wrong', before);
    rig.fake.sendText(BOB, 'refund to my NEW number 0799999999');
    const refused = await waitForText(rig.fake, BOB, 'is not one you made here', ask.message_id);
    expect(refused.text).toContain(orderId);
    expect(rig.sandbox.tickets().filter((t) => t.orderID === orderId)).toHaveLength(0);

    // The agents' card says so and shows nothing of the order (no amount, phone of Alice, receipt).
    const topic = await rig.fake.waitFor(
      () => rig.fake.forumTopics(SUPPORT_CHAT).find((t) => t.name.includes(orderId)),
      5000,
      "the case topic for Bob's request",
    );
    const card = await rig.fake.waitFor(
      () => rig.fake.topicMessages(SUPPORT_CHAT, topic.message_thread_id)[0],
      5000,
      'the card',
    );
    expect(card.text).toContain("not the requester's order");
    expect(card.text).not.toMatch(/KES 500|500 KES|USDT|FAILED/);
    await rig.fake.waitFor(
      () =>
        rig.fake
          .topicMessages(SUPPORT_CHAT, topic.message_thread_id)
          .some((m) => m.text.includes('NOT their order')),
      5000,
      'the not-their-order note',
    );

    // Alice files hers: a real ticket, not "already has ticket X".
    before = lastId(rig.fake, ALICE);
    rig.fake.sendText(ALICE, `/ticket ${orderId}`);
    const askAlice = await waitForText(rig.fake, ALICE, 'what went wrong', before);
    rig.fake.sendText(ALICE, 'I paid but got no USDT');
    const done = await waitForText(rig.fake, ALICE, 'Refund ticket', askAlice.message_id);
    expect(done.text).not.toContain('already has');
    const tickets = rig.sandbox.tickets().filter((t) => t.orderID === orderId);
    expect(tickets).toHaveLength(1);
    expect(tickets[0]!.Description).toBe('I paid but got no USDT');
  });

  it('/support about it opens a case whose card shows nothing of the order', async () => {
    const orderId = await rig.onrampOrder(FAILED_PHONE, alice);
    await waitForText(rig.fake, ALICE, orderId);
    rig.fake.sendText(BOB, `/support ${orderId}`);
    const topic = await rig.fake.waitFor(
      () => rig.fake.forumTopics(SUPPORT_CHAT).find((t) => t.name.includes(orderId)),
      5000,
      "the case topic for Bob's /support",
    );
    const card = await rig.fake.waitFor(
      () => rig.fake.topicMessages(SUPPORT_CHAT, topic.message_thread_id)[0],
      5000,
      'the card',
    );
    expect(card.text).toContain("not the requester's order");
    expect(card.text).not.toMatch(/KES 500|USDT|FAILED|polls/);
  });
});
