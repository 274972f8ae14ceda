/**
 * Limits on costly support actions (issue #24), on the desk as the app wires it (real grammY against
 * the fake Bot API, the sandbox ramp, real Redis for the limits):
 * - the attack: 30 × `/support WD-<made-up id>` from one chat opened 30 forum topics in seconds; now
 *   3 new cases an hour per user, and the rest are told how long to wait (English and Kiswahili);
 * - refund tickets: 3 a day per user, then a refusal with the wait and nothing sent to the ramp;
 * - an agent's `/ticket` on a case about someone else's order is refused unless the agent overrides
 *   it in words (`/ticket not-their-order confirm`); the requester is never told that ticket's number.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadI18n } from '../../src/i18n/index.js';
import { RateLimitedError } from '../../src/limits/index.js';
import { waitArgs } from '../../src/support/limits.js';
import { AGENT, lastId, POLYGON_USDT, type Rig, SUPPORT_CHAT, startRig, WALLET, waitForText } from './rig.js';

const ATTACKER = 777_601;
const TICKETER = 777_602;
const ALICE = 777_603;
const BOB = 777_604;
const FAILED_PHONE = '254700000001';

let rig: Rig;
beforeAll(async () => {
  rig = await startRig({ ownership: true });
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

describe('new support cases per user', () => {
  it('30 × /support WD-<made-up id> from one chat open 3 topics; the rest are told how long to wait', async () => {
    const topicsBefore = rig.fake.forumTopics(SUPPORT_CHAT).length;
    const before = lastId(rig.fake, ATTACKER);
    for (let i = 0; i < 30; i++) rig.fake.sendText(ATTACKER, `/support WD-fake${i}x`);
    await rig.fake.waitFor(
      () => rig.fake.sentMessages(ATTACKER).filter((m) => m.message_id > before).length >= 30,
      // The private chat's pacing (about one message a second after a burst) sets the pace here.
      45_000,
      'an answer to each /support',
    );
    await rig.support.desk.idle();
    const answers = rig.fake
      .sentMessages(ATTACKER)
      .filter((m) => m.message_id > before)
      .map((m) => m.text);
    const refused = answers.filter((t) => t.includes('did not open another one'));
    expect(refused).toHaveLength(27);
    expect(refused[0]).toMatch(/try again in about (\d+) min/);
    const minutes = Number(/about (\d+) min/.exec(refused[0]!)?.[1]);
    expect(minutes).toBeGreaterThan(55);
    expect(minutes).toBeLessThanOrEqual(60);
    expect(rig.fake.forumTopics(SUPPORT_CHAT).length - topicsBefore).toBe(3);
    // Counted in Redis (shared by every replica).
    expect(await rig.redis.zCard(`${rig.prefix}limit:support-cases:telegram:${ATTACKER}`)).toBe(3);

    // Writing in a case already open is not limited.
    rig.fake.sendText(ATTACKER, '/support WD-fake0x');
    await waitForText(rig.fake, ATTACKER, 'WD-fake0x', lastId(rig.fake, ATTACKER));
    expect(rig.fake.forumTopics(SUPPORT_CHAT).length - topicsBefore).toBe(3);
  }, 60_000);

  it('the refusal is in Kiswahili too, in hours for a long wait', () => {
    const i18n = loadI18n();
    const sw = i18n.t('sw', { id: 'support-limited', args: waitArgs(40 * 60_000) });
    expect(sw).toContain('dakika 40');
    const swTicket = i18n.t('sw', { id: 'support-ticket-limited', args: waitArgs(20 * 3600_000) });
    expect(swTicket).toContain('saa 20');
    expect(i18n.t('en', { id: 'support-ticket-limited', args: waitArgs(20 * 3600_000) })).toContain('20 h');
  });
});

describe('refund tickets per user', () => {
  it('3 a day: a fourth is refused with the wait and never reaches the ramp', async () => {
    const user = { channel: 'telegram' as const, id: String(TICKETER) };
    const manual = (n: number) => ({
      side: 'onramp' as const,
      phone: '254711111111',
      amount: String(100 + n),
      description: `manual ticket ${n} from the limits test`,
      userAddress: WALLET,
      symbol: 'USDT',
      tokenAddress: POLYGON_USDT,
      chain: 'polygon' as const,
    });
    const filedBefore = rig.sandbox.tickets().length;
    for (let n = 0; n < 3; n++) await rig.support.desk.fileTicket(user, manual(n), 'user');
    await expect(rig.support.desk.fileTicket(user, manual(3), 'user')).rejects.toBeInstanceOf(
      RateLimitedError,
    );
    expect(rig.sandbox.tickets().length - filedBefore).toBe(3);

    // Through the chat: the ticket for the user's own failed order is refused, with the wait.
    const orderId = await rig.onrampOrder(FAILED_PHONE, user);
    await waitForText(rig.fake, TICKETER, 'did not go through');
    const before = lastId(rig.fake, TICKETER);
    rig.fake.sendText(TICKETER, `/ticket ${orderId}`);
    const ask = await waitForText(rig.fake, TICKETER, 'what went wrong', before);
    rig.fake.sendText(TICKETER, 'I paid but got nothing');
    const refusal = await waitForText(rig.fake, TICKETER, 'did not file this one', ask.message_id);
    expect(refusal.text).toMatch(/try again in about \d+ h/);
    expect(rig.sandbox.tickets().filter((t) => t.orderID === orderId)).toHaveLength(0);
  });
});

describe("an agent's ticket on a case about someone else's order", () => {
  it('is refused unless the agent overrides it in words; the requester is not told its number', async () => {
    const alice = { channel: 'telegram' as const, id: String(ALICE) };
    const orderId = await rig.onrampOrder(FAILED_PHONE, alice);
    await waitForText(rig.fake, ALICE, 'did not go through');
    rig.fake.sendText(BOB, `/support ${orderId}`);
    const topic = await rig.fake.waitFor(
      () => rig.fake.forumTopics(SUPPORT_CHAT).find((t) => t.name.includes(orderId)),
      8000,
      "the case topic for Bob's /support",
    );
    const thread = topic.message_thread_id;
    await rig.fake.waitFor(
      () => topicTexts(thread)[0]?.includes('/ticket not-their-order confirm'),
      8000,
      'the card naming the override',
    );

    rig.fake.sendText(SUPPORT_CHAT, '/ticket', { userId: AGENT, threadId: thread });
    const refused = await waitTopic(thread, 'No ticket filed');
    expect(refused).toContain('/ticket not-their-order confirm');
    // "confirm" alone, or the words in another order, do not override.
    rig.fake.sendText(SUPPORT_CHAT, '/ticket confirm', { userId: AGENT, threadId: thread });
    rig.fake.sendText(SUPPORT_CHAT, '/remind 5', { userId: AGENT, threadId: thread });
    await rig.fake.waitFor(
      () => topicTexts(thread).filter((t) => t.includes('No ticket filed')).length === 2,
      8000,
      'the second refusal',
    );
    await waitTopic(thread, 'is not one this user made here');
    expect(rig.sandbox.tickets().filter((t) => t.orderID === orderId)).toHaveLength(0);

    const bobBefore = lastId(rig.fake, BOB);
    rig.fake.sendText(SUPPORT_CHAT, '/ticket not-their-order confirm', { userId: AGENT, threadId: thread });
    const filed = await waitTopic(thread, 'overriding the warning');
    const tickets = rig.sandbox.tickets().filter((t) => t.orderID === orderId);
    expect(tickets).toHaveLength(1);
    await rig.support.desk.idle();
    await new Promise((r) => setTimeout(r, 300));
    const ticketId = /Ticket (\S+) filed/.exec(filed)?.[1];
    expect(ticketId).toBeTruthy();
    expect(
      rig.fake
        .sentMessages(BOB)
        .filter((m) => m.message_id > bobBefore)
        .map((m) => m.text)
        .join('\n'),
    ).not.toContain(ticketId!);
    const c = await rig.support.desk.caseByTopic(String(SUPPORT_CHAT), thread);
    expect(c?.events.some((e) => e.kind === 'note' && /agent override/.test(e.text ?? ''))).toBe(true);
  });
});
