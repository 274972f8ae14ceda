import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sessionSchema } from '../../src/app/flows.js';
import {
  createTransition,
  type FlowDef,
  type FlowState,
  initialSession,
  SESSION_VERSION,
  send,
  text,
} from '../../src/flows/index.js';
import { CORE_FLOWS, coreTransition, Driver, missingCoreTexts, WALLET } from './helpers.js';

describe('session', () => {
  it('starts at the menu with the hints', () => {
    expect(initialSession()).toEqual({
      v: SESSION_VERSION,
      locale: 'en',
      profile: { wallets: {} },
      flow: { name: 'menu' },
    });
    expect(initialSession({ locale: 'sw', phone: '+254 712 345 678' })).toMatchObject({
      locale: 'sw',
      profile: { phone: '254712345678' },
    });
    expect(initialSession({ phone: '+44 7700 900123' }).profile).toEqual({ wallets: {} });
  });

  it('sessionSchema rejects corrupted or outdated state', () => {
    const good = initialSession();
    expect(sessionSchema.safeParse(good).success).toBe(true);
    const bad: unknown[] = [
      null,
      'menu',
      {},
      { ...good, v: SESSION_VERSION + 1 },
      { ...good, v: 0 },
      { ...good, locale: 'fr' },
      { ...good, profile: { wallets: { polygon: 42 } } },
      { ...good, profile: { phone: '0712345678', wallets: {} } },
      { ...good, profile: { wallets: { bitcoin: WALLET } } },
      { ...good, flow: { name: 'teleport' } },
      { ...good, flow: { name: 'buy', id: 'x', step: 'flying' } },
      { ...good, flow: { name: 'buy', step: 'amount' } },
      { ...good, flow: { name: 'buy', id: 'x', step: 'amount', amountKes: -5 } },
      { ...good, flow: { name: 'history', step: 'shown', page: 0 } },
      { ...good, flow: undefined },
    ];
    for (const value of bad)
      expect(sessionSchema.safeParse(value).success, JSON.stringify(value)).toBe(false);
  });
});

