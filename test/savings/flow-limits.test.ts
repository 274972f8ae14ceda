/** The savings flow refuses a plan no run could pay: an STK push takes KES 1 to 10,000. */
import { describe, expect, it } from 'vitest';
import { Driver } from '../flows/helpers.js';

describe('a standing buy amount outside what M-Pesa takes', () => {
  it('is refused when the plan is typed, with nothing asked and nothing stored', () => {
    const d = new Driver();
    const step = d.command('save', '50000 KES USDT polygon every friday');
    expect(step.ids.slice(0, 2)).toEqual(['buy-amount-outside', 'savings-usage']);
    expect(step.effects.filter((e) => e.type !== 'send')).toEqual([]);
  });

  it('an amount inside goes on to the assets', () => {
    const d = new Driver();
    const step = d.command('save', '10000 KES USDT polygon every friday');
    expect(step.effects).toEqual([{ type: 'fetchAssets' }]);
  });
});
