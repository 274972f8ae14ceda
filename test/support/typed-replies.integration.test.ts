/**
 * Issue #23, the first walk: after an agent's reply the user simply types back (no "Reply" tap),
 * in English and in Swahili, on Telegram and on WhatsApp. The text reaches the case's topic and is
 * acknowledged; after /resolve, a typed reply within the reopen window reopens the case. Agents
 * see in the topic whether their message was delivered. A user without a case still gets "not
 * understood".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { message, waitFor } from '../channels/whatsapp/helpers.js';
import { AGENT, AGENT2, lastId, type Rig, SUPPORT_CHAT, startRig, waitForText } from './rig.js';

const EN_USER = 777_301;
const SW_USER = 777_302;
const NO_CASE_USER = 777_303;
const WA_PHONE = '254722000301';
const WA_JID = `${WA_PHONE}@s.whatsapp.net`;

let rig: Rig;

beforeAll(async () => {
  rig = await startRig({ whatsapp: true, reopenWindowMs: 60 * 60_000 });
  await waitFor(() => rig.whatsapp?.state === 'open', 5000, 'WhatsApp open');
});

afterAll(async () => {
  await rig?.stop();
});

const topicTexts = (threadId: number) => rig.fake.topicMessages(SUPPORT_CHAT, threadId).map((m) => m.text);
const waitTopic = (threadId: number, match: string) =>
  rig.fake.waitFor(
    () => topicTexts(threadId).find((t) => t.includes(match)),
    8000,
    `"${match}" in topic ${threadId}`,
  );

/** Opens a general case for a Telegram user, leaves relay mode, and returns the case's topic. */
async function openAndLeave(user: number, languageCode: string): Promise<number> {
  const topics = rig.fake.forumTopics(SUPPORT_CHAT).length;
  const before = lastId(rig.fake, user);
  rig.fake.sendText(user, '/support', { languageCode });
  await waitForText(rig.fake, user, /support team|huduma/, before);
  const topic = await rig.fake.waitFor(
    () => rig.fake.forumTopics(SUPPORT_CHAT)[topics],
    8000,
    'the new topic',
  );
  const menuAt = lastId(rig.fake, user);
  rig.fake.sendText(user, '/menu', { languageCode });
  await rig.fake.waitFor(() => lastId(rig.fake, user) > menuAt, 8000, 'the menu');
  return topic.message_thread_id;
}

describe('a user types back after an agent wrote', () => {
  it('in English on Telegram: the text reaches the topic, the user is told, the agent sees it delivered', async () => {
    const threadId = await openAndLeave(EN_USER, 'en');
    let before = lastId(rig.fake, EN_USER);
    rig.fake.sendText(SUPPORT_CHAT, 'Which M-Pesa number did you use?', {
      userId: AGENT,
      firstName: 'Amina',
      threadId,
    });
    await waitForText(rig.fake, EN_USER, '💬 Support: Which M-Pesa number', before);
    // Delivered: a 👍 on the agent's message, not a post in the group.
    await rig.fake.waitFor(
      () => rig.fake.reactionLog.some((r) => r.chatId === SUPPORT_CHAT && r.emoji === '👍'),
      8000,
      'the delivered reaction',
    );
    expect(rig.fake.topicMessages(SUPPORT_CHAT, threadId).map((m) => m.text)).not.toContain(
      '✓ Delivered to the user.',
    );

    before = lastId(rig.fake, EN_USER);
    rig.fake.sendText(EN_USER, 'It was 0712 345 678');
    const ack = await waitForText(rig.fake, EN_USER, 'went to our support team', before);
    expect(ack.text).not.toMatch(/did not understand/);
    await waitTopic(threadId, '👤 User: It was 0712 345 678');
  });

  it('in Swahili on Telegram: after /resolve, a typed reply reopens the case and reaches the topic', async () => {
    const threadId = await openAndLeave(SW_USER, 'sw');
    rig.fake.sendText(SUPPORT_CHAT, '/resolve Tumerudisha pesa yako.', { userId: AGENT2, threadId });
    await waitForText(rig.fake, SW_USER, 'Tumerudisha pesa yako');
    await rig.fake.waitFor(() => rig.fake.topicClosed(SUPPORT_CHAT, threadId), 8000, 'topic closed');

    const before = lastId(rig.fake, SW_USER);
    rig.fake.sendText(SW_USER, 'Bado sijapokea pesa', { languageCode: 'sw' });
    const ack = await waitForText(rig.fake, SW_USER, 'Ujumbe wako umefika', before);
    expect(ack.text).not.toMatch(/Samahani, sijaelewa/);
    expect(ack.text).toContain('imefunguliwa tena');
    await waitTopic(threadId, '👤 User: Bado sijapokea pesa');
    await rig.fake.waitFor(() => !rig.fake.topicClosed(SUPPORT_CHAT, threadId), 8000, 'topic reopened');
  });

  it('on WhatsApp: a typed answer after leaving the support chat reaches the topic', async () => {
    const socket = rig.socket!;
    const topics = rig.fake.forumTopics(SUPPORT_CHAT).length;
    socket.receive(message(WA_JID, 'support'));
    await waitFor(
      () => socket.sent.find((s) => s.jid === WA_JID && s.text.includes('talking to our support team')),
      8000,
      'connected',
    );
    const topic = await rig.fake.waitFor(() => rig.fake.forumTopics(SUPPORT_CHAT)[topics], 8000, 'topic');
    socket.receive(message(WA_JID, 'menu'));
    await waitFor(() => socket.sent.some((s) => s.jid === WA_JID && /Main menu|menu/i.test(s.text)), 8000);
    const sentBefore = socket.sent.length;
    rig.fake.sendText(SUPPORT_CHAT, 'Please send the M-Pesa message', {
      userId: AGENT,
      threadId: topic.message_thread_id,
    });
    await waitFor(
      () => socket.sent.slice(sentBefore).some((s) => s.text.includes('Please send the M-Pesa message')),
      8000,
      'agent message on WhatsApp',
    );
    const ackFrom = socket.sent.length;
    socket.receive(message(WA_JID, 'QK12ABC34D confirmed'));
    await waitTopic(topic.message_thread_id, '👤 User: QK12ABC34D confirmed');
    await waitFor(
      () => socket.sent.slice(ackFrom).some((s) => s.text.includes('went to our support team')),
      8000,
      'ack on WhatsApp',
    );
  });

  it('an agent sees in the topic why a message was not delivered (the user blocked the bot)', async () => {
    const BLOCKER = 777_304;
    const threadId = await openAndLeave(BLOCKER, 'en');
    rig.fake.blockChat(BLOCKER);
    rig.fake.sendText(SUPPORT_CHAT, 'Are you there?', { userId: AGENT2, firstName: 'Baraka', threadId });
    const mark = await waitTopic(threadId, 'Not delivered to the user');
    expect(mark).toMatch(/blocked/i);
  });

  it('a user without a case still gets "not understood"', async () => {
    const topics = rig.fake.forumTopics(SUPPORT_CHAT).length;
    const before = lastId(rig.fake, NO_CASE_USER);
    rig.fake.sendText(NO_CASE_USER, 'blah blah');
    await waitForText(rig.fake, NO_CASE_USER, 'did not understand', before);
    expect(rig.fake.forumTopics(SUPPORT_CHAT)).toHaveLength(topics);
  });
});
