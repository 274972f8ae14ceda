/**
 * Global keywords: "agent", "support", "person", "wakala", "mhudumu" typed as the whole message
 * start the support flow from any step of any flow, as /support does; never inside a sentence, in
 * the support relay itself, or as a ticket's description.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createTransition,
  type FlowDef,
  type FlowState,
  initialSession,
  type Session,
  send,
  text,
} from '../../src/flows/index.js';
import { ASSETS, CORE_FLOWS, coreTransition, Driver, offrampQuote, onrampQuote, WALLET } from './helpers.js';

const OPEN_SUPPORT = { type: 'support', request: { action: 'open' } };
const WORDS = ['support', 'agent', 'person', 'wakala', 'mhudumu'];
const withPhone = (): Session => initialSession({ phone: '0712345678' });

/** Drivers left at a step of each kind of flow, named for the failure message. */
const places: Record<string, () => Driver> = {
  'buy, amount': () => {
    const d = new Driver();
    d.command('buy');
    d.assets();
    return d;
  },
  'buy, wallet': () => {
    const d = new Driver();
    d.command('buy', '500 USDT polygon');
    d.assets();
    return d;
  },
  'buy, summary': () => {
    const d = new Driver(withPhone());
    d.command('buy', `500 USDT polygon ${WALLET}`);
    d.assets();
    d.button('buy:phone:saved');
    d.quote(onrampQuote(500), 'buy');
    return d;
  },
  'quote, shown': () => {
    const d = new Driver();
    d.command('quote', 'sell 2 usdt celo');
    d.assets();
    d.quote(offrampQuote('2'), 'quote');
    return d;
  },
  'sell, amount': () => {
    const d = new Driver();
    d.command('sell', 'USDT celo');
    d.feed({ kind: 'sellOptions', tokens: ASSETS.tokens.filter((t) => t.network === 'celo') });
    return d;
  },
  'settings, main': () => {
    const d = new Driver();
    d.command('settings');
    return d;
  },
  'ticket, order id': () => {
    const d = new Driver();
    d.button('ticket:new');
    return d;
  },
  menu: () => new Driver(),
};

describe('global keywords', () => {
  it.each(Object.entries(places))('start support from %s, as /support does', (_where, place) => {
    const expected = place();
    const byCommand = expected.command('support');
    expect(byCommand.effects).toEqual([OPEN_SUPPORT]);
    for (const typed of [...WORDS, 'Agent!', '  WAKALA ', 'Mhudumu.']) {
      const d = place();
      const out = d.text(typed);
      expect(out.effects, typed).toEqual(byCommand.effects);
      expect(d.flow, typed).toEqual(expected.flow);
    }
  });

  it('are read only as the whole message, so sentences and one-line orders keep their meaning', () => {
    for (const typed of ['my agent said 500', 'support please', 'agent 0712345678']) {
      const d = places['buy, amount']!();
      const out = d.text(typed);
      expect(
        out.effects.some((e) => e.type === 'support'),
        typed,
      ).toBe(false);
      expect(d.flow.name, typed).toBe('buy');
    }
  });

  it('are relayed as text inside the support relay', () => {
    const d = new Driver();
    d.command('support');
    d.feed({ kind: 'support', outcome: { action: 'open', caseId: 'S-1', status: 'opened', desk: true } });
    expect(d.flow).toMatchObject({ name: 'support', step: 'relay' });
    for (const typed of WORDS) {
      const out = d.text(typed);
      expect(out.effects).toEqual([
        { type: 'support', request: { action: 'relay', text: typed, caseId: 'S-1' } },
      ]);
      expect(d.flow).toMatchObject({ name: 'support', step: 'relay', caseId: 'S-1' });
    }
  });

  it("are a ticket's description when one is asked, from an order or in the manual form", () => {
    const byOrder = new Driver();
    byOrder.button('ticket:WD-d6v5j-FB');
    expect(byOrder.flow).toMatchObject({ name: 'ticket', step: 'describe' });
    const out = byOrder.text('agent');
    expect(out.effects).toContainEqual({
      type: 'support',
      request: {
        action: 'fileTicket',
        request: { side: 'offramp', orderId: 'WD-d6v5j-FB', description: 'agent' },
      },
    });

    const manual = new Driver({
      ...initialSession(),
      flow: {
        name: 'ticket',
        step: 'description',
        side: 'onramp',
        phone: '254712345678',
        chain: 'polygon',
        symbol: 'USDT',
        tokenAddress: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
        userAddress: WALLET,
        amount: '500',
        assets: ASSETS.tokens,
      },
    });
    manual.text('person');
    expect(manual.flow).toMatchObject({ name: 'ticket', step: 'confirm', description: 'person' });
  });

  it('leave "msaada" and "help" to help', () => {
    for (const typed of ['msaada', 'help']) {
      const d = places['buy, amount']!();
      expect(d.text(typed).ids, typed).toContain('help-intro');
      expect(d.flow).toEqual({ name: 'help' });
    }
  });

  it('come from the flow table: without a flow declaring them the words are ordinary text', () => {
    const d = new Driver(initialSession(), coreTransition);
    d.command('buy');
    d.assets();
    const out = d.text('agent');
    expect(out.ids).toContain('buy-amount-invalid');
    expect(d.flow).toMatchObject({ name: 'buy', step: 'amount' });
  });

  it('any flow can declare them, and any flow can have steps that take free text', () => {
    const stateOf = z.object({ name: z.string(), step: z.enum(['free', 'choice']) });
    type State = z.infer<typeof stateOf>;
    const echo = (name: string, extra: Partial<FlowDef<State>>): FlowDef<FlowState> =>
      ({
        name,
        prefix: name,
        commands: [name],
        start: (session: Session, _ctx: unknown, how: { args?: string }) => ({
          session: { ...session, flow: { name, step: how.args ? 'free' : 'choice' } },
          effects: [],
        }),
        handle: (session: Session, _state: State, input: { kind: string; text?: string }) => ({
          session,
          effects: [send([text('core-plain', { text: input.text ?? '' })])],
        }),
        ...extra,
      }) as unknown as FlowDef<FlowState>;
    const jot = echo('jot', { globalKeywords: ['jot'] });
    const diary = echo('diary', { takesFreeText: (state) => state.step === 'free' });
    const d = new Driver(initialSession(), createTransition([...CORE_FLOWS, jot, diary]));
    d.command('diary');
    d.text('jot');
    expect(d.flow).toEqual({ name: 'jot', step: 'choice' });
    d.command('diary', 'free');
    const out = d.text('jot');
    expect(out.sends[0]?.texts[0]?.args).toEqual({ text: 'jot' });
    expect(d.flow).toEqual({ name: 'diary', step: 'free' });
  });
});
