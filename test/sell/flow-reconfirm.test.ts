/**
 * The sell flow as a pure transition: Confirm re-quotes, and the intent binds the fresh quote's
 * total and fee; a rate that moved beyond the tolerance, or an amount now out of limits, asks again.
 */
import { describe, expect, it } from 'vitest';
import type { Quote, TokenInfo } from '../../src/domain/types.js';
import { feeInTokens } from '../../src/flows/index.js';
import type { Effect } from '../../src/flows/types.js';
import { loadI18n } from '../../src/i18n/index.js';
import { sellConfirmButtonId, sellIntentKey } from '../../src/sell/flow.js';
import { ASSETS, Driver, type Output, offrampQuote, onlyEffect, textOf } from '../flows/helpers.js';

const SELL_TOKENS: TokenInfo[] = ASSETS.tokens.filter(
  (t) => (t.network === 'celo' && t.symbol === 'USDT') || (t.network === 'polygon' && t.symbol === 'USDC'),
);
const ORDER = '10 USDT celo 0712345678';

type Intent = Extract<Effect, { type: 'sellCreateIntent' }>;

/** `/sell 10 USDT celo 0712345678`, the options, the first quote at `rate`: the summary. */
function atSummary(rate = 129.45): Driver {
  const d = new Driver();
  d.command('sell', ORDER);
  const asked = onlyEffect(d.feed({ kind: 'sellOptions', tokens: SELL_TOKENS }));
  expect(asked).toMatchObject({ type: 'fetchQuote', purpose: 'sell', request: { amount: '10' } });
  d.quote(offrampQuote('10', rate), 'sell');
  expect(d.at).toBe('summary');
  return d;
}

const confirmId = (d: Driver) => sellConfirmButtonId((d.flow as { id: string }).id);
const intents = (d: Driver): Intent[] => d.allEffects('sellCreateIntent');

/** Taps Confirm and checks that it asked for a fresh quote, not an intent. */
function confirmAndRequote(d: Driver): Output {
  const out = d.button(confirmId(d));
  expect(onlyEffect(out)).toEqual({
    type: 'fetchQuote',
    request: { type: 'offramp', network: 'celo', token: 'USDT', fiatCurrency: 'KES', amount: '10' },
    purpose: 'sell-reconfirm',
  });
  expect(d.at).toBe('reconfirming');
  return out;
}

