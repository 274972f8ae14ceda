/**
 * Amounts read the same wherever they appear: amount buttons are "KES 500" / "KES 1,000" in buy,
 * sell and quote alike (not "KES 500.00" in one and "KES 1000" in another), and a sale's screen
 * shows its token figures to one precision: every digit of what moves, the fee to as many decimals.
 */
import { describe, expect, it } from 'vitest';
import { sellFigures } from '../../src/flows/quote/quote-view.js';
import { loadI18n } from '../../src/i18n/index.js';
import { ASSETS, Driver, offrampQuote } from './helpers.js';

const i18n = loadI18n();

/** The labels of the amount buttons (`<prefix>:amt:<n>`) of the last message, rendered. */
function amountLabels(d: Driver, locale: 'en' | 'sw'): Record<string, string> {
  const last = d.history.at(-1)!;
  const labels: Record<string, string> = {};
  for (const b of last.sends.flatMap((m) => (m.buttons ?? []).flat())) {
    const n = /:amt:(\d+)$/.exec(b.id)?.[1];
    if (n) labels[n] = i18n.t(locale, b.label);
  }
  return labels;
}

describe('amount buttons', () => {
  it('read the same in buy, sell and quote, in both languages', () => {
    for (const locale of ['en', 'sw'] as const) {
      const buy = new Driver();
      buy.session.locale = locale;
      buy.command('buy');
      buy.assets();
      const sell = new Driver();
      sell.session.locale = locale;
      sell.command('sell', 'USDT celo 0712345678');
      sell.feed({ kind: 'sellOptions', tokens: ASSETS.tokens });
      const prefix = locale === 'en' ? 'KES' : 'KSh';
      const buyLabels = amountLabels(buy, locale);
      const sellLabels = amountLabels(sell, locale);
      expect(buyLabels['500']).toBe(`${prefix} 500`);
      expect(sellLabels['1000'] ?? buyLabels['1000']).toBe(`${prefix} 1,000`);
      for (const n of Object.keys(buyLabels)) if (sellLabels[n]) expect(sellLabels[n]).toBe(buyLabels[n]);
    }
  });
});

describe('token figures on a sale’s screen', () => {
  it('the fee is shown to no more decimals than the amount that moves, which is shown whole', () => {
    const d = new Driver();
    d.command('sell', '2000 KES USDT celo 0712345678');
    d.feed({ kind: 'sellOptions', tokens: ASSETS.tokens });
    const quote = {
      ...offrampQuote('15.6139', 129.45, 'celo', 'USDT'),
      fee: { amount: '0.0850731', currency: 'USDT', kes: 11 },
    };
    const out = d.quote(quote, 'sell');
    const texts = out.sends.flatMap((m) => m.texts).map((t) => i18n.t('en', t));
    const send = sellFigures(quote).send;
    const all = texts.join('\n');
    expect(all).toContain(`${send} USDT`);
    const decimals = [...all.matchAll(/(\d+)\.(\d+) USDT/g)].map((m) => m[2]!.length);
    expect(Math.max(...decimals)).toBeLessThanOrEqual(send.split('.')[1]!.length);
  });
});
