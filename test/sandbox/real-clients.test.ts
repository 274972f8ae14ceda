/**
 * The sandbox answers third-party clients of the real service as the service does (#14): the real
 * receipt names beside the spec's, every legacy quote body generation at once, legacy paths under any
 * brand, empty optional fields read as absent. Each body generation of the reference is fixed here
 * over real HTTP, so the sandbox cannot drift back.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import {
  OFFRAMP_STATUS_SUCCESS,
  ONRAMP_HISTORY_RECORD,
  ONRAMP_STATUS_CANCELLED_FEB_2025,
  ONRAMP_STATUS_PENDING,
  ONRAMP_STATUS_SUCCESS,
  QUOTE_JUNE_2025_OFFRAMP_FEE,
  QUOTE_MID_2025_OFFRAMP,
  QUOTE_MID_2025_ONRAMP,
  QUOTE_OLDEST_OFFRAMP,
  QUOTE_OLDEST_ONRAMP,
} from './reference-bodies.js';

type Json = Record<string, unknown> & { data?: Json; details?: Json };
type Generation = 'current' | 'legacy';
const GENERATIONS: Generation[] = ['current', 'legacy'];

const SETTLE_MS = 40;
const USDT_POLYGON = '0xc2132D05D31c914a87C6611C10748AEb04B58e8F';
const WALLET = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';
const RECEIPT = /^[A-Z]{2}[1-9A-V][A-Z0-9]{7}$/;
const CHECKOUT_ID = /^ws_CO_\d{17}\d{9}$/;

const randomHash = () => `0x${randomBytes(32).toString('hex')}`;

/** The JSON type of every leaf: two bodies of one shape map to equal trees. */
function shapeOf(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(shapeOf);
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shapeOf(x)]));
  }
  return v === null ? 'null' : typeof v;
}

/** Every key of `reference` is in `actual`, with the same JSON type (extra keys allowed). */
function expectShape(actual: unknown, reference: unknown) {
  expect(shapeOf(actual)).toMatchObject(shapeOf(reference) as object);
}

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, settleMs: SETTLE_MS, kesPerUsd: 129.45 });
});
afterAll(() => sandbox.close());

async function call(s: Sandbox, method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      'x-api-key': s.options.apiKey,
      'x-api-secret': s.options.apiSecret,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Json };
}

const paths = (generation: Generation, brand = 'svc') =>
  generation === 'current'
    ? {
        onramp: '/api/onramp-orders',
        onrampStatus: (id: string) => `/api/onramp-order-status/${id}`,
        offramp: '/api/offramp-orders',
        offrampStatus: (id: string) => `/api/offramp-order-status/${id}`,
      }
    : {
        onramp: `/api/${brand}-onramp`,
        onrampStatus: (id: string) => `/api/order-onramp-status/${id}`,
        offramp: `/api/${brand}-order-offramp`,
        offrampStatus: (id: string) => `/api/order-offramp-status/${id}`,
      };

async function onrampOrder(generation: Generation, phone: string): Promise<string> {
  const r = await call(sandbox, 'POST', paths(generation).onramp, {
    partyA: phone,
    amount: '100',
    side: 'onramp',
    userAddress: WALLET,
    tokenAddress: USDT_POLYGON,
  });
  expect(r.status).toBe(200);
  return String(r.json.data?.orderID);
}

async function offrampOrder(generation: Generation, phone: string): Promise<string> {
  const r = await call(sandbox, 'POST', paths(generation).offramp, {
    chain: 'polygon',
    hash: randomHash(),
    partyB: phone,
    tokenAddress: USDT_POLYGON,
    project: 'real-clients',
    userAddress: WALLET,
  });
  expect(r.status).toBe(200);
  return String(r.json.data?.orderID);
}

