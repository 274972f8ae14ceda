/** The support and ticket flows as pure transitions, and the support texts in both languages. */
import { describe, expect, it } from 'vitest';
import { transition } from '../../src/app/flows.js';
import { findOrderId } from '../../src/domain/order-id.js';
import { initialSession, type Session } from '../../src/flows/index.js';
import type { Effect, FlowContext, Input } from '../../src/flows/types.js';
import { loadI18n } from '../../src/i18n/index.js';

const ctx: FlowContext = {
  now: 1_752_150_000_000,
  user: { channel: 'telegram', id: '1' },
  config: { rateTolerancePct: 1, project: 'test' },
};

function run(inputs: Input[], session: Session = initialSession()) {
  let s = session;
  let effects: Effect[] = [];
  for (const input of inputs) ({ state: s, effects } = transition(s, input, ctx));
  return { session: s, effects };
}
const textIds = (effects: Effect[]) =>
  effects.flatMap((e) => (e.type === 'send' ? e.message.texts.map((t) => t.id) : []));

describe('order ids in what people type', () => {
  it('finds D- and WD- ids anywhere, normalising the prefix', () => {
    expect(findOrderId('about wd-d6v5j-FB please')).toBe('WD-d6v5j-FB');
    expect(findOrderId('D-ri3b1-7H.')).toBe('D-ri3b1-7H');
    expect(findOrderId('ADD-ri3b1-7H')).toBeUndefined();
    expect(findOrderId('no order here')).toBeUndefined();
  });
});

describe('talking to a person', () => {
  const opened: Input = {
    kind: 'support',
    outcome: { action: 'open', caseId: 'S-1', orderId: 'D-ri3b1-7H', status: 'opened', desk: true },
  };

  it('opens the case, then relays texts (with the case id) until /menu', () => {
    const start = run([{ kind: 'command', command: 'support', args: 'D-ri3b1-7H' }]);
    expect(start.effects).toEqual([{ type: 'support', request: { action: 'open', orderId: 'D-ri3b1-7H' } }]);
    const relay = run([opened, { kind: 'text', text: 'hello' }], start.session);
    expect(relay.effects).toEqual([
      { type: 'support', request: { action: 'relay', text: 'hello', caseId: 'S-1', orderId: 'D-ri3b1-7H' } },
    ]);
    const menu = run([{ kind: 'text', text: 'menu' }], relay.session);
    expect(menu.session.flow).toEqual({ name: 'menu' });
    expect(menu.effects.some((e) => e.type === 'support')).toBe(false);
  });

  it('says honestly when no agent chat is configured', () => {
    const start = run([{ kind: 'button', id: 'support:open' }]);
    const ids = textIds(
      run(
        [{ kind: 'support', outcome: { action: 'open', caseId: 'S-2', status: 'opened', desk: false } }],
        start.session,
      ).effects,
    );
    expect(ids).toContain('support-recorded');
    expect(ids).not.toContain('support-connected');
    // Each line after is said to be added to the case, never to have reached a team.
    const relay = { action: 'relay', caseId: 'S-2', status: 'existing', desk: false } as const;
    const line = run([{ kind: 'support', outcome: relay }], start.session);
    expect(textIds(line.effects)).toEqual(['support-relay-recorded']);
    const atMenu = run([{ kind: 'support', outcome: { ...relay, unasked: true } }]);
    expect(textIds(atMenu.effects)).toEqual(['support-relay-recorded']);
  });

  it("an agent's /resolve goes as an update whose template suffices outside WhatsApp's window", () => {
    const closed: Input = { kind: 'support', outcome: { action: 'closed', caseId: 'S-1', message: 'done' } };
    const sends = (effects: Effect[]) => effects.flatMap((e) => (e.type === 'send' ? [e.message] : []));
    const inRelay = run([{ kind: 'button', id: 'support:open' }, opened, closed]);
    expect(sends(inRelay.effects).map((m) => m.templateSuffices)).toEqual([true]);
    const elsewhere = run([{ kind: 'command', command: 'quote', args: '' }, closed]);
    expect(sends(elsewhere.effects).map((m) => m.templateSuffices)).toEqual([true]);
  });

  it("an agent's /resolve ends relay mode with the agent's message, or just tells a user elsewhere", () => {
    const closed: Input = {
      kind: 'support',
      outcome: { action: 'closed', caseId: 'S-1', orderId: 'D-ri3b1-7H', message: 'done' },
    };
    const inRelay = run([{ kind: 'button', id: 'support:open' }, opened, closed]);
    expect(inRelay.session.flow).toEqual({ name: 'menu' });
    expect(textIds(inRelay.effects)).toContain('support-resolved-order');
    const elsewhere = run([{ kind: 'command', command: 'quote', args: '' }, closed]);
    expect(elsewhere.session.flow.name).toBe('quote');
    expect(textIds(elsewhere.effects)).toContain('support-resolved-order');
  });
});

