/**
 * What a case's topic says the user was told is what the platform took: `/resolve <message>` to a
 * user who blocked the bot says in the topic that it was not delivered, and why; to a user who can
 * be reached, that they were told (real grammY, the fake Bot API, the desk wired as in the app).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT, lastId, type Rig, SUPPORT_CHAT, startRig, waitForText } from './rig.js';

let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => {
  await rig?.stop();
});

const topicTexts = (threadId: number) => rig.fake.topicMessages(SUPPORT_CHAT, threadId).map((m) => m.text);
const waitTopic = (threadId: number, match: string) =>
  rig.fake.waitFor(() => topicTexts(threadId).find((t) => t.includes(match)), 8000, `"${match}"`);

async function openCase(user: number): Promise<number> {
  const topics = rig.fake.forumTopics(SUPPORT_CHAT).length;
  const before = lastId(rig.fake, user);
  rig.fake.sendText(user, '/support');
  await waitForText(rig.fake, user, /support team/, before);
  const topic = await rig.fake.waitFor(() => rig.fake.forumTopics(SUPPORT_CHAT)[topics], 8000, 'the topic');
  return topic.message_thread_id;
}

describe('/resolve reports what the user was told', () => {
  it('a user who blocked the bot: the topic says the closing message was not delivered', async () => {
    const user = 777_401;
    const threadId = await openCase(user);
    rig.fake.blockChat(user);
    rig.fake.sendText(SUPPORT_CHAT, '/resolve We refunded you.', {
      userId: AGENT,
      firstName: 'Amina',
      threadId,
    });
    const line = await waitTopic(threadId, 'Closed by Amina');
    expect(line).toMatch(/Not delivered to the user: .*blocked/i);
    expect(topicTexts(threadId).join('\n')).not.toContain('The user was told');
  });

  it('a user who can be reached: the topic says what they were told', async () => {
    const user = 777_402;
    const threadId = await openCase(user);
    const before = lastId(rig.fake, user);
    rig.fake.sendText(SUPPORT_CHAT, '/resolve All sorted.', { userId: AGENT, firstName: 'Amina', threadId });
    await waitForText(rig.fake, user, 'All sorted.', before);
    const line = await waitTopic(threadId, 'Closed by Amina');
    expect(line).toContain('The user was told: All sorted.');
  });
});
