/**
 * The messages of one sale arrive in order: once the user was told how a sale ended ("tokens
 * arrived… filed"), a late progress note of the same sale ("Transaction … is on its way", from a
 * second report of the same transaction finishing last) is not shown after it.
 */
import { describe, expect, it } from 'vitest';
import type { TokenInfo } from '../../src/domain/types.js';
import type { SellLink, SellUpdate } from '../../src/flows/types.js';
import { sellConfirmButtonId, sellIntentKey } from '../../src/sell/flow.js';
import { ALGO_WALLET, ASSETS, Driver, offrampQuote } from '../flows/helpers.js';

const USDC_ALGO: TokenInfo = {
  network: 'algorand',
  symbol: 'USDC',
  name: 'USDC',
  decimals: 6,
  address: '31566704',
};
const TXID = `${'A'.repeat(51)}Q`;

/** An Algorand sale waiting for its payment. */
function awaiting(): { d: Driver; intentId: string } {
  const d = new Driver();
  d.command('sell', `10 USDC algorand ${ALGO_WALLET} 0712345678`);
  d.feed({ kind: 'sellOptions', tokens: [USDC_ALGO, ...ASSETS.tokens.slice(0, 1)] });
  d.quote(offrampQuote('10', 129.45, 'algorand', 'USDC'), 'sell');
  const id = (d.flow as { id: string }).id;
  d.button(sellConfirmButtonId(id));
  d.quote(offrampQuote('10', 129.45, 'algorand', 'USDC'), 'sell-reconfirm');
  const intentId = 'f'.repeat(32);
  const link: SellLink = { intentId, expiresAt: d.now + 1_800_000, total: '10', signUrl: 'http://x/sign/t' };
  d.feed({ kind: 'sellIntent', key: sellIntentKey(id), link });
  expect(d.at).toBe('awaiting');
  return { d, intentId };
}

const update = (d: Driver, intentId: string, u: SellUpdate) =>
  d.feed({ kind: 'sellUpdate', intentId, update: u });

describe('one sale’s messages in order', () => {
  it('"on its way" arriving after "filed" is not shown', () => {
    const { d, intentId } = awaiting();
    const filed = update(d, intentId, {
      status: 'filed',
      hash: TXID,
      orderId: 'WD-abcde-12',
      existing: false,
    });
    expect(filed.ids).toContain('sell-filed');
    const late = update(d, intentId, { status: 'checking', hash: TXID });
    expect(late.sends).toEqual([]);
    const unseen = update(d, intentId, { status: 'checking', hash: TXID, unseen: true, network: 'algorand' });
    expect(unseen.sends).toEqual([]);
  });

  it('a progress note of a sale the user left (not ended) is still shown', () => {
    const { d, intentId } = awaiting();
    d.button('menu:main');
    expect(update(d, intentId, { status: 'checking', hash: TXID }).ids).toContain('sell-checking');
    // Its outcome, then a late note: dropped.
    update(d, intentId, { status: 'filed', hash: TXID, orderId: 'WD-abcde-12', existing: false });
    expect(update(d, intentId, { status: 'checking', hash: TXID }).sends).toEqual([]);
  });
});

describe('cancelling a waiting sale', () => {
  it('ends with one menu even when the cancel could not be carried out', () => {
    const { d } = awaiting();
    const out = d.button('nav:cancel');
    expect(out.ids).toEqual(['sell-cancel-requested']);
    expect(out.effects.some((e) => e.type === 'sellCancelIntent')).toBe(true);
    const failed = d.feed({
      kind: 'effectFailed',
      effect: 'sellCancelIntent',
      error: { kind: 'network', message: 'redis down' },
    });
    expect(failed.ids).toEqual(['sell-cancel-failed', 'core-button-menu']);
  });
});
