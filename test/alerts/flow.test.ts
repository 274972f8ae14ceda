/** The alerts flow as a pure transition: what it asks, what it asks the store, how it answers. */
import { describe, expect, it } from 'vitest';
import type { AlertsOutcome, AlertView } from '../../src/flows/types.js';
import { loadI18n } from '../../src/i18n/index.js';
import { Driver, onlyEffect } from '../flows/helpers.js';

const outcome = (d: Driver, o: AlertsOutcome) => d.feed({ kind: 'alerts', outcome: o });
const view = (slot: number, level = 128): AlertView => ({
  slot,
  token: 'USDT',
  network: 'celo',
  side: 'below',
  level,
  expiresAt: 1_754_742_000_000,
});

describe('the alerts flow', () => {
  it('/alert USDT below 128 asks the network when the token is on several, then sets the alert', () => {
    const d = new Driver();
    expect(onlyEffect(d.command('alert', 'USDT below 128'))).toEqual({ type: 'fetchAssets' });
    const asked = d.assets();
    expect(asked.ids).toContain('alerts-ask-network');
    expect(asked.buttonIds).toEqual(expect.arrayContaining(['al:net:celo', 'al:net:lisk']));
    expect(onlyEffect(d.button('al:net:celo'))).toEqual({
      type: 'alerts',
      request: { action: 'set', token: 'USDT', network: 'celo', side: 'below', level: 128 },
    });
    const done = outcome(d, { action: 'set', alert: view(1), changed: false });
    expect(done.ids[0]).toBe('alerts-set');
    expect(done.buttonIds).toContain('al:list');
  });

  it('Kiswahili words and a network need no question at all', () => {
    const d = new Driver();
    d.command('alert', 'usdt lisk juu ya KES 131.5');
    expect(onlyEffect(d.assets())).toEqual({
      type: 'alerts',
      request: { action: 'set', token: 'USDT', network: 'lisk', side: 'above', level: 131.5 },
    });
  });

  it('asks the side and the level when they are missing, and refuses a price it cannot read', () => {
    const d = new Driver();
    d.command('alert', 'USDT celo');
    expect(d.assets().ids).toContain('alerts-ask-side');
    expect(d.button('al:side:below').ids).toContain('alerts-ask-level');
    expect(d.text('cheap').ids).toContain('alerts-level-invalid');
    expect(onlyEffect(d.text('KES 127.5'))).toMatchObject({ request: { level: 127.5, side: 'below' } });
  });

  it('an unknown token is said and asked again', () => {
    const d = new Driver();
    d.command('alert', 'DOGE below 1');
    const out = d.assets();
    expect(out.ids).toEqual(expect.arrayContaining(['alerts-token-unknown', 'alerts-ask-token']));
  });

  it('the 11th alert is refused with a clear message', () => {
    const d = new Driver();
    d.command('alert', 'USDT celo below 128');
    d.assets();
    const out = outcome(d, { action: 'full', max: 10 });
    expect(out.ids[0]).toBe('alerts-full');
    expect(loadI18n().t('sw', { id: 'alerts-full', args: { max: 10 } })).toContain('10');
  });

  it('/alerts lists, and each alert can be changed, renewed and deleted', () => {
    const d = new Driver();
    expect(onlyEffect(d.command('alerts'))).toEqual({ type: 'alerts', request: { action: 'list' } });
    const list = outcome(d, { action: 'list', alerts: [view(1), view(2, 120)] });
    expect(list.ids.filter((id) => id === 'alerts-item')).toHaveLength(2);
    expect(list.buttonIds).toEqual(expect.arrayContaining(['al:pick:1', 'al:pick:2', 'al:new']));
    const one = d.button('al:pick:2');
    expect(one.buttonIds).toEqual(['al:chg:2', 'al:renew:2', 'al:del:2', 'al:list']);
    expect(d.button('al:chg:2').ids).toContain('alerts-ask-level');
    expect(onlyEffect(d.text('119'))).toEqual({
      type: 'alerts',
      request: { action: 'set', token: 'USDT', network: 'celo', side: 'below', level: 119, slot: 2 },
    });
    expect(onlyEffect(d.button('al:renew:1'))).toEqual({
      type: 'alerts',
      request: { action: 'renew', slot: 1 },
    });
    expect(outcome(d, { action: 'renewed', alert: view(1) }).ids[0]).toBe('alerts-renewed');
    expect(onlyEffect(d.button('al:del:1'))).toEqual({
      type: 'alerts',
      request: { action: 'delete', slot: 1 },
    });
    expect(outcome(d, { action: 'deleted', slot: 1 }).ids[0]).toBe('alerts-deleted');
  });

  it('a price shown offers "Alert me", which asks only the level', () => {
    const d = new Driver();
    const out = d.button('al:new:below:USDT:celo');
    expect(onlyEffect(out)).toEqual({ type: 'fetchAssets' });
    expect(d.assets().ids).toContain('alerts-ask-level');
  });

  it("the notices' Buy now and Sell now open those flows at the token and network, asking what is missing", () => {
    const buy = new Driver();
    buy.button('menu:buy:USDT celo');
    expect(buy.flow.name).toBe('buy');
    expect(buy.assets().ids).toContain('buy-ask-amount');
    const sell = new Driver();
    sell.button('menu:sell:USDT celo');
    expect(sell.flow.name).toBe('sell');
  });

  it('a store that fails (Redis down mid-request) is told as unavailable for now', () => {
    const d = new Driver();
    d.command('alerts');
    const out = d.feed({ kind: 'effectFailed', effect: 'alerts', error: { kind: 'internal' } });
    expect(out.ids).toContain('alerts-unavailable');
  });
});
