import { describe, expect, it } from 'vitest';
import { addDecimals, compareDecimals, normalizeDecimal, roundDecimal } from '../../src/domain/decimal.js';
import { parseKesAmount, parseOrderWords, parseTokenAmount, parseWallet } from '../../src/flows/index.js';
import { ALGO_WALLET, WALLET, WALLET_BAD_CHECKSUM, WALLET_LOWER } from './helpers.js';

const SYMBOLS = ['USDT', 'USDC', 'ETH', 'cKES', 'CELO', 'MATIC'];

describe('parseOrderWords', () => {
  it('reads the brief example', () => {
    expect(parseOrderWords(`500 KES USDT polygon ${WALLET} 0712345678`, SYMBOLS)).toEqual({
      amount: { text: '500', kes: true },
      token: 'USDT',
      network: 'polygon',
      wallet: WALLET,
      phone: '254712345678',
      ignored: [],
    });
  });

  it('joins a phone typed in groups, and keeps an amount apart from it', () => {
    expect(parseOrderWords('1000 0712 345 678', SYMBOLS)).toMatchObject({
      amount: { text: '1000' },
      phone: '254712345678',
    });
    expect(parseOrderWords('+254 712 345 678 ksh1,500', SYMBOLS)).toMatchObject({
      amount: { text: '1500', kes: true },
      phone: '254712345678',
    });
    expect(parseOrderWords('254 500', SYMBOLS)).toMatchObject({ amount: { text: '254' }, ignored: ['500'] });
  });

  it('flags a phone-like number that is not Kenyan instead of taking it as an amount', () => {
    const words = parseOrderWords('0812345678', SYMBOLS);
    expect(words.badPhone).toBe('0812345678');
    expect(words.amount).toBeUndefined();
  });

  it('reads a token amount with nine or more digits as an amount, not a phone', () => {
    expect(parseOrderWords('105.540223 USDT polygon 0712345678', SYMBOLS)).toMatchObject({
      amount: { text: '105.540223', kes: false },
      phone: '254712345678',
    });
    expect(parseOrderWords('0712.345678', SYMBOLS)).toMatchObject({ phone: '254712345678' });
  });

  it('resolves "celo" as the network first, then as the token', () => {
    expect(parseOrderWords('10 celo', SYMBOLS)).toMatchObject({ network: 'celo' });
    expect(parseOrderWords('10 celo usdt', SYMBOLS)).toMatchObject({ network: 'celo', token: 'USDT' });
    expect(parseOrderWords('10 celo celo', SYMBOLS)).toMatchObject({ network: 'celo', token: 'CELO' });
  });

  it('reads directions in both languages', () => {
    expect(parseOrderWords('uza 5 usdt', SYMBOLS).direction).toBe('offramp');
    expect(parseOrderWords('nunua 500', SYMBOLS).direction).toBe('onramp');
  });
});

describe('amounts', () => {
  it('KES: whole shillings with separators and KES/KSh markers', () => {
    for (const [typed, value] of [
      ['500', 500],
      ['1,000', 1000],
      ['KES 2000', 2000],
      ['ksh1500', 1500],
      ['1500.00', 1500],
      ['700/=', 700],
    ] as const) {
      expect(parseKesAmount(typed)).toEqual({ ok: true, value });
    }
    expect(parseKesAmount('12.5')).toEqual({ ok: false, problem: 'not-whole' });
    expect(parseKesAmount('0')).toEqual({ ok: false, problem: 'not-positive' });
    expect(parseKesAmount('1,00')).toEqual({ ok: false, problem: 'invalid' });
    expect(parseKesAmount('-5')).toEqual({ ok: false, problem: 'invalid' });
  });

  it('tokens: exact decimal text', () => {
    expect(parseTokenAmount('0.1621872103799815')).toEqual({ ok: true, value: '0.1621872103799815' });
    expect(parseTokenAmount('1,000.50')).toEqual({ ok: true, value: '1000.5' });
    expect(parseTokenAmount('0.000')).toEqual({ ok: false, problem: 'not-positive' });
    expect(parseTokenAmount('1e5')).toEqual({ ok: false, problem: 'invalid' });
  });
});

describe('parseWallet', () => {
  it('checksums lowercase EVM addresses and refuses a bad mixed-case checksum', () => {
    expect(parseWallet('polygon', WALLET_LOWER)).toEqual({ ok: true, value: WALLET });
    expect(parseWallet('polygon', WALLET)).toEqual({ ok: true, value: WALLET });
    expect(parseWallet('base', WALLET_BAD_CHECKSUM)).toEqual({ ok: false, problem: 'checksum' });
  });

  it('refuses the wrong network format, and checks Algorand checksums', () => {
    expect(parseWallet('polygon', ALGO_WALLET)).toEqual({ ok: false, problem: 'format' });
    expect(parseWallet('algorand', WALLET)).toEqual({ ok: false, problem: 'format' });
    expect(parseWallet('algorand', ALGO_WALLET)).toEqual({ ok: true, value: ALGO_WALLET });
    const broken = `${ALGO_WALLET.slice(0, -1)}A`;
    expect(parseWallet('algorand', broken)).toEqual({ ok: false, problem: 'checksum' });
  });
});

describe('decimal text', () => {
  it('adds, compares and rounds without float error', () => {
    expect(addDecimals('0.1', '0.2')).toBe('0.3');
    expect(addDecimals('10', '0.046349')).toBe('10.046349');
    expect(compareDecimals('1.10', '1.1')).toBe(0);
    expect(compareDecimals('2', '10')).toBe(-1);
    expect(roundDecimal('0.7738740133106331', 6)).toBe('0.773874');
    expect(roundDecimal('0.0000005', 6)).toBe('0.000001');
    expect(roundDecimal('123456789.123456789123456789', 6)).toBe('123456789.123457');
    expect(normalizeDecimal('1e-7')).toBe('0.0000001');
    expect(normalizeDecimal(7.5e-7)).toBe('0.00000075');
    expect(normalizeDecimal('2.50')).toBe('2.5');
    expect(normalizeDecimal('abc')).toBeUndefined();
  });
});
