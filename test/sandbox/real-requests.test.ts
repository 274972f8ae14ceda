/**
 * The sandbox takes requests as the real service does (#14): legacy paths under any brand segment,
 * optional fields sent empty read as absent, the manual ticket form on both ticket paths.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { call, onrampOrder, paths, randomHash, settledStatus, USDT_POLYGON, WALLET } from './http.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, settleMs: 40, kesPerUsd: 129.45 });
});
afterAll(() => sandbox.close());

describe('legacy paths under any brand segment', () => {
  let configured: Sandbox;
  beforeAll(async () => {
    configured = await startSandbox({ port: 0, settleMs: 40, legacyBrand: 'acme' });
  });
  afterAll(() => configured.close());

  it.each(['acme', 'svc', 'rampco', 'pay2', 'my-ramp'])(
    'serves every legacy endpoint under /api/%s-…',
    async (brand) => {
      const quote = await call(configured, 'POST', `/api/${brand}-quotes`, {
        type: 'onramp',
        amount: 100,
        fiatCurrency: 'KES',
        cryptoCurrency: 'USDT',
        network: 'polygon',
      });
      expect(quote.status).toBe(200);
      expect(quote.json.data?.fee).toHaveProperty('details');

      const assets = await call(configured, 'GET', `/api/${brand}-supported-assets`);
      expect(assets.json.networks).toEqual(['Lisk', 'celo', 'Base', 'Polygon']);

      const order = await call(configured, 'POST', `/api/${brand}-onramp`, {
        partyA: '254711000444',
        amount: 100,
        side: 'onramp',
        userAddress: WALLET,
        tokenAddress: USDT_POLYGON,
      });
      const orderId = String(order.json.data?.orderID);
      expect(orderId).toMatch(/^D-/);
      await settledStatus(configured, `/api/order-onramp-status/${orderId}`);
      const release = await call(configured, 'POST', `/api/${brand}-deposit`, {
        chain: 'polygon',
        address: WALLET,
        orderID: orderId,
        project: 'real-clients',
      });
      expect(release.json).toMatchObject({ status: 200, message: 'Transaction processed successfully' });

      const offramp = await call(configured, 'POST', `/api/${brand}-order-offramp`, {
        chain: 'polygon',
        hash: randomHash(),
        partyB: '254711000444',
        tokenAddress: USDT_POLYGON,
      });
      expect(offramp.json).toMatchObject({
        status: 'success',
        data: { orderID: expect.stringMatching(/^WD-/) },
      });
    },
  );

  it('keeps /api/fx-quotes the current quote (not brand "fx"), and unknown endpoints 404', async () => {
    const current = await call(configured, 'POST', '/api/fx-quotes', {
      type: 'onramp',
      amount: 100,
      fiatCurrency: 'KES',
      cryptoCurrency: 'USDT',
      network: 'scroll',
    });
    expect(current.status).toBe(200);
    expect(current.json.data?.fee).not.toHaveProperty('details');
    expect((await call(configured, 'POST', '/api/acme-nothing', {})).status).toBe(404);
    expect((await call(configured, 'GET', '/api/acme-quotes')).status).toBe(404);
  });
});

describe('lenient where the service is', () => {
  const tokens = (300 / 129.45).toFixed(6); // 300 KES: B2C fee 6, B2B fee 9
  const quote = (path: string, category?: unknown) =>
    call(sandbox, 'POST', path, {
      type: 'offramp',
      amount: tokens,
      fiatCurrency: 'KES',
      cryptoCurrency: 'USDT',
      network: 'polygon',
      ...(category === undefined ? {} : { category }),
    });

  it.each(['/api/fx-quotes', '/api/svc-quotes'])(
    '%s reads an empty or null category as B2C',
    async (path) => {
      const none = await quote(path);
      expect(none.json.data?.fee).toMatchObject({ feeInOutputCurrency: 6 });
      for (const category of ['', '  ', null]) {
        const r = await quote(path, category);
        expect(r.status, JSON.stringify(category)).toBe(200);
        expect(r.json).toEqual(none.json);
      }
      expect((await quote(path, 'b2b')).json.data?.fee).toMatchObject({ feeInOutputCurrency: 9 });
      const wrong = await quote(path, 'B2X');
      expect(wrong.status).toBe(400);
      expect(wrong.json).toMatchObject({ statusCode: 400, message: 'Validation failed' });
    },
  );

  it('reads other optional fields sent empty as absent', async () => {
    const legacyOrder = await call(sandbox, 'POST', '/api/svc-order-offramp', {
      chain: 'polygon',
      hash: randomHash(),
      partyB: '254700000001',
      tokenAddress: USDT_POLYGON,
      project: '',
      userAddress: '',
    });
    expect(legacyOrder.json).toMatchObject({ status: 'success' });
    const orderID = String(legacyOrder.json.data?.orderID);
    await settledStatus(sandbox, paths('legacy').offrampStatus(orderID));
    const ticket = await call(sandbox, 'POST', '/api/offramp-ticket', {
      orderID,
      description: 'Payout failed',
      symbol: '',
      chain: null,
    });
    expect(ticket.json).toMatchObject({
      status: 'success',
      data: { refund: { symbol: 'USDT', chain: 'polygon', Side: 'off-ramp' } },
    });

    const current = await call(sandbox, 'POST', '/api/offramp-orders', {
      chain: 'polygon',
      hash: randomHash(),
      partyB: '254700000001',
      tokenAddress: USDT_POLYGON,
      project: '',
      userAddress: WALLET,
    });
    expect(current.status).toBe(400);
    expect(current.json.status).toBe('error');
  });
});

describe.each([
  ['current', '/api/onramp-ticket', '/api/offramp-ticket'],
  ['legacy', '/api/user-onramp-ticket', '/api/create-offramp-ticket'],
])('manual tickets on the on-ramp ticket path (%s)', (_generation, onrampPath, offrampPath) => {
  const ALL_INPUTS =
    'Please provide all required inputs: phone, amount, description, side, userAddress, symbol, tokenAddress, and chain';
  const manual = {
    phone: '254700000001',
    amount: '100',
    description: 'Paid by M-Pesa, no tokens arrived',
    side: 'on-ramp',
    userAddress: WALLET,
    symbol: 'USDT',
    tokenAddress: USDT_POLYGON,
    chain: 'polygon',
  };

  it('files it as the off-ramp path does', async () => {
    const before = sandbox.tickets().length;
    const on = await call(sandbox, 'POST', onrampPath, manual);
    const off = await call(sandbox, 'POST', offrampPath, manual);
    for (const r of [on, off]) {
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({
        status: 'success',
        data: {
          refund: {
            PhoneNumber: '254700000001',
            Amount: '100',
            Description: manual.description,
            Side: 'on-ramp',
            userAddress: WALLET,
            symbol: 'USDT',
            tokenAddress: USDT_POLYGON,
            chain: 'polygon',
            _id: expect.stringMatching(/^[0-9a-f]{24}$/),
          },
        },
      });
    }
    expect(sandbox.tickets().length).toBe(before + 2);
  });

  it('takes an empty orderID as the manual form, and a missing side as the path’s side', async () => {
    const { side: _, ...noSide } = manual;
    const on = await call(sandbox, 'POST', onrampPath, { ...noSide, orderID: '' });
    expect(on.json).toMatchObject({ status: 'success', data: { refund: { Side: 'on-ramp' } } });
    const off = await call(sandbox, 'POST', offrampPath, { ...noSide, orderID: '' });
    expect(off.json).toMatchObject({ status: 'success', data: { refund: { Side: 'off-ramp' } } });
  });

  it('refuses a missing field with the service’s text, on both paths alike', async () => {
    const { tokenAddress: _, ...missing } = manual;
    const on = await call(sandbox, 'POST', onrampPath, missing);
    const off = await call(sandbox, 'POST', offrampPath, missing);
    expect(on).toEqual({ status: 400, json: { status: 'error', message: ALL_INPUTS } });
    expect(off).toEqual(on);
    const empty = await call(sandbox, 'POST', onrampPath, { ...manual, amount: '' });
    expect(empty).toEqual(on);
  });

  it('still takes the orderID form: only failed or cancelled on-ramp orders', async () => {
    const paid = await onrampOrder(sandbox, 'current', '254711000555');
    await settledStatus(sandbox, paths('current').onrampStatus(paid));
    const refused = await call(sandbox, 'POST', onrampPath, { orderID: paid, description: 'x' });
    expect(refused).toEqual({
      status: 400,
      json: { status: 'error', message: 'No failed transaction found with this orderID' },
    });
  });
});