/** Reads a status path until it is no longer PENDING. */
async function settledStatus(path: string): Promise<Json> {
  for (let i = 0; i < 200; i++) {
    const r = await call(sandbox, 'GET', path);
    if (r.json.data?.status !== 'PENDING') return r.json;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${path} did not settle`);
}

describe.each(GENERATIONS)('receipts under the real names (%s paths)', (generation) => {
  it('on-ramp status: mpesaReceipt beside mobilemoneyReceipt, the checkout id while pending', async () => {
    const id = await onrampOrder(generation, '254700000002');
    const r = await call(sandbox, 'GET', paths(generation).onrampStatus(id));
    expectShape(r.json, ONRAMP_STATUS_PENDING);
    const details = r.json.data?.details;
    expect(details?.mpesaReceipt).toMatch(CHECKOUT_ID);
    expect(details?.mobilemoneyReceipt).toBe(details?.mpesaReceipt);
  });

  it('on-ramp status: the paid receipt under both names', async () => {
    const id = await onrampOrder(generation, '254711000111');
    const body = await settledStatus(paths(generation).onrampStatus(id));
    expectShape(body, ONRAMP_STATUS_SUCCESS);
    expect(body.data?.status).toBe('SUCCESS');
    expect(body.data?.details?.mpesaReceipt).toMatch(RECEIPT);
    expect(body.data?.details?.mobilemoneyReceipt).toBe(body.data?.details?.mpesaReceipt);
  });

  if (generation === 'legacy') {
    it('on-ramp status: the February CANCELLED body carries mpesaReceipt too', async () => {
      const id = await onrampOrder(generation, '254700000003');
      const body = await settledStatus(paths(generation).onrampStatus(id));
      expectShape(body, ONRAMP_STATUS_CANCELLED_FEB_2025);
      expect(body.data?.details?.mpesaReceipt).toMatch(CHECKOUT_ID);
    });
  }

  it('off-ramp status: mpesaReceipt once paid, no receipt while pending', async () => {
    const pendingId = await offrampOrder(generation, '254700000002');
    const pending = await call(sandbox, 'GET', paths(generation).offrampStatus(pendingId));
    expect(pending.json.data?.details).not.toHaveProperty('mpesaReceipt');
    expect(pending.json.data?.details).not.toHaveProperty('mobilemoneyReceipt');

    const id = await offrampOrder(generation, '254711000222');
    const body = await settledStatus(paths(generation).offrampStatus(id));
    expectShape(body, OFFRAMP_STATUS_SUCCESS);
    expect(body.data?.details?.mpesaReceipt).toMatch(RECEIPT);
    expect(body.data?.details?.mobilemoneyReceipt).toBe(body.data?.details?.mpesaReceipt);
  });
});

describe('history records under the real names', () => {
  it('an on-ramp record carries MpesaReceiptNumber beside MobilemoneyReceiptNumber', async () => {
    const id = await onrampOrder('current', '254711000333');
    const status = await settledStatus(paths('current').onrampStatus(id));
    const r = await call(sandbox, 'GET', `/api/deposit-transactions/${WALLET}?limit=100`);
    const records = r.json.data as unknown as Json[];
    const record = records.find((x) => x.orderID === id);
    expectShape(record, { ...ONRAMP_HISTORY_RECORD, transactionID: '' });
    expect(record?.MpesaReceiptNumber).toBe(status.data?.details?.mpesaReceipt);
    expect(record?.MobilemoneyReceiptNumber).toBe(record?.MpesaReceiptNumber);
  });
});

describe('quote bodies of every generation', () => {
  let at12922: Sandbox;
  beforeAll(async () => {
    at12922 = await startSandbox({ port: 0, kesPerUsd: 129.22 });
  });
  afterAll(() => at12922.close());

  const offramp = {
    type: 'offramp',
    amount: '0.2',
    fiatCurrency: 'KES',
    cryptoCurrency: 'USDT',
    network: 'lisk',
  };
  const onramp = {
    type: 'onramp',
    amount: '100',
    fiatCurrency: 'KES',
    cryptoCurrency: 'USDT',
    network: 'lisk',
  };

  describe('legacy path: the union of the oldest, June 2025 and mid-2025 bodies', () => {
    it('off-ramp: fee.details (oldest) and fee in both currencies with limits (mid-2025)', async () => {
      const r = await call(sandbox, 'POST', '/api/svc-quotes', offramp);
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject(QUOTE_OLDEST_OFFRAMP);
      expect(r.json).toMatchObject(QUOTE_MID_2025_OFFRAMP);
      expect(r.json.data?.fee).toMatchObject(QUOTE_JUNE_2025_OFFRAMP_FEE);
    });

    it('off-ramp: outputAmount is 4-decimal text, as the service types it', async () => {
      const r = await call(sandbox, 'POST', '/api/svc-quotes', { ...offramp, amount: 1 });
      expect(r.json.data?.outputAmount).toBe('129.4500');
      expect(r.json.data?.fee).toMatchObject({ amount: 0.04635, feeInInputCurrency: '0.046350' });
    });

    it('off-ramp: limits.min and limits.max are there for clients that render them', async () => {
      const r = await call(sandbox, 'POST', '/api/svc-quotes', offramp);
      const limits = r.json.data?.limits as { min: number; max: number } | undefined;
      expect(limits?.min).toBe(10);
      expect(limits?.max).toBe(30000);
    });

    it('on-ramp: fee.amount and fee.details (oldest), fee.feeInKES and limits (mid-2025)', async () => {
      const r = await call(at12922, 'POST', '/api/svc-quotes', onramp);
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject(QUOTE_OLDEST_ONRAMP);
      expect(r.json).toMatchObject(QUOTE_MID_2025_ONRAMP);
    });
  });

  describe('current path: the current body, unchanged', () => {
    it('off-ramp', async () => {
      const r = await call(sandbox, 'POST', '/api/fx-quotes', offramp);
      expect(r.json).toMatchObject(QUOTE_MID_2025_OFFRAMP);
      expect(r.json.data?.fee).toMatchObject({ ...QUOTE_JUNE_2025_OFFRAMP_FEE, amount: '0.007725' });
      expect(r.json.data?.fee).not.toHaveProperty('details');
    });

    it('on-ramp', async () => {
      const r = await call(at12922, 'POST', '/api/fx-quotes', onramp);
      expect(r.json).toEqual(QUOTE_MID_2025_ONRAMP);
    });
  });
});

describe('legacy paths under any brand segment', () => {
  let configured: Sandbox;
  beforeAll(async () => {
    configured = await startSandbox({ port: 0, settleMs: SETTLE_MS, legacyBrand: 'acme' });
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
      for (let i = 0; i < 200; i++) {
        const s = await call(configured, 'GET', `/api/order-onramp-status/${orderId}`);
        if (s.json.data?.status === 'SUCCESS') break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
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
    await settledStatus(paths('legacy').offrampStatus(orderID));
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
    const paid = await onrampOrder('current', '254711000555');
    await settledStatus(paths('current').onrampStatus(paid));
    const refused = await call(sandbox, 'POST', onrampPath, { orderID: paid, description: 'x' });
    expect(refused).toEqual({
      status: 400,
      json: { status: 'error', message: 'No failed transaction found with this orderID' },
    });
  });
});
