/**
 * What the support group's budget is spent on (issue 32): one ticket filing per order however many
 * agents press at once (a pending order included), a user's lines typed together go as one post,
 * the card is a view (its edits coalesced to the latest state), and an agent's message is
 * acknowledged by reactions instead of a post.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AGENT, AGENT2, lastId, type Rig, SUPPORT_CHAT, startRig, waitForText } from './rig.js';

const PENDING_PHONE = '254700000002';
let rig: Rig;

beforeAll(async () => {
  rig = await startRig({
    ownership: true,
    budget: {
      gatherMs: 400,
      maxGatherMs: 1000,
      cardIntervalMs: 1000,
      cardMaxLagMs: 1500,
      quietMs: 100,
      windowMs: 2000,
    },
  });
});

afterAll(async () => {
  await rig?.stop();
});

const topicTexts = (threadId: number) => rig.fake.topicMessages(SUPPORT_CHAT, threadId).map((m) => m.text);

async function openCase(user: number, text: string): Promise<number> {
  const topics = rig.fake.forumTopics(SUPPORT_CHAT).length;
  const before = lastId(rig.fake, user);
  rig.fake.sendText(user, text);
  await waitForText(rig.fake, user, 'support team', before);
  const topic = await rig.fake.waitFor(() => rig.fake.forumTopics(SUPPORT_CHAT)[topics], 8000, 'topic');
  await rig.support.desk.idle();
  return topic.message_thread_id;
}

describe('the support group spends its budget on what agents need', () => {
  it('two agents pressing /ticket on a pending order: one POST, one refusal, one next step', async () => {
    const user = 778_001;
    const orderId = await rig.onrampOrder(PENDING_PHONE, { channel: 'telegram', id: String(user) });
    const threadId = await openCase(user, `/support ${orderId}`);
    const posts = vi.spyOn(rig.ramp, 'createTicket');
    rig.fake.sendText(SUPPORT_CHAT, '/ticket', { userId: AGENT, firstName: 'Amina', threadId });
    rig.fake.sendText(SUPPORT_CHAT, '/ticket', { userId: AGENT2, firstName: 'Baraka', threadId });
    await rig.fake.waitFor(() => topicTexts(threadId).some((t) => t.includes('Next: order')), 8000, 'next');
    await new Promise((r) => setTimeout(r, 500));
    await rig.support.desk.idle();
    expect(posts).toHaveBeenCalledTimes(1);
    expect(topicTexts(threadId).filter((t) => t.includes('No failed transaction found'))).toHaveLength(1);
    expect(topicTexts(threadId).filter((t) => t.includes('Next: order'))).toHaveLength(1);
    posts.mockRestore();
  });

  it("a user's lines typed together reach the topic as one post", async () => {
    const user = 778_002;
    const threadId = await openCase(user, '/support');
    const before = topicTexts(threadId).length;
    for (const line of ['I paid', 'but got nothing', 'please help']) rig.fake.sendText(user, line);
    await rig.fake.waitFor(
      () => topicTexts(threadId).some((t) => t.includes('please help')),
      8000,
      'the lines in the topic',
    );
    await rig.support.desk.idle();
    const added = topicTexts(threadId).slice(before);
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/I paid[\s\S]*but got nothing[\s\S]*please help/);
  });

  it('the card is a view: many changes, few edits, the latest state shown', async () => {
    const user = 778_003;
    const threadId = await openCase(user, '/support');
    const card = rig.fake.topicMessages(SUPPORT_CHAT, threadId)[0]!;
    const edits = () =>
      rig.fake
        .callsTo('editMessageText', SUPPORT_CHAT)
        .filter((c) => c.payload.message_id === card.message_id);
    const before = edits().length;
    for (let i = 0; i < 5; i++)
      rig.fake.sendText(SUPPORT_CHAT, `Checking ${i}`, { userId: AGENT, firstName: 'Amina', threadId });
    await rig.fake.waitFor(
      () => rig.fake.topicMessages(SUPPORT_CHAT, threadId)[0]?.text.includes('Checking 4'),
      8000,
      'the card shows the last message',
    );
    await rig.support.desk.idle();
    expect(edits().length - before).toBeLessThanOrEqual(2);
    // Acknowledged by reactions (seen, delivered), not by posts in the group.
    expect(topicTexts(threadId).filter((t) => t.includes('Delivered'))).toHaveLength(0);
  });
});
