/** Alerts as typed, in English and Kiswahili. */
import { describe, expect, it } from 'vitest';
import { parseAlertWords, parseLevel } from '../../src/alerts/flow/parse.js';

describe('reading an alert', () => {
  it.each([
    ['USDT below 128', { token: 'USDT', side: 'below', level: 128 }],
    ['usdt polygon below KES 128.5', { token: 'USDT', network: 'polygon', side: 'below', level: 128.5 }],
    ['USDT above 135', { token: 'USDT', side: 'above', level: 135 }],
    ['USDT < 128', { token: 'USDT', side: 'below', level: 128 }],
    ['USDT under ksh128', { token: 'USDT', side: 'below', level: 128 }],
    ['USDT celo more than 130/=', { token: 'USDT', network: 'celo', side: 'above', level: 130 }],
    ['USDT chini ya 128', { token: 'USDT', side: 'below', level: 128 }],
    ['usdt lisk juu ya KSh 131,5', { token: 'USDT', network: 'lisk', side: 'above', level: 131.5 }],
    ['Chini Ya 127 USDT', { token: 'USDT', side: 'below', level: 127 }],
    ['USDT', { token: 'USDT' }],
  ])('%s', (typed, expected) => {
    const { ignored, ...words } = parseAlertWords(typed);
    expect(words).toEqual(expected);
    expect(ignored).toEqual([]);
  });

  it('names a figure that is not a price', () => {
    expect(parseAlertWords('USDT below 0').badLevel).toBe('0');
    expect(parseAlertWords('USDT below 1.2.3').badLevel).toBe('1.2.3');
  });

  it('reads a level alone', () => {
    expect(parseLevel('128')).toBe(128);
    expect(parseLevel('KES128.25')).toBe(128.25);
    expect(parseLevel('abc')).toBeUndefined();
    expect(parseLevel('-5')).toBeUndefined();
  });
});