describe('sell: Confirm re-quotes', () => {
  it('asks for a fresh quote first and makes no intent until it arrives; taps meanwhile only wait', () => {
    const d = atSummary();
    confirmAndRequote(d);
    expect(d.button(confirmId(d)).ids).toEqual(['sell-please-wait']);
    expect(d.text('yes').ids).toEqual(['sell-please-wait']);
    expect(intents(d)).toEqual([]);
  });

  it('within the tolerance: the intent carries the fresh quote total, fee and rate', () => {
    const d = atSummary(129.45);
    confirmAndRequote(d);
    const fresh: Quote = offrampQuote('10', 129.9);
    const out = d.quote(fresh, 'sell-reconfirm');
    const intent = onlyEffect(out) as Intent;
    expect(intent).toEqual({
      type: 'sellCreateIntent',
      key: sellIntentKey((d.flow as { id: string }).id),
      request: {
        network: 'celo',
        token: expect.objectContaining({ symbol: 'USDT', decimals: 6 }),
        total: '10',
        fee: feeInTokens(fresh),
        amountKes: fresh.estimatedOutputKes,
        exchangeRate: 129.9,
        phone: '254712345678',
      },
    });
    // The bound figures are the fresh ones, not the ones first shown.
    const first = offrampQuote('10', 129.45);
    expect(intent.request.fee).not.toBe(feeInTokens(first));
    expect(intent.request.amountKes).not.toBe(first.estimatedOutputKes);
    expect(d.at).toBe('creating');
  });

  it('moved beyond the tolerance: the summary again at the new price, no intent; Confirm again goes ahead', () => {
    const d = atSummary(129.45);
    confirmAndRequote(d);
    const moved = offrampQuote('10', 125);
    const out = d.quote(moved, 'sell-reconfirm');
    expect(out.effects.filter((e) => e.type !== 'send')).toEqual([]);
    expect(out.ids[0]).toBe('sell-rate-moved');
    expect(textOf(out, 'sell-rate-moved')?.args).toMatchObject({ token: 'USDT' });
    expect(out.ids).toContain('sell-summary-title');
    expect(out.buttonIds).toContain(confirmId(d));
    expect(d.at).toBe('summary');
    expect(d.flow).toMatchObject({ quote: { exchangeRate: 125 } });
    expect(intents(d)).toEqual([]);

    confirmAndRequote(d);
    const intent = onlyEffect(d.quote(offrampQuote('10', 125), 'sell-reconfirm')) as Intent;
    expect(intent.request).toMatchObject({ exchangeRate: 125, fee: feeInTokens(moved) });
  });

  it('a double Confirm after the re-quote makes one intent', () => {
    const d = atSummary();
    const id = confirmId(d);
    confirmAndRequote(d);
    d.quote(offrampQuote('10', 129.45), 'sell-reconfirm');
    expect(d.button(id).ids).toEqual(['sell-already-confirmed', 'sell-please-wait']);
    expect(d.text('yes').ids).toEqual(['sell-already-confirmed', 'sell-please-wait']);
    expect(d.quote(offrampQuote('10', 129.45), 'sell-reconfirm').effects).toEqual([]);
    expect(intents(d)).toHaveLength(1);
  });

  it('out of the limits at the re-quote: refused, the amount asked again, no intent', () => {
    const d = atSummary();
    confirmAndRequote(d);
    const narrowed: Quote = {
      ...offrampQuote('10', 129.45),
      limits: { min: 2000, max: 30000, currency: 'KES' },
    };
    const out = d.quote(narrowed, 'sell-reconfirm');
    // A token amount: said in tokens and in KES against the limit.
    expect(out.ids.slice(0, 3)).toEqual([
      'sell-amount-tokens-below-min',
      'sell-ask-amount',
      'sell-amount-range',
    ]);
    expect(textOf(out, 'sell-amount-tokens-below-min')?.args).toEqual({
      amount: '10 USDT',
      kes: 'KES 1,295.00',
      bound: 'KES 1,989.00',
      boundTokens: '15.449981 USDT',
    });
    expect(d.at).toBe('amount');
    expect(d.flow).toMatchObject({ limits: { min: 2000 } });
    expect(d.flow).not.toHaveProperty('amount');
    expect(intents(d)).toEqual([]);
  });

  it('the re-quote failing shows the summary again with the reason; Confirm can be tapped again', () => {
    const d = atSummary();
    confirmAndRequote(d);
    const out = d.feed({
      kind: 'effectFailed',
      effect: 'fetchQuote',
      error: { kind: 'network' },
      purpose: 'sell-reconfirm',
    });
    expect(out.ids[0]).toBe('core-error-unavailable');
    expect(out.ids).toContain('sell-try-again');
    expect(d.at).toBe('summary');
    confirmAndRequote(d);
  });

  it('a re-quote nobody asked for is not taken', () => {
    const d = atSummary();
    expect(d.quote(offrampQuote('10', 129.45), 'sell-reconfirm').effects).toEqual([]);
    expect(d.at).toBe('summary');
    expect(intents(d)).toEqual([]);
  });

  it('the new texts read in both languages', () => {
    const i18n = loadI18n();
    const args = { token: 'USDT', before: '129.45', after: '125.00' };
    for (const locale of ['en', 'sw'] as const) {
      for (const id of ['sell-rate-moved', 'sell-try-again']) {
        expect(i18n.hasIn(locale, id), `${locale}:${id}`).toBe(true);
        expect(i18n.t(locale, { id, args })).not.toMatch(/\{\s*\$/);
      }
    }
    expect(i18n.t('sw', { id: 'sell-rate-moved', args })).not.toBe(
      i18n.t('en', { id: 'sell-rate-moved', args }),
    );
  });
});
