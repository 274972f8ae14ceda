/**
 * The sandbox's answer bodies as third-party clients of the real service read them (#14), one body
 * generation of the reference at a time over real HTTP, so the sandbox cannot drift back: the real
 * receipt names beside the spec's, and every legacy quote generation at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import {
  call,
  type Generation,
  type Json,
  offrampOrder,
  onrampOrder,
  paths,
  settledStatus,
  WALLET,
} from './http.js';
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

const GENERATIONS: Generation[] = ['current', 'legacy'];
const RECEIPT = /^[A-Z]{2}[1-9A-V][A-Z0-9]{7}$/;
const CHECKOUT_ID = /^ws_CO_\d{17}\d{9}$/;

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
  sandbox = await startSandbox({ port: 0, settleMs: 40, kesPerUsd: 129.45 });
});
afterAll(() => sandbox.close());

describe.each(GENERATIONS)('receipts under the real names (%s paths)', (generation) => {
  it('on-ramp status: mpesaReceipt beside mobilemoneyReceipt, the checkout id while pending', async () => {
    const id = await onrampOrder(sandbox, generation, '254700000002');
    const r = await call(sandbox, 'GET', paths(generation).onrampStatus(id));
    expectShape(r.json, ONRAMP_STATUS_PENDING);
    const details = r.json.data?.details;
    expect(details?.mpesaReceipt).toMatch(CHECKOUT_ID);
    expect(details?.mobilemoneyReceipt).toBe(details?.mpesaReceipt);
  });

  it('on-ramp status: the paid receipt under both names', async () => {
    const id = await onrampOrder(sandbox, generation, '254711000111');
    const body = await settledStatus(sandbox, paths(generation).onrampStatus(id));
    expectShape(body, ONRAMP_STATUS_SUCCESS);
    expect(body.data?.status).toBe('SUCCESS');
    expect(body.data?.details?.mpesaReceipt).toMatch(RECEIPT);
    expect(body.data?.details?.mobilemoneyReceipt).toBe(body.data?.details?.mpesaReceipt);
  });

  if (generation === 'legacy') {
    it('on-ramp status: the February CANCELLED body carries mpesaReceipt too', async () => {
      const id = await onrampOrder(sandbox, generation, '254700000003');
      const body = await settledStatus(sandbox, paths(generation).onrampStatus(id));
      expectShape(body, ONRAMP_STATUS_CANCELLED_FEB_2025);
      expect(body.data?.details?.mpesaReceipt).toMatch(CHECKOUT_ID);
    });
  }

  it('off-ramp status: mpesaReceipt once paid, no receipt while pending', async () => {
    const pendingId = await offrampOrder(sandbox, generation, '254700000002');
    const pending = await call(sandbox, 'GET', paths(generation).offrampStatus(pendingId));
    expect(pending.json.data?.details).not.toHaveProperty('mpesaReceipt');
    expect(pending.json.data?.details).not.toHaveProperty('mobilemoneyReceipt');

    const id = await offrampOrder(sandbox, generation, '254711000222');
    const body = await settledStatus(sandbox, paths(generation).offrampStatus(id));
    expectShape(body, OFFRAMP_STATUS_SUCCESS);
    expect(body.data?.details?.mpesaReceipt).toMatch(RECEIPT);
    expect(body.data?.details?.mobilemoneyReceipt).toBe(body.data?.details?.mpesaReceipt);
  });
});

describe('history records under the real names', () => {
  it('an on-ramp record carries MpesaReceiptNumber beside MobilemoneyReceiptNumber', async () => {
    const id = await onrampOrder(sandbox, 'current', '254711000333');
    const status = await settledStatus(sandbox, paths('current').onrampStatus(id));
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

    it('off-ramp by fiatAmount: the KES the reference body pays asks back that body (inputAmount is what is sent, fee included)', async () => {
      const { amount: _tokens, ...byFiat } = offramp;
      const ref = QUOTE_MID_2025_OFFRAMP.data;
      const r = await call(sandbox, 'POST', '/api/fx-quotes', {
        ...byFiat,
        fiatAmount: ref.fee.estimatedOutputKES,
      });
      const { inputAmount, ...rest } = ref;
      expect(r.json.data).toMatchObject(rest);
      expect(Number(r.json.data?.inputAmount)).toBe(Number(inputAmount));
    });

    it('the reference bodies’ own arithmetic, which the sandbox follows: off-ramp deducts, on-ramp adds', () => {
      const off = QUOTE_MID_2025_OFFRAMP.data;
      expect((Number(off.inputAmount) * off.exchangeRate).toFixed(4)).toBe(off.outputAmount);
      expect(Number(off.outputAmount) - off.fee.feeInOutputCurrency).toBeCloseTo(
        off.fee.estimatedOutputKES,
        2,
      );
      expect((off.fee.feeInOutputCurrency / off.exchangeRate).toFixed(6)).toBe(off.fee.feeInInputCurrency);
      const on = QUOTE_MID_2025_ONRAMP.data;
      expect(on.outputAmount).toBe(Number(on.inputAmount) * (1 / on.exchangeRate));
      expect(Number(on.inputAmount) + on.fee.feeInKES).toBe(on.fee.estimatedOutputKES);
    });
  });
});