describe('router', () => {
  it('/start welcomes and shows the menu, with an entry per flow in order', () => {
    const d = new Driver(initialSession(), coreTransition);
    const out = d.command('start');
    expect(out.ids.slice(0, 2)).toEqual(['core-welcome', 'core-menu-title']);
    expect(out.buttonIds).toEqual([
      'menu:buy',
      'menu:quote',
      'menu:history',
      'menu:help',
      'menu:settings',
      'lang:sw',
    ]);
  });

  it('/help is reachable in the middle of a flow', () => {
    const d = new Driver();
    d.command('buy');
    d.assets();
    const out = d.command('help');
    expect(out.ids).toContain('help-intro');
    expect(out.buttonIds).toEqual(expect.arrayContaining(['support:open', 'ticket:new']));
    expect(d.flow).toEqual({ name: 'help' });
    const typed = new Driver();
    typed.command('quote');
    expect(typed.text('msaada').ids).toContain('help-intro');
  });

  it('without the support flows, support:open and ticket:new answer how to reach support from anywhere', () => {
    for (const id of ['support:open', 'ticket:new']) {
      const d = new Driver(initialSession(), coreTransition);
      d.command('buy');
      expect(d.button(id).ids).toContain('help-support-info');
    }
  });

  it('/menu and "menu" leave any flow', () => {
    const d = new Driver();
    d.command('quote');
    expect(d.command('menu').ids).toContain('core-menu-title');
    expect(d.flow).toEqual({ name: 'menu' });
    d.command('settings');
    d.text('Menu');
    expect(d.flow).toEqual({ name: 'menu' });
  });

  it('cancel at the menu has nothing to cancel', () => {
    expect(new Driver().text('ghairi').ids).toContain('core-nothing-to-cancel');
  });

  it('answers unknown commands, stale buttons and gibberish with the menu', () => {
    const d = new Driver();
    const unknown = d.command('teleport');
    expect(textOf(unknown.sends, 'core-unknown-command')).toEqual({ command: '/teleport' });
    expect(d.button('q:net:polygon').ids).toContain('core-button-stale');
    // Text nothing recognises is offered to the user's open support case; without one, "not understood".
    expect(d.text('qwerty').effects).toEqual([
      { type: 'support', request: { action: 'relayIfOpen', text: 'qwerty' } },
    ]);
    expect(d.feed({ kind: 'support', outcome: { action: 'noCase' } }).ids).toEqual(
      expect.arrayContaining(['core-not-understood', 'core-menu-title']),
    );
    // A first greeting is the welcome; later ones a short hello.
    expect(d.text('habari').ids).toContain('core-welcome');
    expect(d.text('habari').ids).toContain('core-greeting');
  });

  it('menu:sell answers "not available" until a sell flow is registered', () => {
    const d = new Driver(initialSession(), coreTransition);
    expect(d.button('menu:sell').ids).toContain('core-unavailable');
    expect(d.command('sell').ids).toContain('core-unknown-command');
  });

  it('a contact shared at the menu is saved as the M-Pesa phone', () => {
    const d = new Driver();
    d.contact('0712345678');
    expect(d.session.profile.phone).toBe('254712345678');
  });

  it('adding a flow is adding an entry: it gets a menu button, its command, its buttons and back/cancel', () => {
    const sellState = z.object({ name: z.literal('sell'), step: z.enum(['amount', 'done']) });
    type SellState = z.infer<typeof sellState>;
    const sellFlow: FlowDef<SellState> = {
      name: 'sell',
      prefix: 'sell',
      commands: ['sell', 'uza'],
      keywords: ['sell', 'uza'],
      menu: { order: 20, label: text('core-plain', { text: 'Sell' }) },
      start: (session) => ({
        session: { ...session, flow: { name: 'sell', step: 'amount' } as unknown as FlowState },
        effects: [send([text('core-plain', { text: 'how much?' })])],
      }),
      handle: (session, _state, input) => ({
        session: { ...session, flow: { name: 'sell', step: 'done' } as unknown as FlowState },
        effects: [send([text('core-plain', { text: input.kind === 'button' ? input.id : 'typed' })])],
      }),
    };
    const defs = [
      ...CORE_FLOWS.slice(0, 2),
      sellFlow as unknown as FlowDef<FlowState>,
      ...CORE_FLOWS.slice(2),
    ];
    const d = new Driver(initialSession(), createTransition(defs));
    expect(d.command('menu').buttonIds.slice(0, 3)).toEqual(['menu:buy', 'menu:sell', 'menu:quote']);
    d.button('menu:sell');
    expect(d.flow).toEqual({ name: 'sell', step: 'amount' });
    expect(d.button('sell:usdt').sends[0]?.texts[0]?.args).toEqual({ text: 'sell:usdt' });
    d.text('cancel');
    expect(d.flow).toEqual({ name: 'menu' });
    d.command('uza');
    expect(d.flow).toMatchObject({ name: 'sell' });
    d.text('back');
    expect(d.flow).toEqual({ name: 'menu' });
  });

  it('a support flow placed before help takes over support:open', () => {
    const supportFlow: FlowDef<{ name: 'support' }> = {
      name: 'support',
      prefix: 'support',
      startButtons: ['support:', 'ticket:'],
      start: (session) => ({
        session: { ...session, flow: { name: 'support' } as unknown as FlowState },
        effects: [send([text('core-plain', { text: 'agent' })])],
      }),
      handle: (session) => ({ session, effects: [] }),
    };
    const d = new Driver(
      initialSession(),
      createTransition([supportFlow as unknown as FlowDef<FlowState>, ...CORE_FLOWS]),
    );
    d.button('support:open');
    expect(d.flow).toEqual({ name: 'support' });
  });

  it('button ids stay under 64 bytes', () => {
    const d = new Driver();
    d.command('buy', `10000 USDT polygon ${WALLET} 0712345678`);
    d.assets();
    d.command('quote', 'buy 10000 USDT polygon');
    d.assets();
    for (const out of d.history) {
      for (const id of out.buttonIds) expect(new TextEncoder().encode(id).length).toBeLessThan(64);
    }
  });
});

describe('language', () => {
  it('/language sw switches session.locale', () => {
    const d = new Driver();
    d.command('language', 'sw');
    expect(d.session.locale).toBe('sw');
  });

  it('the language buttons and typed names switch it both ways', () => {
    const d = new Driver();
    const ask = d.command('language');
    expect(ask.buttonIds).toEqual(expect.arrayContaining(['set:lang:en', 'set:lang:sw']));
    expect(d.button('set:lang:sw').ids).toContain('settings-language-saved');
    expect(d.session.locale).toBe('sw');
    d.command('lugha');
    d.text('English');
    expect(d.session.locale).toBe('en');
  });
});

function textOf(sends: { texts: { id: string; args?: object }[] }[], id: string) {
  return sends.flatMap((s) => s.texts).find((x) => x.id === id)?.args;
}

afterAll(() => {
  expect(missingCoreTexts()).toEqual([]);
});
