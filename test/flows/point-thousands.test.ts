/**
 * "1.000" typed as an amount of shillings is a thousand, never KES 1: shillings have two decimals,
 * so a point followed by exactly three digits is a thousands mark. Read the same way in buy (typed
 * at the amount step and on one line), sell and quote; a token amount keeps its decimal point.
 */
import { describe, expect, it } from 'vitest';
import { parseKesAmount, parseTokenAmount } from '../../src/flows/index.js';
import { ASSETS, Driver, WALLET } from './helpers.js';

describe('a point before exactly three digits in shillings', () => {
  it('is a thousands mark in KES amounts', () => {
    expect(parseKesAmount('1.000')).toEqual({ ok: true, value: 1000 });
    expect(parseKesAmount('2.500')).toEqual({ ok: true, value: 2500 });
    expect(parseKesAmount('KES 1.000')).toEqual({ ok: true, value: 1000 });
    expect(parseKesAmount('1.000.000')).toEqual({ ok: true, value: 1_000_000 });
    // Cents stay cents; other decimals stay "not whole".
    expect(parseKesAmount('1.00')).toEqual({ ok: true, value: 1 });
    expect(parseKesAmount('1500.00')).toEqual({ ok: true, value: 1500 });
    expect(parseKesAmount('12.5')).toEqual({ ok: false, problem: 'not-whole' });
    expect(parseKesAmount('1.0005')).toEqual({ ok: false, problem: 'not-whole' });
  });

  it('stays a decimal point in token amounts', () => {
    expect(parseTokenAmount('1.500')).toEqual({ ok: true, value: '1.5' });
  });

  it('buy: "1.000" at the amount step asks the quote for KES 1,000', () => {
    const d = new Driver();
    d.command('buy');
    d.assets();
    d.text('1.000');
    expect((d.flow as { amountKes?: number }).amountKes).toBe(1000);
  });

  it('buy on one line: "/buy 2.500 USDT polygon …" is KES 2,500', () => {
    const d = new Driver();
    d.command('buy', `2.500 USDT polygon ${WALLET} 0712345678`);
    d.assets();
    expect((d.flow as { amountKes?: number }).amountKes).toBe(2500);
  });

  it('sell: "1.000" at the amount step and on one line is KES 1,000', () => {
    const d = new Driver();
    d.command('sell', `1.000 KES USDT celo 0712345678`);
    d.feed({ kind: 'sellOptions', tokens: ASSETS.tokens });
    expect(d.flow).toMatchObject({ amount: '1000', amountIn: 'kes' });

    const typed = new Driver();
    typed.command('sell', 'USDT celo 0712345678');
    typed.feed({ kind: 'sellOptions', tokens: ASSETS.tokens });
    expect(typed.at).toBe('amount');
    typed.text('1.000');
    expect(typed.flow).toMatchObject({ amount: '1000', amountIn: 'kes' });
  });
});
