/**
 * Issue #23, the third walk: an agent acts on the order the user names. A typed order id links an
 * order-less case to the user's order; `/status D-…` in an order-less case links it too (another
 * user's order is refused); `/ticket` on a pending purchase is refused by the ramp and the agent
 * gets the next step with buttons (re-check, reminder, manual ticket), and the manual ticket is
 * filed once; the card's buttons act for agents only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AGENT,
  AGENT2,
  buttonsOf,
  lastId,
  NOT_AGENT,
  type Rig,
  SUPPORT_CHAT,
  startRig,
  waitForText,
} from './rig.js';

const USER = 777_501;
const OTHER = 777_502;
const PENDING_PHONE = '254700000002';

let rig: Rig;

beforeAll(async () => {
  rig = await startRig({ ownership: true });
});

afterAll(async () => {
  await rig?.stop();
});

const topicMessages = (threadId: number) => rig.fake.topicMessages(SUPPORT_CHAT, threadId);
const topicTexts = (threadId: number) => topicMessages(threadId).map((m) => m.text);
const waitTopic = (threadId: number, match: string) =>
  rig.fake.waitFor(
    () => topicMessages(threadId).find((m) => m.text.includes(match)),
    8000,
    `"${match}" in topic ${threadId}`,
  );

async function openGeneral(user: number): Promise<number> {
  const topics = rig.fake.forumTopics(SUPPORT_CHAT).length;
  const before = lastId(rig.fake, user);
  rig.fake.sendText(user, '/support');
  await waitForText(rig.fake, user, 'support team', before);
  const topic = await rig.fake.waitFor(() => rig.fake.forumTopics(SUPPORT_CHAT)[topics], 8000, 'topic');
  return topic.message_thread_id;
}

describe('an agent acts on the order the user names', () => {
  let orderId: string;
  let threadId: number;

  it('a typed order id links the order-less case to the order (card, topic name)', async () => {
    orderId = await rig.onrampOrder(PENDING_PHONE, { channel: 'telegram', id: String(USER) });
    threadId = await openGeneral(USER);
    rig.fake.sendText(USER, `It is about ${orderId}, still waiting`);
    await waitTopic(threadId, `This case is now about order ${orderId}`);
    await rig.fake.waitFor(
      () =>
        rig.fake
          .forumTopics(SUPPORT_CHAT)
          .find((t) => t.message_thread_id === threadId)
          ?.name.startsWith(orderId),
      8000,
      'the topic renamed after the order',
    );
    await rig.fake.waitFor(() => topicTexts(threadId)[0]?.includes(`Order: ${orderId}`), 8000, 'the card');
  });

  it('/ticket on a pending purchase: the ramp refuses, the agent gets the next step and buttons', async () => {
    rig.fake.sendText(SUPPORT_CHAT, '/ticket', { userId: AGENT, firstName: 'Amina', threadId });
    const next = await waitTopic(threadId, 'Next: order');
    expect(next.text).toContain('still pending');
    expect(buttonsOf(next)).toEqual(
      expect.arrayContaining(
        [`desk:status:`, `desk:remind:`, `desk:manual:`].map((b) => expect.stringContaining(b)),
      ),
    );
    expect(topicTexts(threadId).join('\n')).toContain('No failed transaction found');

    // The manual ticket from the button, pressed by two agents at once: filed once.
    const manual = buttonsOf(next).find((b) => b.startsWith('desk:manual:'))!;
    rig.fake.pressButton(SUPPORT_CHAT, next.message_id, manual, { userId: AGENT });
    rig.fake.pressButton(SUPPORT_CHAT, next.message_id, manual, { userId: AGENT2, firstName: 'Baraka' });
    await waitTopic(threadId, 'Ramp ticket');
    await rig.support.desk.idle();
    await new Promise((r) => setTimeout(r, 300));
    await rig.support.desk.idle();
    const tickets = rig.sandbox.tickets().filter((t) => t.PhoneNumber === PENDING_PHONE);
    expect(tickets).toHaveLength(1);
    expect(tickets[0]).toMatchObject({ userAddress: expect.any(String), symbol: 'USDT', chain: 'polygon' });
  });

  it('the card has the common actions as buttons; a non-agent pressing one is refused', async () => {
    const card = await rig.fake.waitFor(
      () => (buttonsOf(topicMessages(threadId)[0]!).length ? topicMessages(threadId)[0] : undefined),
      8000,
      'card buttons',
    );
    const status = buttonsOf(card).find((b) => b.startsWith('desk:status:'))!;
    expect(buttonsOf(card).some((b) => b.startsWith('desk:resolve:'))).toBe(true);
    const count = topicTexts(threadId).filter((t) => t.includes(`🔎 Order ${orderId} is`)).length;
    rig.fake.pressButton(SUPPORT_CHAT, card.message_id, status, { userId: NOT_AGENT });
    await rig.fake.waitFor(
      () =>
        rig.fake.calls.some(
          (c) =>
            c.method === 'answerCallbackQuery' && c.payload.text === 'Only support agents may act on cases.',
        ),
      8000,
      'the refusal alert',
    );
    rig.fake.pressButton(SUPPORT_CHAT, card.message_id, status, { userId: AGENT2 });
    await rig.fake.waitFor(
      () =>
        topicTexts(threadId).filter((t) => t.includes(`🔎 Order ${orderId} is PENDING`)).length === count + 1,
      8000,
      'one status post',
    );
  });

  it('/support D-… while in an order-less case links that case instead of opening another', async () => {
    const LINKER = 777_503;
    const own = await rig.onrampOrder(PENDING_PHONE, { channel: 'telegram', id: String(LINKER) });
    const thread = await openGeneral(LINKER);
    const topics = rig.fake.forumTopics(SUPPORT_CHAT).length;
    const before = lastId(rig.fake, LINKER);
    rig.fake.sendText(LINKER, `/support ${own}`);
    const answer = await waitForText(rig.fake, LINKER, 'support team', before);
    expect(answer.text).toContain(own);
    await waitTopic(thread, `This case is now about order ${own}`);
    await rig.support.desk.idle();
    expect(rig.fake.forumTopics(SUPPORT_CHAT)).toHaveLength(topics);
  });

  it("/status naming another user's order in an order-less case is refused, nothing linked", async () => {
    const foreign = await rig.onrampOrder(PENDING_PHONE, { channel: 'telegram', id: String(USER) });
    const other = await openGeneral(OTHER);
    rig.fake.sendText(SUPPORT_CHAT, `/status ${foreign}`, { userId: AGENT, threadId: other });
    await waitTopic(other, 'is not one this user made here');
    expect(topicTexts(other).join('\n')).not.toContain(`🔎 Order ${foreign}`);
  });
});
