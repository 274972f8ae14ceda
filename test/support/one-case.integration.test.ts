/**
 * Issue #23, the fifth walk: one case per problem. `/support`, which the close message tells the
 * user to send, reopens the order's case (same topic) instead of opening an order-less one; two
 * agents' `/ticket` at once file one ticket; agents are shown by name; `/cases` in the support
 * chat's general topic lists the open cases, oldest first, for agents only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT, AGENT2, lastId, NOT_AGENT, type Rig, SUPPORT_CHAT, startRig, waitForText } from './rig.js';

const USER = 777_701;
const LATER_USER = 777_702;
const FAILED_PHONE = '254700000001';

let rig: Rig;

beforeAll(async () => {
  rig = await startRig({ ownership: true, reopenWindowMs: 60 * 60_000 });
});

afterAll(async () => {
  await rig?.stop();
});

const topicTexts = (threadId: number) => rig.fake.topicMessages(SUPPORT_CHAT, threadId).map((m) => m.text);
const general = () => rig.fake.sentMessages(SUPPORT_CHAT).filter((m) => !m.message_thread_id);

describe('one case per problem', () => {
  let orderId: string;
  let threadId: number;

  it('two agents filing the ticket at once file it once; agents are named', async () => {
    orderId = await rig.onrampOrder(FAILED_PHONE, { channel: 'telegram', id: String(USER) });
    await rig.fake.waitFor(
      () => rig.fake.sentMessages(USER).some((m) => m.text.includes(orderId)),
      8000,
      'the order message',
    );
    const before = lastId(rig.fake, USER);
    rig.fake.sendText(USER, `/support ${orderId}`, { languageCode: 'sw' });
    await waitForText(rig.fake, USER, 'Sasa unaongea', before);
    const topic = await rig.fake.waitFor(() => rig.fake.forumTopics(SUPPORT_CHAT)[0], 8000, 'topic');
    threadId = topic.message_thread_id;
    await rig.fake.waitFor(async () => (await rig.ramp.getOnrampStatus(orderId)).status === 'FAILED', 8000);

    rig.fake.sendText(SUPPORT_CHAT, '/ticket', { userId: AGENT, firstName: 'Amina', threadId });
    rig.fake.sendText(SUPPORT_CHAT, '/ticket', { userId: AGENT2, firstName: 'Baraka', threadId });
    await rig.fake.waitFor(
      () => topicTexts(threadId).some((t) => /Ramp ticket .* filed/.test(t)),
      8000,
      'the answer',
    );
    // Both asks were seen at once (👀); one filing answers both.
    await rig.fake.waitFor(
      () => rig.fake.reactionLog.filter((r) => r.chatId === SUPPORT_CHAT && r.emoji === '👀').length >= 2,
      8000,
      'both seen',
    );
    await rig.support.desk.idle();
    expect(rig.sandbox.tickets().filter((t) => t.orderID === orderId)).toHaveLength(1);
    expect(topicTexts(threadId).filter((t) => /Ramp ticket .* filed/.test(t))).toHaveLength(1);
    await rig.fake.waitFor(
      () => /filed by (Amina|Baraka)/.test(topicTexts(threadId)[0] ?? ''),
      8000,
      'the filing agent named on the card',
    );
  });

  it("after /resolve, the /support the close message asks for reopens the order's case and topic", async () => {
    rig.fake.sendText(SUPPORT_CHAT, '/resolve Tiketi imefunguliwa.', {
      userId: AGENT,
      firstName: 'Amina',
      threadId,
    });
    const closed = await waitForText(rig.fake, USER, 'Tiketi imefunguliwa.');
    expect(closed.text).toContain('/support');
    await rig.fake.waitFor(() => topicTexts(threadId).some((t) => t.includes('Closed by Amina')), 8000);
    expect(topicTexts(threadId).join('\n')).not.toMatch(/agent 501|by 501/);

    const topics = rig.fake.forumTopics(SUPPORT_CHAT).length;
    const before = lastId(rig.fake, USER);
    rig.fake.sendText(USER, '/support', { languageCode: 'sw' });
    const back = await waitForText(rig.fake, USER, 'imefunguliwa tena', before);
    expect(back.text).toContain(orderId);
    await rig.fake.waitFor(() => !rig.fake.topicClosed(SUPPORT_CHAT, threadId), 8000, 'topic reopened');
    await rig.support.desk.idle();
    expect(rig.fake.forumTopics(SUPPORT_CHAT)).toHaveLength(topics);
  });

  it('/cases in the general topic lists the open cases, oldest first, for agents only', async () => {
    const later = lastId(rig.fake, LATER_USER);
    rig.fake.sendText(LATER_USER, '/support');
    await waitForText(rig.fake, LATER_USER, 'support team', later);
    await rig.fake.waitFor(() => rig.fake.forumTopics(SUPPORT_CHAT).length === 2, 8000, 'second topic');

    const shown = general().length;
    rig.fake.sendText(SUPPORT_CHAT, '/cases', { userId: NOT_AGENT });
    rig.fake.sendText(SUPPORT_CHAT, '/cases', { userId: AGENT2 });
    const list = await rig.fake.waitFor(
      () =>
        general()
          .slice(shown)
          .find((m) => m.text.includes('Open cases')),
      8000,
      'the case list',
    );
    expect(general().slice(shown)).toHaveLength(1);
    const first = list.text.indexOf(orderId);
    const second = list.text.indexOf(' · - · ');
    expect(first).toBeGreaterThan(0);
    expect(second).toBeGreaterThan(first);
  });
});