describe('text typed at the menu', () => {
  it('is offered to an open case; acknowledged when relayed, "not understood" when there is none', () => {
    const typed = run([{ kind: 'text', text: 'It was 0712 345 678' }]);
    expect(typed.effects).toEqual([
      { type: 'support', request: { action: 'relayIfOpen', text: 'It was 0712 345 678' } },
    ]);
    expect(typed.session.flow).toEqual({ name: 'menu' });
    const relayed = run(
      [
        {
          kind: 'support',
          outcome: { action: 'relay', caseId: 'S-1', status: 'reopened', desk: true, unasked: true },
        },
      ],
      typed.session,
    );
    expect(textIds(relayed.effects)).toEqual(['support-case-reopened', 'support-relay-sent-case']);
    const none = run([{ kind: 'support', outcome: { action: 'noCase' } }], typed.session);
    expect(textIds(none.effects)).toContain('core-not-understood');
  });

  it('keeps commands, menu words and greetings for the menu; a late "no case" does not pull the user out of a flow', () => {
    expect(run([{ kind: 'text', text: 'hello' }]).effects.some((e) => e.type === 'support')).toBe(false);
    expect(run([{ kind: 'text', text: '/quote' }]).effects.some((e) => e.type === 'support')).toBe(false);
    const inQuote = run([{ kind: 'command', command: 'quote', args: '' }]);
    const late = run([{ kind: 'support', outcome: { action: 'noCase' } }], inQuote.session);
    expect(late.session.flow.name).toBe('quote');
    expect(textIds(late.effects)).not.toContain('core-not-understood');
  });
});

describe('the ticket form', () => {
  it('asks the description for a button order id and refuses one that is too short', () => {
    const s = run([{ kind: 'button', id: 'ticket:WD-d6v5j-FB' }]);
    expect(s.session.flow).toMatchObject({
      name: 'ticket',
      step: 'describe',
      orderId: 'WD-d6v5j-FB',
      side: 'offramp',
    });
    const short = run([{ kind: 'text', text: 'x' }], s.session);
    expect(textIds(short.effects)).toContain('support-ticket-description-short');
    const filed = run([{ kind: 'text', text: 'no payout yet' }], s.session);
    expect(filed.effects.at(-1)).toEqual({
      type: 'support',
      request: {
        action: 'fileTicket',
        request: { side: 'offramp', orderId: 'WD-d6v5j-FB', description: 'no payout yet' },
      },
    });
  });

  it('a sale\'s ticket gives a sale\'s example, never "I paid but got no tokens" (#25)', () => {
    const i18n = loadI18n();
    const sale = run([{ kind: 'button', id: 'ticket:WD-d6v5j-FB' }]);
    expect(textIds(sale.effects)).toContain('support-ticket-ask-description-sale');
    const buy = run([{ kind: 'button', id: 'ticket:D-ri3b1-7H' }]);
    expect(textIds(buy.effects)).toContain('support-ticket-ask-description');
    for (const locale of ['en', 'sw'] as const) {
      const asked = i18n.t(locale, {
        id: 'support-ticket-ask-description-sale',
        args: { orderId: 'WD-d6v5j-FB' },
      });
      expect(asked).toContain('WD-d6v5j-FB');
      expect(asked).not.toMatch(/got no tokens|sikupata tokeni/);
      expect(asked).toMatch(/M-Pesa/);
    }
  });

  it('goes back one field at a time in the manual form', () => {
    const s = run([
      { kind: 'button', id: 'ticket:manual' },
      { kind: 'assets', assets: { networks: ['polygon'], fiat: ['KES'], tokens: [] } },
      { kind: 'button', id: 'ticket:side:onramp' },
      { kind: 'text', text: '0712345678' },
    ]);
    expect(s.session.flow).toMatchObject({ step: 'chain', side: 'onramp', phone: '254712345678' });
    const back = run([{ kind: 'button', id: 'nav:back' }], s.session);
    expect(back.session.flow).toMatchObject({ step: 'phone', side: 'onramp' });
    expect(back.session.flow).not.toHaveProperty('phone');
  });
});

describe('support texts', () => {
  it('exist in English and Kiswahili alike', () => {
    const i18n = loadI18n();
    const en = i18n.ids('en').filter((id) => id.startsWith('support-'));
    const sw = i18n.ids('sw').filter((id) => id.startsWith('support-'));
    expect(en.length).toBeGreaterThan(100);
    expect(new Set(sw)).toEqual(new Set(en));
  });
});
