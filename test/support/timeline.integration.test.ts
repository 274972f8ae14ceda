/**
 * The order's timeline on the case card: what the tracker recorded for the order (status changes
 * with the receipt, the crypto release with its hash, the escalation, the final message), newest
 * last, in Kenyan time, with masked data only. Through the app's wiring (real tracker on Redis,
 * real grammY against the fake Bot API, the sandbox over HTTP), plus the card's texts on their own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskPhone } from '../../src/domain/phone.js';
import { loadI18n } from '../../src/i18n/index.js';
import { CARD_ORDER_EVENTS, cardTexts, orderEventText } from '../../src/support/case/card.js';
import type { SupportCase } from '../../src/support/case/case.js';
import { ORDER_EVENT_KINDS, type OrderEvent } from '../../src/tracker/index.js';
import { AGENT, type Rig, SUPPORT_CHAT, startRig, waitForText } from './rig.js';

const USER = 777_401;
const PAID_PHONE = '254711224466';
const STUCK_PHONE = '254700000002';
const EAT_TIME = /^• \d{4}-\d\d-\d\d \d\d:\d\d EAT /;

/** The card's timeline section: the lines under "Order timeline:", up to the next blank line. */
function timelineLines(card: string): string[] {
  const section = card.split('\n\n').find((part) => part.startsWith('Order timeline:'));
  if (!section) throw new Error(`no order timeline on the card:\n${card}`);
  return section.split('\n').slice(1);
}

describe('the case card of a tracked order', () => {
  let rig: Rig;
  const user = { channel: 'telegram' as const, id: String(USER) };

  beforeAll(async () => {
    rig = await startRig({ onrampHorizonMs: 1_500 });
  });

  afterAll(async () => {
    await rig?.stop();
  });

  const cardOf = (orderId: string) =>
    rig.fake.waitFor(
      () => {
        const topic = rig.fake.forumTopics(SUPPORT_CHAT).find((t) => t.name.startsWith(orderId));
        return topic && rig.fake.topicMessages(SUPPORT_CHAT, topic.message_thread_id)[0];
      },
      10_000,
      `the card of ${orderId}`,
    );

  it('lists a paid order from creation to the final message, newest last, with the receipt and the hash', async () => {
    const orderId = await rig.onrampOrder(PAID_PHONE, user);
    const done = await waitForText(rig.fake, USER, 'Done!');
    const release = (rig.sandbox.order(orderId) as { release?: { hash: string } }).release;
    const hash = release?.hash ?? '';
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/i);
    const receipt = /receipt ([A-Z0-9]{10})/.exec(done.text)?.[1];
    expect(receipt).toBeDefined();

    rig.fake.sendText(USER, `/support ${orderId}`);
    const card = await cardOf(orderId);
    const lines = timelineLines(card.text);
    expect(lines.every((l) => EAT_TIME.test(l))).toBe(true);
    const what = lines.map((l) => l.replace(EAT_TIME, ''));
    // Whether the first poll still saw PENDING depends on timing; everything else is fixed.
    expect(what.filter((w) => w !== 'ramp status PENDING')).toEqual([
      'order taken by the tracker',
      `ramp status SUCCESS, M-Pesa receipt ${receipt}`,
      'crypto release started',
      `crypto sent: ${hash.slice(0, 8)}…${hash.slice(-4)}`,
      'final message posted to the user: done',
    ]);
    // The head still has the full hash; the order's phone number is nowhere on the card.
    expect(card.text).toContain(`Release transaction: ${hash}`);
    expect(card.text).not.toContain(PAID_PHONE);
    expect(card.text).not.toContain(maskPhone(PAID_PHONE));
  });

  it('shows a stuck order handed to support, and the final message once the card is refreshed', async () => {
    const orderId = await rig.onrampOrder(STUCK_PHONE, user);
    const card = await cardOf(orderId);
    const what = timelineLines(card.text).map((l) => l.replace(EAT_TIME, ''));
    // The topic is made at the support chat's pace, after the user was told: the final note may be in.
    expect(what.slice(0, 3)).toEqual([
      'order taken by the tracker',
      'ramp status PENDING',
      'handed to support: the order is past its time limit',
    ]);
    expect(what.slice(3)).toEqual(
      what.length > 3 ? ['final message posted to the user: handed to support'] : [],
    );
    expect(card.text).not.toContain(STUCK_PHONE);

    // The user is told first (the reason), then support is alerted; the final note follows both, so
    // the agent's next /status shows it.
    await waitForText(rig.fake, USER, 'taking longer than it should');
    await waitForText(rig.fake, USER, 'We opened support case');
    const said = rig.fake.sentMessages(USER).map((m) => String(m.text));
    expect(said.findIndex((t) => t.includes('taking longer than it should'))).toBeLessThan(
      said.findIndex((t) => t.includes('We opened support case')),
    );
    const topic = rig.fake.forumTopics(SUPPORT_CHAT).find((t) => t.name.startsWith(orderId))!;
    const posted = () => {
      const first = rig.fake.topicMessages(SUPPORT_CHAT, topic.message_thread_id)[0];
      return first?.text.includes('final message posted') ? first : undefined;
    };
    for (let i = 0; i < 20 && !posted(); i++) {
      rig.fake.sendText(SUPPORT_CHAT, '/status', { userId: AGENT, threadId: topic.message_thread_id });
      await new Promise((r) => setTimeout(r, 250));
    }
    const refreshed = posted()!;
    expect(refreshed).toBeDefined();
    expect(timelineLines(refreshed.text).at(-1)).toMatch(
      /EAT final message posted to the user: handed to support$/,
    );
  });
});

