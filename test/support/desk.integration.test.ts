/**
 * The support desk end to end on Telegram: a user's case gets a topic with its card in the support
 * chat, messages are relayed both ways, agents act with /status, /ticket, /resolve and /reopen,
 * non-agents are refused, and a resolved case reopens within the window (a new case after it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskPhone } from '../../src/domain/phone.js';
import { AGENT, buttonsOf, lastId, NOT_AGENT, type Rig, SUPPORT_CHAT, startRig, waitForText } from './rig.js';

const USER = 777_101;
const PHONE = '254712345678';
const FAILED_PHONE = '254700000001';

let rig: Rig;
let orderId: string;
let threadId: number;

beforeAll(async () => {
  rig = await startRig({ reopenWindowMs: 60 * 60_000 });
  // The user saves their M-Pesa number by sharing the contact, then asks for a person about a failed order.
  orderId = await rig.onrampOrder(FAILED_PHONE, { channel: 'telegram', id: String(USER) }, false);
  rig.fake.shareContact(USER, `+${PHONE}`);
  await waitForText(rig.fake, USER, /saved|imehifadhiwa/i);
});

afterAll(async () => {
  await rig?.stop();
});

const topicTexts = () => rig.fake.topicMessages(SUPPORT_CHAT, threadId).map((m) => m.text);
const card = () => {
  const first = rig.fake.topicMessages(SUPPORT_CHAT, threadId)[0];
  if (!first) throw new Error('no card');
  return first;
};

describe('a case opened by the user', () => {
  it('creates a topic named after the order and the masked phone, with a pinned card', async () => {
    const before = lastId(rig.fake, USER);
    rig.fake.sendText(USER, `/support ${orderId}`);
    const answer = await waitForText(rig.fake, USER, 'talking to our support team', before);
    expect(answer.text).toContain(orderId);
    expect(answer.text).toContain('/menu');

    const topic = await rig.fake.waitFor(() => rig.fake.forumTopics(SUPPORT_CHAT)[0], 5000, 'a topic');
    threadId = topic.message_thread_id;
    expect(topic.name).toBe(`${orderId} · ${maskPhone(PHONE)}`);
    expect(topic.name).not.toContain(PHONE);

    const c = await rig.fake.waitFor(
      () => rig.fake.topicMessages(SUPPORT_CHAT, threadId)[0],
      5000,
      'the card',
    );
    expect(c.text).toContain('OPEN');
    expect(c.text).toContain(`Order: ${orderId} (purchase)`);
    expect(c.text).toContain(`Phone: ${maskPhone(PHONE)}`);
    expect(c.text).toContain('the user asked for a person');
    expect(c.text).not.toContain(PHONE);
    await rig.fake.waitFor(
      () => rig.fake.pinnedMessages(SUPPORT_CHAT).includes(c.message_id),
      5000,
      'the pin',
    );
  });

  it("relays the user's messages into the topic, escaped", async () => {
    rig.fake.sendText(USER, 'I paid <b>500</b> & got nothing');
    const relayed = await rig.fake.waitFor(
      () => rig.fake.topicMessages(SUPPORT_CHAT, threadId).find((m) => m.text.includes('I paid')),
      5000,
      'the relayed message',
    );
    expect(relayed.text).toBe('👤 User: I paid <b>500</b> & got nothing');
    expect(relayed.entities).toEqual([]);
  });

  it("relays an agent's message to the user's chat, with a reply button", async () => {
    const before = lastId(rig.fake, USER);
    rig.fake.sendText(SUPPORT_CHAT, 'We are checking your payment <now>', { userId: AGENT, threadId });
    const got = await waitForText(rig.fake, USER, 'We are checking', before);
    expect(got.text).toBe('💬 Support: We are checking your payment <now>');
    expect(buttonsOf(got)).toContain(`support:reply:${await caseId()}`);
    // Seen at once, then delivered: reactions on the agent's message, no post in the group.
    const reacted = () => rig.fake.reactionLog.filter((r) => r.chatId === SUPPORT_CHAT).map((r) => r.emoji);
    await rig.fake.waitFor(() => reacted().includes('👍'), 5000, 'delivered');
    expect(reacted()).toContain('👀');
    expect(topicTexts()).not.toContain('✓ Delivered to the user.');
  });

  it('refuses a non-agent in the topic and passes nothing on', async () => {
    const before = lastId(rig.fake, USER);
    const topicBefore = topicTexts().length;
    rig.fake.sendText(SUPPORT_CHAT, '/resolve bye', { userId: NOT_AGENT, threadId });
    rig.fake.sendText(SUPPORT_CHAT, 'hello from a stranger', { userId: NOT_AGENT, threadId });
    await rig.fake.waitFor(
      () => topicTexts().filter((t) => t.includes('Only support agents')).length >= 2,
      5000,
      'two refusals',
    );
    expect(topicTexts().length).toBe(topicBefore + 2);
    expect(lastId(rig.fake, USER)).toBe(before);
    expect(rig.fake.topicClosed(SUPPORT_CHAT, threadId)).toBe(false);
    const stored = await rig.support.store.get(await caseId());
    expect(stored?.status).toBe('open');
  });

  it('/status polls the ramp and posts the state; the card shows it', async () => {
    await rig.fake.waitFor(async () => (await rig.ramp.getOnrampStatus(orderId)).status === 'FAILED', 5000);
    rig.fake.sendText(SUPPORT_CHAT, '/status', { userId: AGENT, threadId });
    await rig.fake.waitFor(
      () => topicTexts().some((t) => t.startsWith(`🔎 Order ${orderId} is FAILED.`)),
      5000,
      'status',
    );
    await rig.fake.waitFor(() => card().text.includes('Order state: FAILED'), 5000, 'card state');
  });

  it('/ticket files the ramp ticket once, posts its id, updates the card and tells the user', async () => {
    const before = lastId(rig.fake, USER);
    rig.fake.sendText(SUPPORT_CHAT, '/ticket', { userId: AGENT, threadId });
    const told = await waitForText(rig.fake, USER, 'filed refund ticket', before);
    const ticket = rig.sandbox.tickets().at(-1)!;
    expect(ticket._id).toBeTruthy();
    expect(told.text).toContain(ticket._id);
    expect(told.text).toContain(orderId);
    await rig.fake.waitFor(
      () => topicTexts().some((t) => t.includes(`Ramp ticket ${ticket._id} filed`)),
      5000,
    );
    await rig.fake.waitFor(
      () => card().text.includes(`Ramp ticket: ${ticket._id}`),
      5000,
      'ticket on the card',
    );

    // Again: the same ticket, nothing new at the ramp.
    const count = rig.sandbox.tickets().length;
    rig.fake.sendText(SUPPORT_CHAT, '/ticket', { userId: AGENT, threadId });
    await rig.fake.waitFor(() => topicTexts().some((t) => t.includes('already has ramp ticket')), 5000);
    expect(rig.sandbox.tickets().length).toBe(count);
  });

  it('/resolve from an agent closes the case and the topic and tells the user', async () => {
    rig.fake.sendText(USER, 'anything new?');
    await rig.fake.waitFor(() => topicTexts().some((t) => t.includes('anything new?')), 5000);
    const before = lastId(rig.fake, USER);
    rig.fake.sendText(SUPPORT_CHAT, '/resolve Your refund was sent to M-Pesa.', { userId: AGENT, threadId });
    const told = await waitForText(rig.fake, USER, 'closed your case', before);
    expect(told.text).toContain('Your refund was sent to M-Pesa.');
    expect(told.text).toContain(orderId);
    await rig.fake.waitFor(() => rig.fake.topicClosed(SUPPORT_CHAT, threadId), 5000, 'topic closed');
    await rig.fake.waitFor(() => card().text.includes('CLOSED'), 5000, 'card closed');
    expect((await rig.support.store.get(await caseId()))?.status).toBe('closed');
    // Relay mode ended with the case (a typed reply reopens it: test/support/typed-replies).
  });

  it('reopens the same case and topic when the user comes back about the order within the window', async () => {
    const id = await caseId();
    const before = lastId(rig.fake, USER);
    rig.fake.pressButton(USER, before, `support:order:${orderId}`);
    await waitForText(rig.fake, USER, 'has been reopened', before);
    // The topic's state follows in the group's budget, behind the user's answer.
    await rig.fake.waitFor(() => !rig.fake.topicClosed(SUPPORT_CHAT, threadId), 5000, 'topic reopened');
    await rig.fake.waitFor(() => topicTexts().some((t) => t.includes('reopened by the user')), 5000);
    expect(rig.fake.forumTopics(SUPPORT_CHAT)).toHaveLength(1);
    expect(await caseId()).toBe(id);
    expect((await rig.support.store.get(id))?.status).toBe('open');
  });

  it('after the window, coming back about the order opens a new case with a new topic', async () => {
    const old = await caseId();
    rig.fake.sendText(SUPPORT_CHAT, '/resolve Done.', { userId: AGENT, threadId });
    await rig.fake.waitFor(() => rig.fake.topicClosed(SUPPORT_CHAT, threadId), 5000, 'closed again');
    rig.clock.offsetMs = 2 * 60 * 60_000;
    try {
      const before = lastId(rig.fake, USER);
      rig.fake.sendText(USER, `/support ${orderId}`);
      const answer = await waitForText(rig.fake, USER, 'talking to our support team', before);
      const fresh = await caseId();
      expect(fresh).not.toBe(old);
      expect(answer.text).toContain(fresh);
      await rig.fake.waitFor(() => rig.fake.forumTopics(SUPPORT_CHAT).length === 2, 5000, 'a second topic');
      expect((await rig.support.store.get(old))?.status).toBe('closed');
    } finally {
      rig.clock.offsetMs = 0;
    }
  });
});

async function caseId(): Promise<string> {
  const id = await rig.support.store.slot(
    { channel: 'telegram', id: String(USER) },
    { kind: 'order', orderId },
  );
  if (!id) throw new Error('no case for the order');
  return id;
}
