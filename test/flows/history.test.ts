import { afterAll, describe, expect, it } from 'vitest';
import { initialSession } from '../../src/flows/index.js';
import type { OwnOrder, OwnOrdersPage } from '../../src/flows/types.js';
import { loadI18n } from '../../src/i18n/index.js';
import { Driver, missingCoreTexts, onlyEffect, textOf, WALLET } from './helpers.js';

const order = (o: Partial<OwnOrder>): OwnOrder => ({
  orderId: 'D-d9m0k-T8',
  side: 'onramp',
  createdAt: Date.parse('2025-07-10T12:31:05.398Z'),
  network: 'polygon',
  symbol: 'USDT',
  amountKes: 500,
  paidKes: 506,
  tokenAmount: '3.861004',
  outcome: 'completed',
  receipt: 'TGA6EIIORA',
  txHash: `0x${'ab'.repeat(32)}`,
  ...o,
});
const page = (orders: OwnOrder[], n = 1, totalPages = 1): OwnOrdersPage => ({ orders, page: n, totalPages });

const withWallets = (wallets: Record<string, string>) =>
  new Driver({ ...initialSession(), profile: { wallets } });

describe('history', () => {
  it("asks for the caller's own orders (never a wallet's) and pages through them", () => {
    const d = withWallets({ polygon: WALLET });
    expect(onlyEffect(d.command('history'))).toEqual({ type: 'fetchOwnOrders', page: 1, limit: 5 });
    const out = d.feed({ kind: 'ownOrders', page: page([order({})], 1, 3) });
    expect(textOf(out, 'history-buy-completed')?.args).toEqual({
      date: '2025-07-10 15:31 EAT',
      kes: 'KES 500.00',
      amount: 'KES 500.00',
      fee: 'KES 6.00',
      total: 'KES 506.00',
      crypto: '3.861004 USDT',
      network: 'Polygon',
      orderId: 'D-d9m0k-T8',
      receipt: 'TGA6EIIORA',
      hash: `0x${'ab'.repeat(32)}`,
    });
    expect(textOf(out, 'history-page')?.args).toEqual({ page: 1, pages: 3 });
    expect(out.buttonIds).toContain('hist:page:2');
    expect(onlyEffect(d.button('hist:page:2'))).toMatchObject({ type: 'fetchOwnOrders', page: 2 });
  });

  it('names each real outcome, for buys and sells', () => {
    const d = new Driver();
    d.command('history');
    const outcomes = ['completed', 'failed', 'cancelled', 'pending', 'support'] as const;
    const orders = outcomes.flatMap((outcome) => [
      order({ outcome, orderId: `D-b-${outcome}` }),
      order({ outcome, side: 'offramp', orderId: `WD-s-${outcome}` }),
    ]);
    const ids = d.feed({ kind: 'ownOrders', page: page(orders) }).ids;
    // Only the completed ones offer their receipt (src/receipts).
    expect(d.history.at(-1)!.buttonIds.filter((id) => id.startsWith('rc:'))).toEqual([
      'rc:D-b-completed',
      'rc:WD-s-completed',
    ]);
    for (const o of outcomes) {
      expect(ids).toContain(`history-buy-${o}`);
      expect(ids).toContain(`history-sell-${o}`);
    }
  });

  it('with no orders says so; a typed wallet shows nothing; failures leave to the menu', () => {
    const d = new Driver();
    d.command('history');
    expect(d.feed({ kind: 'ownOrders', page: page([], 1, 0) }).ids).toContain('history-own-empty');
    expect(d.text(WALLET).effects.filter((e) => e.type !== 'send')).toEqual([]);
    d.command('history');
    expect(
      d.feed({ kind: 'effectFailed', effect: 'fetchOwnOrders', error: { kind: 'server' } }).ids,
    ).toContain('core-error-unavailable');
    expect(d.flow).toEqual({ name: 'menu' });
  });
});

afterAll(() => {
  expect(missingCoreTexts()).toEqual([]);
});

describe('history tells what the chat told (#25)', () => {
  const i18n = loadI18n();
  const shown = (o: OwnOrder, locale: 'en' | 'sw') => {
    const d = new Driver();
    d.session = { ...d.session, locale };
    d.command('history');
    const out = d.feed({ kind: 'ownOrders', page: page([o]) });
    return i18n.t(locale, out.sends.flatMap((m) => m.texts).find((t) => /^history-(buy|sell)-/.test(t.id))!);
  };

  it('a buy shows its amount as the chat said it and the fee on top, in both languages', () => {
    expect(shown(order({}), 'en')).toContain('for KES 500.00 + fee KES 6.00 = KES 506.00 on Polygon');
    expect(shown(order({}), 'sw')).toContain('kwa KSh 500.00 + ada KSh 6.00 = KSh 506.00 kwenye Polygon');
    // An order recorded without the total paid shows the amount alone.
    expect(shown(order({ paidKes: undefined }), 'en')).toContain('for KES 500.00 on Polygon');
  });

  it('a cancelled buy says no money was taken, not that it failed', () => {
    const en = shown(order({ outcome: 'cancelled' }), 'en');
    expect(en).toContain('cancelled: no money was taken');
    expect(en).not.toMatch(/failed|did not go through/);
    expect(shown(order({ outcome: 'cancelled' }), 'sw')).toContain('hakuna pesa iliyochukuliwa');
  });

  it('a failed or cancelled sale points to the refund ticket of that order, not only /support', () => {
    const sale = { side: 'offramp' as const, orderId: 'WD-d6v5j-FB', paidKes: undefined, amountKes: 1000 };
    for (const outcome of ['failed', 'cancelled'] as const) {
      const en = shown(order({ ...sale, outcome }), 'en');
      expect(en).toContain('open a ticket: /ticket WD-d6v5j-FB');
      expect(en).not.toContain('/support');
      expect(shown(order({ ...sale, outcome }), 'sw')).toContain('fungua tiketi: /tiketi WD-d6v5j-FB');
    }
    expect(shown(order({ ...sale }), 'en')).toContain('Sold 3.861004 USDT for KES 1,000.00');
  });
});
