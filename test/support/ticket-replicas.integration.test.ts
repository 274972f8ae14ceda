/**
 * Issue #32: one ticket POST per order whichever agents press at once, on whichever app instance,
 * pending orders included. Two instances share Redis; one polls the fake Bot API, the other is
 * handed its agent's update directly. The sandbox counts every ticket POST, refused ones included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Replica, startReplica } from './replica.js';
import { AGENT, AGENT2, lastId, type Rig, SUPPORT_CHAT, startRig, waitForText } from './rig.js';

const PENDING_PHONE = '254700000002';
const FAILED_PHONE = '254700000001';

let rig: Rig;
let replica: Replica;

beforeAll(async () => {
  rig = await startRig({ ownership: true });
  replica = await startReplica(rig);
});

afterAll(async () => {
  await replica?.stop();
  await rig?.stop();
});

const texts = (threadId: number) => rig.fake.topicMessages(SUPPORT_CHAT, threadId).map((m) => m.text);
const count = (threadId: number, part: string) => texts(threadId).filter((t) => t.includes(part)).length;

/** A case about a new order of `user`'s, opened by the user; its topic's thread id. */
async function caseAbout(user: number, phone: string): Promise<{ orderId: string; threadId: number }> {
  const orderId = await rig.onrampOrder(phone, { channel: 'telegram', id: String(user) });
  const before = lastId(rig.fake, user);
  rig.fake.sendText(user, `/support ${orderId}`);
  await waitForText(rig.fake, user, 'support team', before);
  const topic = await rig.fake.waitFor(
    () => rig.fake.forumTopics(SUPPORT_CHAT).find((t) => t.name.startsWith(orderId)),
    8000,
    `the topic of ${orderId}`,
  );
  const threadId = topic.message_thread_id;
  // The card is posted once the topic is the case's (agents see it before they act).
  await rig.fake.waitFor(() => texts(threadId)[0]?.includes(`Order: ${orderId}`), 8000, 'the card');
  return { orderId, threadId };
}

/** Both instances' desk work done, and no late post after a moment. */
async function settled(): Promise<void> {
  for (let i = 0; i < 2; i++) {
    await Promise.all([rig.support.desk.idle(), replica.idle()]);
    await new Promise((r) => setTimeout(r, 400));
  }
}

/** Agent 1's `/ticket` through the polled instance, agent 2's through the other, at once. */
function pressBoth(threadId: number, args = ''): Promise<void> {
  const text = `/ticket${args ? ` ${args}` : ''}`;
  rig.fake.sendText(SUPPORT_CHAT, text, { userId: AGENT, firstName: 'Amina', threadId });
  return replica.handle(
    rig.fake.textUpdate(SUPPORT_CHAT, text, { userId: AGENT2, firstName: 'Baraka', threadId }),
  );
}

describe('two agents file the ticket of a pending purchase on two instances', () => {
  it('at once: one POST, one refusal, one ⏭ Next; the other agent is told', async () => {
    const { threadId } = await caseAbout(777_601, PENDING_PHONE);
    const before = rig.sandbox.ticketCallCount();
    await pressBoth(threadId);
    await rig.fake.waitFor(() => count(threadId, 'Next: order') > 0, 8000, 'the next step');
    await settled();
    expect(rig.sandbox.ticketCallCount() - before).toBe(1);
    expect(count(threadId, 'Next: order')).toBe(1);
    expect(count(threadId, 'The ramp did not take the ticket')).toBe(1);
    // The second press is answered in words: being filed, or refused just now.
    expect(texts(threadId).some((t) => /filing the ticket|refused this ticket/.test(t))).toBe(true);
  });

  it('a second press right after the refusal (another instance) joins it: no second POST', async () => {
    const { threadId } = await caseAbout(777_602, PENDING_PHONE);
    const before = rig.sandbox.ticketCallCount();
    rig.fake.sendText(SUPPORT_CHAT, '/ticket', { userId: AGENT, threadId });
    await rig.fake.waitFor(() => count(threadId, 'Next: order') > 0, 8000, 'the next step');
    await replica.handle(rig.fake.textUpdate(SUPPORT_CHAT, '/ticket', { userId: AGENT2, threadId }));
    await rig.fake.waitFor(() => count(threadId, 'refused this ticket') > 0, 8000, 'the join');
    await settled();
    expect(rig.sandbox.ticketCallCount() - before).toBe(1);
    expect(count(threadId, 'Next: order')).toBe(1);
    // The manual form the ⏭ Next offers is not held back by the refusal of the ticket by number;
    // both agents asking for it at once on the two instances file it once too.
    await pressBoth(threadId, 'manual');
    await rig.fake.waitFor(() => count(threadId, 'Ramp ticket') > 0, 8000, 'the manual ticket');
    await settled();
    expect(rig.sandbox.ticketCallCount() - before).toBe(2);
    expect(count(threadId, 'filed for order')).toBe(1);
  });
});

describe('two agents file the ticket of a failed purchase on two instances', () => {
  it('at once: one ticket, the user told once', async () => {
    const user = 777_603;
    const { orderId, threadId } = await caseAbout(user, FAILED_PHONE);
    await rig.fake.waitFor(
      () => rig.fake.sentMessages(user).some((m) => m.text.includes('did not go through')),
      8000,
      'the failure',
    );
    const before = rig.sandbox.ticketCallCount();
    await pressBoth(threadId);
    await rig.fake.waitFor(() => count(threadId, 'Ramp ticket') > 0, 8000, 'the ticket');
    await settled();
    expect(rig.sandbox.ticketCallCount() - before).toBe(1);
    expect(rig.sandbox.tickets().filter((t) => t.orderID === orderId)).toHaveLength(1);
    expect(rig.fake.sentMessages(user).filter((m) => m.text.includes('Our support team filed'))).toHaveLength(
      1,
    );
  });
});
