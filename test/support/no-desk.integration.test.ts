/**
 * Without SUPPORT_CHAT_ID: cases are still stored (Redis) and the user is told honestly that a
 * person will reply later; what they write is kept on the case, and nothing is posted to Telegram
 * groups.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastId, type Rig, SUPPORT_CHAT, startRig, waitForText } from './rig.js';

const USER = 777_401;
let rig: Rig;

beforeAll(async () => {
  rig = await startRig({ noDesk: true });
});

afterAll(async () => {
  await rig?.stop();
});

describe('support without a support chat', () => {
  it('stores the case and the messages, and says a person will reply later', async () => {
    rig.fake.sendText(USER, 'support');
    const answer = await waitForText(rig.fake, USER, 'We have recorded your request');
    expect(answer.text).toContain('it may take a while');
    const user = { channel: 'telegram' as const, id: String(USER) };
    const caseId = await rig.support.store.slot(user, { kind: 'general' });
    expect(caseId).toBeTruthy();
    expect(answer.text).toContain(caseId!);

    rig.fake.sendText(USER, 'My purchase D-abcde-12 failed');
    const userTexts = async () =>
      ((await rig.support.store.get(caseId!))?.events ?? [])
        .filter((e) => e.kind === 'user')
        .map((e) => e.text);
    for (let i = 0; i < 200 && (await userTexts()).length === 0; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(await userTexts()).toEqual(['My purchase D-abcde-12 failed']);
    await rig.engine.idle();
    expect(rig.fake.forumTopics(SUPPORT_CHAT)).toHaveLength(0);
    expect(rig.fake.callsTo('createForumTopic')).toHaveLength(0);
    // No topic, and one acknowledgement that says what happened: the line is in the case, and no
    // team is connected to read it yet (never "went to our support team").
    const ack = await waitForText(rig.fake, USER, `Added to your case ${caseId}`);
    expect(ack.text).toContain('No support team is connected');
    expect(
      rig.fake
        .sentMessages(USER)
        .map((m) => m.text)
        .join('\n'),
    ).not.toContain('went to our support team');
    expect(ack.message_id).toBeGreaterThan(answer.message_id);
    expect(lastId(rig.fake, USER)).toBe(ack.message_id);
  });
});
