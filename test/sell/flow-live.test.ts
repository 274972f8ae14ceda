/**
 * A sale whose signing link is still live after the user left it (#25): the menu mentions it with
 * its link and a way to cancel it; Sell started again says so (continue or cancel) instead of
 * starting a second sale without a word; the note goes once the sale ended or expired.
 */
import { describe, expect, it } from 'vitest';
import type { TokenInfo } from '../../src/domain/types.js';
import type { SellLink } from '../../src/flows/types.js';
import { loadI18n } from '../../src/i18n/index.js';
import { sellConfirmButtonId, sellIntentKey } from '../../src/sell/flow.js';
import { ALGO_WALLET, ASSETS, Driver, offrampQuote, textOf } from '../flows/helpers.js';

const i18n = loadI18n();
const USDC_ALGO: TokenInfo = {
  network: 'algorand',
  symbol: 'USDC',
  name: 'USDC',
  decimals: 6,
  address: '31566704',
};
const TXID = `${'A'.repeat(51)}Q`;
const URL = 'https://pay.example/sign/t';

/** An Algorand sale waiting for its payment, its link live for 30 minutes. */
function awaiting(): { d: Driver; intentId: string } {
  const d = new Driver();
  d.command('sell', `10 USDC algorand ${ALGO_WALLET} 0712345678`);
  d.feed({ kind: 'sellOptions', tokens: [USDC_ALGO, ...ASSETS.tokens.slice(0, 1)] });
  d.quote(offrampQuote('10', 129.45, 'algorand', 'USDC'), 'sell');
  const id = (d.flow as { id: string }).id;
  d.button(sellConfirmButtonId(id));
  d.quote(offrampQuote('10', 129.45, 'algorand', 'USDC'), 'sell-reconfirm');
  const intentId = 'f'.repeat(32);
  const link: SellLink = { intentId, expiresAt: d.now + 1_800_000, total: '10.05', signUrl: URL };
  d.feed({ kind: 'sellIntent', key: sellIntentKey(id), link });
  expect(d.at).toBe('awaiting');
  return { d, intentId };
}

describe('a live sale after the user left it', () => {
  it('"menu" mentions the live sale with its link, and offers to continue or cancel it', () => {
    const { d } = awaiting();
    const menu = d.text('menu');
    expect(menu.ids).toContain('sell-live-note');
    expect(menu.ids).toContain('core-menu-title');
    const note = textOf(menu, 'sell-live-note')!;
    expect(note.args).toMatchObject({ url: URL, total: '10.05', token: 'USDC', minutes: 30 });
    expect(menu.buttonIds.slice(0, 2)).toEqual(['sell:live:resume', 'sell:live:cancel']);
    for (const locale of ['en', 'sw'] as const) expect(i18n.t(locale, note)).toContain(URL);
    // "Continue the sale": waiting for the tokens again, and a pasted id is checked against it.
    const resumed = d.button('sell:live:resume');
    expect(d.flow).toMatchObject({ name: 'sell', step: 'awaiting', intentId: 'f'.repeat(32), signUrl: URL });
    expect(resumed.ids).toContain('sell-awaiting');
    const pasted = d.text(TXID);
    expect(pasted.effects).toContainEqual({ type: 'sellReportHash', intentId: 'f'.repeat(32), hash: TXID });
  });

  it("the menu's Cancel cancels the live sale", () => {
    const { d, intentId } = awaiting();
    d.command('menu');
    const out = d.button('sell:live:cancel');
    expect(out.ids).toEqual(['sell-cancel-requested']);
    expect(out.effects).toContainEqual({ type: 'sellCancelIntent', intentId });
  });

  it('Sell started again while one is live says so, offering to continue or cancel it', () => {
    const { d } = awaiting();
    d.command('menu');
    for (const start of [() => d.command('sell'), () => d.button('menu:sell'), () => d.text('uza')]) {
      const out = start();
      expect(out.ids[0]).toBe('sell-live-exists');
      expect(out.effects.some((e) => e.type === 'sellOptions')).toBe(false);
      expect(out.buttonIds).toEqual(['sell:live:resume', 'sell:live:cancel', 'menu:main']);
      expect(d.flow.name).toBe('menu');
    }
  });

  it('once the sale ended or its link expired, the menu says nothing of it and Sell starts afresh', () => {
    const ended = awaiting();
    ended.d.command('menu');
    ended.d.feed({
      kind: 'sellUpdate',
      intentId: ended.intentId,
      update: { status: 'filed', hash: TXID, orderId: 'WD-abcde-12', existing: false },
    });
    expect(ended.d.command('menu').ids).not.toContain('sell-live-note');
    expect(ended.d.command('sell').effects.some((e) => e.type === 'sellOptions')).toBe(true);
    expect(ended.d.button('sell:live:resume').ids).toContain('sell-live-gone');

    const expired = awaiting();
    expired.d.command('menu');
    expired.d.now += 1_800_000;
    expect(expired.d.command('menu').ids).not.toContain('sell-live-note');
    expect(expired.d.command('sell').effects.some((e) => e.type === 'sellOptions')).toBe(true);
  });
});
