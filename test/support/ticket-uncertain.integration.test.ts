/**
 * A refund ticket whose filing answers 5xx after the ramp filed it (a proxy in front of the sandbox):
 * the user is told an agent will check it, not "try again"; the agents' case says the ticket may
 * exist; asking again files no second ticket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastId, type Rig, SUPPORT_CHAT, startRig, waitForText } from './rig.js';

const USER = 777_401;
const FAILED_PHONE = '254700000001';
const user = { channel: 'telegram' as const, id: String(USER) };

let rig: Rig;
beforeAll(async () => {
  rig = await startRig({ ownership: true, ticketAnswers502: true });
});
afterAll(async () => {
  await rig?.stop();
});

describe('a ticket filing that answers 5xx', () => {
  it('goes to an agent with what is known, and is never filed twice', async () => {
    const orderId = await rig.onrampOrder(FAILED_PHONE, user);
    await waitForText(rig.fake, USER, 'did not go through');

    let before = lastId(rig.fake, USER);
    rig.fake.sendText(USER, `/ticket ${orderId}`);
    const ask = await waitForText(rig.fake, USER, 'what went wrong', before);
    rig.fake.sendText(USER, 'I paid but got nothing');
    const told = await waitForText(
      rig.fake,
      USER,
      'could not confirm that your refund ticket was filed',
      ask.message_id,
    );
    expect(told.text).toMatch(/case S-/);
    expect(rig.sandbox.tickets().filter((t) => t.orderID === orderId)).toHaveLength(1);

    const topic = await rig.fake.waitFor(
      () => rig.fake.forumTopics(SUPPORT_CHAT).find((t) => t.name.includes(orderId)),
      5000,
      'the case topic',
    );
    const notes = () =>
      rig.fake
        .topicMessages(SUPPORT_CHAT, topic.message_thread_id)
        .map((m) => m.text)
        .join('\n');
    await rig.fake.waitFor(() => notes().includes('may or may not have been filed'), 5000, 'the agents note');

    before = lastId(rig.fake, USER);
    rig.fake.sendText(USER, `/ticket ${orderId}`);
    const again = await waitForText(rig.fake, USER, 'what went wrong', before);
    rig.fake.sendText(USER, 'still nothing');
    await rig.fake.waitFor(() => lastId(rig.fake, USER) > again.message_id, 5000, 'an answer');
    await rig.engine.idle();
    expect(rig.sandbox.tickets().filter((t) => t.orderID === orderId)).toHaveLength(1);
  });
});
