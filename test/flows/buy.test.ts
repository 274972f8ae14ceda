import { afterAll, describe, expect, it } from 'vitest';
import { buyOrderKey, initialSession } from '../../src/flows/index.js';
import type { Effect } from '../../src/flows/types.js';
import {
  ALGO_WALLET,
  ASSETS,
  Driver,
  missingCoreTexts,
  onlyEffect,
  onrampQuote,
  textOf,
  WALLET,
  WALLET_BAD_CHECKSUM,
  WALLET_LOWER,
} from './helpers.js';

type CreateOrder = Extract<Effect, { type: 'createOnrampOrder' }>;
const flowId = (d: Driver) => (d.flow as { id: string }).id;

/** Walks /buy step by step to the summary of KES 1,000 of USDT on Polygon. */
function toSummary(d = new Driver()): Driver {
  d.command('buy');
  d.assets();
  d.text('1,000');
  d.button('buy:tok:USDT');
  d.button('buy:net:polygon');
  d.text(WALLET_LOWER);
  d.text('0712 345 678');
  d.quote(onrampQuote(1000), 'buy');
  return d;
}

describe('buy: the whole journey', () => {
  it('asks each step, summarises the quote, re-quotes on Confirm and creates exactly one order', () => {
    const d = new Driver();
    expect(onlyEffect(d.command('buy'))).toEqual({ type: 'fetchAssets' });
    expect(d.assets().ids).toContain('buy-ask-amount');
    expect(d.text('1,000').ids).toContain('buy-ask-token');
    const net = d.button('buy:tok:USDT');
    expect(net.ids).toContain('buy-ask-network');
    expect(net.buttonIds).toEqual(
      expect.arrayContaining(['buy:net:polygon', 'buy:net:celo', 'buy:net:lisk']),
    );
    expect(d.button('buy:net:polygon').ids).toContain('buy-ask-wallet');
    const phone = d.text(WALLET_LOWER);
    expect(phone.ids).toContain('buy-ask-phone');
    expect(phone.sends[0]?.requestPhone).toBe(true);
    const fetch = onlyEffect(d.text('0712 345 678'));
    expect(fetch).toEqual({
      type: 'fetchQuote',
      request: { type: 'onramp', network: 'polygon', token: 'USDT', fiatCurrency: 'KES', amount: '1000' },
      purpose: 'buy',
    });

    const summary = d.quote(onrampQuote(1000), 'buy');
    expect(d.at).toBe('summary');
    expect(summary.ids).toEqual(
      expect.arrayContaining([
        'buy-summary-title',
        'quote-rate',
        'quote-fee',
        'quote-pay-kes',
        'quote-receive-token',
      ]),
    );
    expect(textOf(summary, 'quote-fee')?.args).toEqual({ feeKes: 'KES 6.00', feeToken: '0.046432 USDT' });
    expect(textOf(summary, 'quote-pay-kes')?.args).toEqual({ amount: 'KES 1,006.00' });
    expect(textOf(summary, 'quote-receive-token')?.args).toEqual({ amount: '7.73874 USDT' });
    expect(textOf(summary, 'quote-limits')?.args).toEqual({ min: 'KES 1.00', max: 'KES 10,000.00' });
    expect(textOf(summary, 'buy-summary-details')?.args).toEqual({
      wallet: WALLET,
      network: 'Polygon',
      phone: '+254 712 345 678',
    });
    const confirmId = `buy:confirm:${flowId(d)}`;
    expect(summary.buttonIds).toContain(confirmId);
    expect(new TextEncoder().encode(confirmId).length).toBeLessThan(64);

    const requote = onlyEffect(d.button(confirmId));
    expect(requote).toMatchObject({ type: 'fetchQuote', purpose: 'reconfirm', request: { amount: '1000' } });
    expect(d.at).toBe('reconfirming');

    const created = onlyEffect(d.quote(onrampQuote(1000, 129.5), 'reconfirm')) as CreateOrder;
    expect(created.type).toBe('createOnrampOrder');
    expect(created.idempotencyKey).toBe(buyOrderKey(flowId(d)));
    expect(created.idempotencyKey).toMatch(/^buy:[a-z0-9-]+:confirm$/);
    expect(created.request).toEqual({
      phone: '254712345678',
      amountKes: 1000,
      userAddress: WALLET,
      tokenAddress: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
    });
    expect(created.track).toEqual({
      paidKes: 1006,
      side: 'onramp',
      user: d.user,
      network: 'polygon',
      walletAddress: WALLET,
      token: { symbol: 'USDT', address: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', decimals: 6 },
      amountKes: 1000,
      tokenAmount: String(1000 * (1 / 129.5)),
      phone: '254712345678',
    });
    expect(d.at).toBe('submitting');
    expect(d.session.profile).toEqual({
      ownsTypedPhones: true,
      phone: '254712345678',
      wallets: { polygon: WALLET },
      lastBuy: { token: 'USDT', network: 'polygon' },
    });

    const stk = d.feed({
      kind: 'onrampCreated',
      orderId: 'D-ri3b1-7H',
      idempotencyKey: created.idempotencyKey,
    });
    expect(stk.ids).toEqual(expect.arrayContaining(['buy-stk-sent', 'buy-never-pin']));
    expect(textOf(stk, 'buy-stk-sent')?.args).toEqual({ orderId: 'D-ri3b1-7H', phone: '+254 712 345 678' });
    expect(d.at).toBe('awaiting');
  });

  it('two buy flows at different times get different idempotency keys', () => {
    const a = toSummary(new Driver());
    const b = new Driver();
    b.now += 5000;
    toSummary(b);
    expect(flowId(a)).not.toBe(flowId(b));
  });

  it('offers the saved wallet and phone on the next purchase', () => {
    const d = toSummary();
    d.button(`buy:confirm:${flowId(d)}`);
    d.quote(onrampQuote(1000), 'reconfirm');
    d.command('menu');
    d.command('buy', '200 usdt polygon');
    const ask = d.assets();
    expect(ask.ids).toContain('buy-ask-wallet');
    expect(ask.buttonIds).toContain('buy:wallet:saved');
    expect(d.button('buy:wallet:saved').buttonIds).toContain('buy:phone:saved');
    expect(onlyEffect(d.button('buy:phone:saved'))).toMatchObject({
      type: 'fetchQuote',
      request: { amount: '200' },
    });
  });
});

describe('buy: one-line command', () => {
  it('goes straight to the summary after the assets and the quote', () => {
    const d = new Driver();
    d.command('buy', `500 KES USDT polygon ${WALLET} 0712345678`);
    const fetch = onlyEffect(d.assets());
    expect(fetch).toMatchObject({
      type: 'fetchQuote',
      request: { amount: '500', network: 'polygon', token: 'USDT' },
    });
    d.quote(onrampQuote(500), 'buy');
    expect(d.at).toBe('summary');
  });

  it('reads the parts in any order and any case, with +254 and KES glued to the number', () => {
    const d = new Driver();
    d.command('buy', `+254712345678 POLYGON ${WALLET_LOWER} usdt 500kes`);
    expect(onlyEffect(d.assets())).toMatchObject({
      type: 'fetchQuote',
      request: { amount: '500', network: 'polygon', token: 'USDT' },
    });
    d.quote(onrampQuote(500), 'buy');
    expect((d.flow as { wallet?: string }).wallet).toBe(WALLET);
    expect((d.flow as { phone?: string }).phone).toBe('254712345678');
  });

  it('asks only for what is missing', () => {
    const d = new Driver();
    d.command('buy', '500 usdt');
    const ask = d.assets();
    expect(ask.ids).toContain('buy-ask-network');
    expect(d.flow).toMatchObject({ amountKes: 500, token: 'USDT', step: 'network' });
  });

  it('picks the only network of a token by itself', () => {
    const d = new Driver();
    d.command('buy', '300 cKES');
    expect(d.assets().ids).toContain('buy-ask-wallet');
    expect(d.flow).toMatchObject({ network: 'celo', token: 'cKES' });
  });

  it('also starts from text typed at the menu ("buy 500 usdt polygon") and from "/buy …" as text', () => {
    const a = new Driver();
    a.text('buy 500 usdt polygon');
    a.assets();
    expect(a.flow).toMatchObject({ name: 'buy', amountKes: 500, network: 'polygon', step: 'wallet' });
    const b = new Driver();
    b.text('/buy 700 usdt celo');
    b.assets();
    expect(b.flow).toMatchObject({ name: 'buy', amountKes: 700, network: 'celo', step: 'wallet' });
  });

  it('says which parts it could not use, and refuses a bad address or phone in the command', () => {
    const d = new Driver();
    d.command('buy', `500 usdt polygon ${WALLET_BAD_CHECKSUM} 0812345678 pronto`);
    const out = d.assets();
    expect(out.ids).toEqual(
      expect.arrayContaining([
        'buy-phone-invalid',
        'buy-words-ignored',
        'buy-wallet-bad-checksum',
        'buy-ask-wallet',
      ]),
    );
    expect(textOf(out, 'buy-words-ignored')?.args).toEqual({ words: 'pronto' });
  });
});

describe('buy: refusals', () => {
  const atStep = (step: string) => {
    const d = new Driver();
    d.command('buy');
    d.assets();
    if (step === 'amount') return d;
    d.text('1000');
    d.button('buy:tok:USDT');
    if (step === 'network') return d;
    d.button('buy:net:polygon');
    if (step === 'wallet') return d;
    d.text(WALLET);
    return d;
  };

  it('refuses a phone that is not a Kenyan mobile number, typed or shared', () => {
    const d = atStep('phone');
    for (const bad of ['0812345678', '12345', '+255712345678']) {
      const out = d.text(bad);
      expect(out.ids).toContain('buy-phone-invalid');
      expect(out.effects.some((e) => e.type === 'fetchQuote')).toBe(false);
      expect(d.at).toBe('phone');
    }
    expect(d.contact('+44 7700 900123').ids).toContain('buy-phone-invalid');
    expect(onlyEffect(d.contact('+254 712 345 678'))).toMatchObject({ type: 'fetchQuote' });
  });

  it('accepts 07…, 01…, 7… and +254… phones', () => {
    for (const [typed, phone] of [
      ['0712345678', '254712345678'],
      ['0112345678', '254112345678'],
      ['712345678', '254712345678'],
      ['+254 712-345-678', '254712345678'],
    ]) {
      const d = atStep('phone');
      d.text(typed!);
      expect((d.flow as { phone?: string }).phone).toBe(phone);
    }
  });

  it('refuses a mixed-case EVM address with a bad checksum, saying so', () => {
    const d = atStep('wallet');
    const out = d.text(WALLET_BAD_CHECKSUM);
    expect(out.ids).toEqual([
      'buy-wallet-bad-checksum',
      'buy-ask-wallet',
      'core-button-back',
      'core-button-cancel',
    ]);
    expect(d.at).toBe('wallet');
  });

  it('refuses an address of the wrong network format, and nonsense', () => {
    const d = atStep('wallet');
    const algorand = d.text(ALGO_WALLET);
    expect(textOf(algorand, 'buy-wallet-algorand-on-evm')?.args).toEqual({
      address: ALGO_WALLET,
      network: 'Polygon',
    });
    expect(d.text('0x1234').ids).toContain('buy-wallet-wrong-format');
    expect(d.text('my wallet please').ids).toContain('buy-wallet-wrong-format');
    expect(d.text('0x0000000000000000000000000000000000000000').ids).toContain('buy-wallet-wrong-format');
    expect(d.at).toBe('wallet');
    d.text(WALLET_LOWER);
    expect((d.flow as { wallet?: string }).wallet).toBe(WALLET);
  });

  it('refuses amounts that are not whole positive shillings', () => {
    const d = atStep('amount');
    expect(d.text('12.50').ids).toContain('buy-amount-not-whole');
    expect(d.text('abc').ids).toContain('buy-amount-invalid');
    expect(d.text('0').ids).toContain('buy-amount-invalid');
    expect(d.at).toBe('amount');
    d.text('1500.00');
    expect((d.flow as { amountKes?: number }).amountKes).toBe(1500);
  });

  it('refuses an amount below the quoted minimum before anything moves, then takes a new one', () => {
    const d = atStep('phone');
    d.text('0712345678');
    const low = { ...onrampQuote(1000), limits: { min: 2000, max: 10000, currency: 'KES' } };
    const out = d.quote(low, 'buy');
    expect(out.ids).toEqual(
      expect.arrayContaining(['buy-amount-below-min', 'buy-ask-amount', 'buy-amount-range']),
    );
    expect(textOf(out, 'buy-amount-below-min')?.args).toEqual({
      amount: 'KES 1,000.00',
      min: 'KES 2,000.00',
    });
    expect(d.at).toBe('amount');
    expect(onlyEffect(d.text('2500'))).toMatchObject({ type: 'fetchQuote', request: { amount: '2500' } });
    expect(d.allEffects('createOnrampOrder')).toHaveLength(0);
  });

  it('a bare number typed at the token step is not taken as a new amount', () => {
    const d = new Driver();
    d.command('buy', '1000');
    d.assets();
    expect(d.at).toBe('token');
    const out = d.text('1');
    expect(out.ids).toContain('buy-token-unknown');
    expect(d.at).toBe('token');
    expect((d.flow as { amountKes?: number }).amountKes).toBe(1000);
  });

  it('refuses an amount above the maximum, also when the limits shrink at confirmation', () => {
    const d = new Driver();
    d.command('buy', `20000 usdt polygon ${WALLET} 0712345678`);
    const out = d.assets();
    // Refused where it is typed, with the user's own figure, before any quote is asked.
    expect(textOf(out, 'buy-amount-outside')?.args).toEqual({ amount: 20000, min: 1, max: 10000 });
    expect(d.allEffects('fetchQuote')).toHaveLength(0);
    expect(d.at).toBe('amount');

    const e = toSummary();
    e.button(`buy:confirm:${flowId(e)}`);
    const shrunk = { ...onrampQuote(1000), limits: { min: 1, max: 500, currency: 'KES' } };
    expect(e.quote(shrunk, 'reconfirm').ids).toContain('buy-amount-above-max');
    expect(e.allEffects('createOnrampOrder')).toHaveLength(0);
  });
});

describe('buy: re-quote at confirmation', () => {
  it('asks again when the rate moved beyond the tolerance, then creates on the second Confirm', () => {
    const d = toSummary();
    d.button(`buy:confirm:${flowId(d)}`);
    const moved = d.quote(onrampQuote(1000, 131), 'reconfirm');
    expect(moved.ids).toEqual(expect.arrayContaining(['buy-rate-moved', 'buy-summary-title']));
    expect(textOf(moved, 'buy-rate-moved')?.args).toEqual({
      before: 'KES 129.22',
      after: 'KES 131.00',
      token: 'USDT',
    });
    expect(moved.effects.filter((e) => e.type !== 'send')).toEqual([]);
    expect(d.at).toBe('summary');
    d.text('ndiyo');
    expect(d.at).toBe('reconfirming');
    const created = onlyEffect(d.quote(onrampQuote(1000, 131.5), 'reconfirm')) as CreateOrder;
    expect(created.type).toBe('createOnrampOrder');
    expect(created.track.tokenAmount).toBe(String(1000 * (1 / 131.5)));
  });

  it('"no" at the summary cancels without an order', () => {
    const d = toSummary();
    expect(d.text('Hapana').ids).toContain('core-cancelled');
    expect(d.flow).toEqual({ name: 'menu' });
    expect(d.allEffects('createOnrampOrder')).toHaveLength(0);
  });

  it('creates the order when the move is within the tolerance', () => {
    const d = toSummary();
    d.rateTolerancePct = 2;
    d.button(`buy:confirm:${flowId(d)}`);
    expect(onlyEffect(d.quote(onrampQuote(1000, 131), 'reconfirm')).type).toBe('createOnrampOrder');
  });
});

describe('buy: double Confirm', () => {
  it('never emits a second createOnrampOrder, whatever is tapped or typed', () => {
    const d = toSummary();
    const confirm = `buy:confirm:${flowId(d)}`;
    d.button(confirm);
    expect(d.button(confirm).ids).toContain('buy-please-wait');
    d.quote(onrampQuote(1000), 'reconfirm');
    expect(d.button(confirm).ids).toContain('buy-already-sending');
    d.text('1');
    d.text('yes');
    const key = buyOrderKey(flowId(d));
    d.feed({ kind: 'onrampCreated', orderId: 'D-ri3b1-7H', idempotencyKey: key });
    const again = d.button(confirm);
    expect(again.ids).toContain('buy-already-sent');
    expect(textOf(again, 'buy-already-sent')?.args).toEqual({ orderId: 'D-ri3b1-7H' });
    expect(again.effects.every((e) => e.type === 'send')).toBe(true);
    d.text('confirm');
    d.feed({ kind: 'quote', quote: onrampQuote(1000), purpose: 'reconfirm' });
    expect(d.allEffects('createOnrampOrder')).toHaveLength(1);
    expect(d.allEffects('fetchQuote').filter((e) => e.purpose === 'reconfirm')).toHaveLength(1);
  });

  it('ignores a Confirm button from an earlier buy', () => {
    const d = toSummary();
    const old = `buy:confirm:${flowId(d)}`;
    d.command('cancel');
    toSummary(d);
    const out = d.button(old);
    expect(out.ids).toContain('core-button-stale');
    expect(out.effects.every((e) => e.type === 'send')).toBe(true);
    expect(d.at).toBe('summary');
  });

  it('a Confirm button after leaving to the menu is stale and moves nothing', () => {
    const d = toSummary();
    const confirm = `buy:confirm:${flowId(d)}`;
    d.command('menu');
    const out = d.button(confirm);
    expect(out.ids).toContain('core-button-stale');
    expect(out.effects.every((e) => e.type === 'send')).toBe(true);
  });
});

describe('buy: cancel and back', () => {
  const steps: [string, (d: Driver) => void][] = [
    ['loading', (d) => d.command('buy')],
    ['amount', (d) => d.assets()],
    ['token', (d) => d.text('1000')],
    ['network', (d) => d.button('buy:tok:USDT')],
    ['wallet', (d) => d.button('buy:net:polygon')],
    ['phone', (d) => d.text(WALLET)],
    ['quoting', (d) => d.text('0712345678')],
    ['summary', (d) => d.quote(onrampQuote(1000), 'buy')],
    ['reconfirming', (d) => d.button(`buy:confirm:${flowId(d)}`)],
  ];
  const reach = (step: string) => {
    const d = new Driver();
    for (const [name, go] of steps) {
      go(d);
      if (name === step) break;
    }
    expect(d.at).toBe(step);
    return d;
  };

  for (const [step] of steps) {
    for (const how of ['/cancel', 'cancel', 'Ghairi', 'button']) {
      it(`cancel (${how}) at ${step} leaves to the menu without an order`, () => {
        const d = reach(step);
        const out =
          how === '/cancel' ? d.command('cancel') : how === 'button' ? d.button('nav:cancel') : d.text(how);
        expect(d.flow).toEqual({ name: 'menu' });
        expect(out.ids).toEqual(expect.arrayContaining(['core-cancelled', 'core-menu-title']));
        expect(out.effects.every((e) => e.type === 'send')).toBe(true);
        // A late result of the abandoned step changes nothing.
        d.quote(onrampQuote(1000), 'reconfirm');
        expect(d.allEffects('createOnrampOrder')).toHaveLength(0);
      });
    }
  }

  it('cancel after the order was sent says the prompt is already on its way', () => {
    const d = reach('reconfirming');
    d.quote(onrampQuote(1000), 'reconfirm');
    expect(d.text('cancel').ids).toContain('buy-cancel-too-late-short');
    const e = reach('reconfirming');
    const created = onlyEffect(e.quote(onrampQuote(1000), 'reconfirm')) as CreateOrder;
    e.feed({ kind: 'onrampCreated', orderId: 'D-ri3b1-7H', idempotencyKey: created.idempotencyKey });
    const out = e.text('ghairi');
    expect(textOf(out, 'buy-cancel-too-late')?.args).toEqual({ orderId: 'D-ri3b1-7H' });
  });

  it('the STK message still arrives when the user left while the order was being created', () => {
    const d = reach('reconfirming');
    const created = onlyEffect(d.quote(onrampQuote(1000), 'reconfirm')) as CreateOrder;
    d.command('menu');
    const out = d.feed({
      kind: 'onrampCreated',
      orderId: 'D-ri3b1-7H',
      idempotencyKey: created.idempotencyKey,
    });
    expect(textOf(out, 'buy-stk-sent-short')?.args).toEqual({ orderId: 'D-ri3b1-7H' });
    expect(d.flow).toEqual({ name: 'menu' });
  });

  const backs: [string, string, string][] = [
    ['amount', 'menu', 'core-menu-title'],
    ['token', 'amount', 'buy-ask-amount'],
    ['network', 'token', 'buy-ask-token'],
    ['wallet', 'network', 'buy-ask-network'],
    ['phone', 'wallet', 'buy-ask-wallet'],
    ['summary', 'phone', 'buy-ask-phone'],
  ];
  for (const [from, to, asked] of backs) {
    for (const how of ['back', 'Rudi', 'button']) {
      it(`back (${how}) at ${from} goes to ${to}`, () => {
        const d = reach(from);
        const out = how === 'button' ? d.button('nav:back') : d.text(how);
        expect(out.ids).toContain(asked);
        if (to === 'menu') expect(d.flow).toEqual({ name: 'menu' });
        else expect(d.at).toBe(to);
        expect(out.effects.every((e) => e.type === 'send')).toBe(true);
      });
    }
  }

  it('back clears the step it returns to and keeps the rest', () => {
    const d = reach('phone');
    d.text('back');
    expect(d.flow).toMatchObject({ amountKes: 1000, token: 'USDT', network: 'polygon', step: 'wallet' });
    expect((d.flow as { wallet?: string }).wallet).toBeUndefined();
    d.text(WALLET);
    expect(d.at).toBe('phone');
  });
});

describe('buy: failed effects', () => {
  const failed = (effect: Effect['type'], kind: string, extra: object = {}) =>
    ({ kind: 'effectFailed', effect, error: { kind, ...extra } }) as const;

  for (const kind of ['unauthorized', 'server', 'timeout', 'network']) {
    it(`assets failing (${kind}) says the service is unavailable and leaves to the menu`, () => {
      const d = new Driver();
      d.command('buy');
      const out = d.feed(failed('fetchAssets', kind) as never);
      expect(out.ids).toEqual(expect.arrayContaining(['core-error-unavailable', 'core-menu-title']));
      expect(d.flow).toEqual({ name: 'menu' });
    });
  }

  it('a quote refused for the network lists the supported ones and asks the network again', () => {
    const d = new Driver();
    d.command('buy', `1000 usdt scroll ${WALLET} 0712345678`);
    d.assets();
    const out = d.feed(
      failed('fetchQuote', 'validation', {
        message: 'Invalid network',
        supportedNetworks: ['Lisk', 'celo', 'Base', 'Polygon'],
      }) as never,
    );
    expect(textOf(out, 'core-refused-unsupported-network')).toBeDefined();
    expect(textOf(out, 'core-refused-unsupported-network')?.args).toBeUndefined();
    expect(textOf(out, 'core-error-supported-networks')?.args).toEqual({
      networks: 'Lisk, celo, Base, Polygon',
    });
    expect(d.at).toBe('network');
  });

  it('a quote refused for another reason asks the amount again', () => {
    const d = new Driver();
    d.command('buy', `1000 usdt polygon ${WALLET} 0712345678`);
    d.assets();
    const out = d.feed(failed('fetchQuote', 'validation', { message: 'Amount too small' }) as never);
    expect(out.ids).toEqual(expect.arrayContaining(['core-error-refused-unknown', 'buy-ask-amount']));
    expect(d.at).toBe('amount');
  });

  it('a quote timing out leaves to the menu', () => {
    const d = new Driver();
    d.command('buy', `1000 usdt polygon ${WALLET} 0712345678`);
    d.assets();
    expect(d.feed(failed('fetchQuote', 'timeout') as never).ids).toContain('core-error-unavailable');
    expect(d.flow).toEqual({ name: 'menu' });
  });

  it('the re-quote failing keeps the summary so Confirm can be tried again', () => {
    const d = toSummary();
    d.button(`buy:confirm:${flowId(d)}`);
    const out = d.feed(failed('fetchQuote', 'server') as never);
    expect(out.ids).toEqual(
      expect.arrayContaining(['core-error-unavailable', 'buy-try-again', 'buy-summary-title']),
    );
    expect(d.at).toBe('summary');
    d.button(`buy:confirm:${flowId(d)}`);
    expect(onlyEffect(d.quote(onrampQuote(1000), 'reconfirm')).type).toBe('createOnrampOrder');
  });

  const submitting = () => {
    const d = toSummary();
    d.button(`buy:confirm:${flowId(d)}`);
    d.quote(onrampQuote(1000), 'reconfirm');
    return d;
  };

  it('the order refused by the ramp gives the reason and leaves to the menu', () => {
    const d = submitting();
    const out = d.feed(
      failed('createOnrampOrder', 'validation', { message: 'Failed to initiate STK Push payment' }) as never,
    );
    expect(out.ids).toEqual(
      expect.arrayContaining(['buy-order-refused', 'core-refused-stk-failed', 'core-menu-title']),
    );
    expect(d.flow).toEqual({ name: 'menu' });
  });

  it('an order whose fate is unknown (timeout) does not invite a blind retry', () => {
    const d = submitting();
    const out = d.feed(failed('createOnrampOrder', 'timeout') as never);
    expect(out.ids).toContain('buy-order-uncertain');
    expect(d.flow).toEqual({ name: 'menu' });
  });

  it('unauthorized at order creation says the service is unavailable', () => {
    const d = submitting();
    expect(d.feed(failed('createOnrampOrder', 'unauthorized') as never).ids).toEqual(
      expect.arrayContaining(['buy-order-failed', 'core-error-unavailable']),
    );
  });

  it('no listed tokens leaves to the menu', () => {
    const d = new Driver();
    d.command('buy');
    expect(d.assets({ ...ASSETS, tokens: [] }).ids).toContain('buy-no-assets');
    expect(d.flow).toEqual({ name: 'menu' });
  });

  it('results meant for another step are ignored', () => {
    const d = new Driver();
    d.command('buy');
    d.assets();
    const out = d.quote(onrampQuote(1000), 'buy');
    expect(out.effects).toEqual([]);
    expect(d.at).toBe('amount');
  });
});

describe('buy: the session stays valid JSON for the store', () => {
  it('every state of a journey parses back with sessionSchema', async () => {
    const { sessionSchema } = await import('../../src/app/flows.js');
    const d = new Driver(initialSession({ locale: 'sw' }));
    const check = () => expect(sessionSchema.safeParse(d.session).success).toBe(true);
    d.command('buy');
    check();
    d.assets();
    check();
    toSummary(d);
    check();
    d.button(`buy:confirm:${flowId(d)}`);
    check();
    d.quote(onrampQuote(1000), 'reconfirm');
    check();
  });
});

afterAll(() => {
  expect(missingCoreTexts()).toEqual([]);
});

describe('buy: a returning user', () => {
  /** A user who bought once: the last token and network, the wallet and the phone are saved. */
  function returning(): Driver {
    const d = toSummary();
    d.button(`buy:confirm:${flowId(d)}`);
    const created = onlyEffect(d.quote(onrampQuote(1000), 'reconfirm')) as CreateOrder;
    d.feed({ kind: 'onrampCreated', orderId: 'D-abcde-12', idempotencyKey: created.idempotencyKey });
    d.command('menu');
    return d;
  }

  it('buys in 3 taps: Buy -> amount -> Confirm, with what was saved on the summary and a change button each', () => {
    const d = returning();
    expect(d.session.profile.lastBuy).toEqual({ token: 'USDT', network: 'polygon' });
    d.button('menu:buy'); // tap 1
    expect(d.assets().ids).toContain('buy-ask-amount');
    const fetch = onlyEffect(d.button('buy:amt:500')); // tap 2
    expect(fetch).toMatchObject({
      type: 'fetchQuote',
      request: { token: 'USDT', network: 'polygon', amount: '500' },
    });
    const summary = d.quote(onrampQuote(500), 'buy');
    expect(textOf(summary, 'buy-summary-details')?.args).toMatchObject({ network: 'Polygon' });
    expect(summary.buttonIds).toEqual(
      expect.arrayContaining([
        'buy:change:amount',
        'buy:change:token',
        'buy:change:wallet',
        'buy:change:phone',
      ]),
    );
    d.button(`buy:confirm:${flowId(d)}`); // tap 3
    expect(onlyEffect(d.quote(onrampQuote(500), 'reconfirm')).type).toBe('createOnrampOrder');
  });

  it('"change" at the summary asks that one thing again, offering the saved value', () => {
    const d = returning();
    d.button('menu:buy');
    d.assets();
    d.button('buy:amt:500');
    d.quote(onrampQuote(500), 'buy');
    const wallet = d.button('buy:change:wallet');
    expect(d.at).toBe('wallet');
    expect(wallet.buttonIds).toContain('buy:wallet:saved');
    const token = d.button('buy:wallet:saved');
    expect(onlyEffect(token).type).toBe('fetchQuote');
    d.quote(onrampQuote(500), 'buy');
    d.button('buy:change:token');
    expect(d.at).toBe('token');
  });

  it('a one-line command is not prefilled from the last buy', () => {
    const d = returning();
    d.command('buy', '700');
    expect(d.assets().ids).toContain('buy-ask-token');
  });
});

describe('buy: "Buy again" and "Try again" (issue #25)', () => {
  function returning(): Driver {
    const d = toSummary();
    d.button(`buy:confirm:${flowId(d)}`);
    const created = onlyEffect(d.quote(onrampQuote(1000), 'reconfirm')) as CreateOrder;
    d.feed({ kind: 'onrampCreated', orderId: 'D-abcde-12', idempotencyKey: created.idempotencyKey });
    d.command('menu');
    return d;
  }

  it("the tracker's button (menu:buy:<amount> <token> <network>) goes straight to the quote and summary", () => {
    const d = returning();
    d.button('menu:buy:1000 USDT polygon');
    const fetch = onlyEffect(d.assets());
    expect(fetch).toMatchObject({
      type: 'fetchQuote',
      request: { token: 'USDT', network: 'polygon', amount: '1000' },
    });
    const summary = d.quote(onrampQuote(1000), 'buy');
    expect(d.at).toBe('summary');
    expect(summary.ids).not.toContain('buy-ask-wallet');
    expect(d.flow).toMatchObject({
      wallet: d.session.profile.wallets.polygon,
      phone: d.session.profile.phone,
    });
    d.button(`buy:confirm:${flowId(d)}`);
    expect(onlyEffect(d.quote(onrampQuote(1000), 'reconfirm')).type).toBe('createOnrampOrder');
  });

  it('a wallet changed from that summary is asked, not filled from the saved one again', () => {
    const d = returning();
    d.button('menu:buy:1000 USDT polygon');
    d.assets();
    d.quote(onrampQuote(1000), 'buy');
    d.button('buy:change:wallet');
    expect(d.at).toBe('wallet');
  });

  it('on a network with no saved wallet the wallet is asked (the phone is still filled)', () => {
    const d = returning();
    d.button('menu:buy:1000 USDT celo');
    const asked = d.assets();
    expect(asked.ids).toContain('buy-ask-wallet');
    expect(d.flow).toMatchObject({ phone: d.session.profile.phone });
  });
});

describe('buy: a second push to a number an earlier order still waits on (#25)', () => {
  function pushed(d: Driver, phone: string, orderId: string) {
    d.command('buy', `500 USDT polygon ${WALLET_LOWER} ${phone}`);
    d.assets();
    d.quote(onrampQuote(500), 'buy');
    d.button(`buy:confirm:${flowId(d)}`);
    const created = onlyEffect(d.quote(onrampQuote(500), 'reconfirm')) as CreateOrder;
    return d.feed({ kind: 'onrampCreated', orderId, idempotencyKey: created.idempotencyKey });
  }

  it('the second STK message says an order already waits for payment on this number', () => {
    const d = new Driver();
    expect(pushed(d, '0712340002', 'D-first-11').ids).not.toContain('buy-stk-same-phone-waiting');
    d.now += 3000;
    const second = pushed(d, '0712340002', 'D-second-2');
    expect(textOf(second, 'buy-stk-same-phone-waiting')?.args).toEqual({ orderId: 'D-first-11' });
    // Another number: nothing to say.
    expect(pushed(d, '0712345678', 'D-third-33').ids).not.toContain('buy-stk-same-phone-waiting');
  });

  it('not once the earlier order is final, nor minutes later', () => {
    const d = new Driver();
    pushed(d, '0712340002', 'D-first-11');
    d.feed({ kind: 'orderFinal', orderId: 'D-first-11' });
    expect(pushed(d, '0712340002', 'D-second-2').ids).not.toContain('buy-stk-same-phone-waiting');
    d.command('menu');
    d.feed({ kind: 'orderFinal', orderId: 'D-second-2' });
    expect(d.session.profile.lastPush).toBeUndefined();
    pushed(d, '0712340002', 'D-third-33');
    d.now += 5 * 60_000;
    expect(pushed(d, '0712340002', 'D-fourth-4').ids).not.toContain('buy-stk-same-phone-waiting');
  });
});