describe('the card texts of an order timeline', () => {
  const i18n = loadI18n();
  const supportCase: SupportCase = {
    id: 'S-abcde-XYZW',
    user: { channel: 'whatsapp', id: '254722000111' },
    orderId: 'OR-timeline-1',
    side: 'onramp',
    status: 'open',
    reason: 'horizon',
    openedAt: 1,
    updatedAt: 1,
    events: [],
  };

  it('keeps the newest entries, newest last, and says how many earlier ones are left out', () => {
    const timeline: OrderEvent[] = Array.from({ length: CARD_ORDER_EVENTS + 3 }, (_, i) => ({
      kind: 'deposit_refused',
      reason: `r${i}`,
      at: 1_000 * i,
    }));
    const card = cardTexts(supportCase, { timeline });
    expect(card.order).toHaveLength(CARD_ORDER_EVENTS);
    expect(card.order[0]!.at).toBe(3_000);
    expect(card.order.at(-1)).toEqual({
      at: 1_000 * (CARD_ORDER_EVENTS + 2),
      what: { id: 'support-order-deposit-refused', args: { reason: `r${CARD_ORDER_EVENTS + 2}` } },
    });
    expect(card.orderMore).toEqual({ id: 'support-card-history-more', args: { count: 3 } });
    expect(cardTexts(supportCase).order).toEqual([]);
  });

  it('has a line for every kind, in English and in Kiswahili', () => {
    const samples: OrderEvent[] = ORDER_EVENT_KINDS.map((kind) => ({
      kind,
      at: 0,
      status: 'FAILED',
      reason: kind === 'escalated' ? 'deposit_unknown' : 'timeout',
      hash: `0x${'ab'.repeat(32)}`,
      outcome: 'failed',
    }));
    for (const e of samples) {
      const text = orderEventText(e);
      expect(i18n.hasIn('en', text.id)).toBe(true);
      expect(i18n.hasIn('sw', text.id)).toBe(true);
      const en = i18n.t('en', text);
      const sw = i18n.t('sw', text);
      expect(en).not.toBe(sw);
      expect(en).not.toMatch(/\{|\$/);
      expect(sw).not.toMatch(/\{|\$/);
    }
    expect(i18n.t('en', orderEventText(samples[1]!))).toBe('ramp status FAILED: the M-Pesa prompt timed out');
    expect(i18n.t('sw', orderEventText(samples[1]!))).toBe(
      'hali kwenye huduma ya malipo: FAILED: muda wa ombi la M-Pesa uliisha',
    );
  });
});
