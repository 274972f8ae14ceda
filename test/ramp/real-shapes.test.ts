/**
 * Our client reads every answer shape the real service sends to its third-party clients (#14): the
 * receipt under its real names or the spec's or both, and the legacy quote of each generation or
 * their union. One test per shape, so a stricter parser later cannot break a real answer.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRampClient } from '../../src/ramp/index.js';
import { json, startWire, type Wire } from './wire.js';

const ADDRESS = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';
const CHECKOUT_ID = 'ws_CO_15022025083848183700000001';

let wire: Wire;
beforeEach(async () => {
  wire = await startWire();
});
afterEach(() => wire.close());

const ramp = () =>
  createRampClient({ baseUrl: wire.url, apiKey: 'k', apiSecret: 's', timeoutMs: 2000, retries: 0 });

const both = (key: string, value: string) =>
  key === 'both' ? { mobilemoneyReceipt: value, mpesaReceipt: value } : { [key]: value };

describe.each(['mpesaReceipt', 'mobilemoneyReceipt', 'both'])('receipt sent as %s', (key) => {
  it('on-ramp status: the receipt once paid', async () => {
    wire.respond = json({
      status: 'success',
      data: {
        status: 'SUCCESS',
        message: 'Deposit completed successfully',
        orderID: 'D-roug7-UT',
        details: {
          phoneNumber: '254700000001',
          ...both(key, 'TBF842GPCO'),
          transactionDate: '2025-02-15T08:38:48.000Z',
          resultDescription: 'Transaction initiated',
        },
      },
    });
    const s = await ramp().getOnrampStatus('D-roug7-UT');
    expect(s).toMatchObject({ status: 'SUCCESS', receipt: 'TBF842GPCO' });
    expect(s.checkoutRequestId).toBeUndefined();
  });

  it('on-ramp status: the checkout request id while pending, not a receipt', async () => {
    wire.respond = json({
      status: 'success',
      data: {
        status: 'PENDING',
        message: 'Your deposit is being processed',
        orderID: 'D-roug7-UT',
        details: { phoneNumber: '254700000001', ...both(key, CHECKOUT_ID) },
      },
    });
    const s = await ramp().getOnrampStatus('D-roug7-UT');
    expect(s).toMatchObject({ status: 'PENDING', checkoutRequestId: CHECKOUT_ID });
    expect(s.receipt).toBeUndefined();
  });

  it('off-ramp status: the receipt once paid', async () => {
    wire.respond = json({
      status: 'success',
      data: {
        status: 'SUCCESS',
        message: 'Withdrawal completed successfully',
        details: {
          phoneNumber: '254700000001',
          ReceiverPartyPublicName: '254700000001 - Jane Doe',
          transactionSize: '20.00',
          transactionSide: 'withdraw',
          initiatedAt: '2025-02-02T12:45:21.859Z',
          ...both(key, 'TB21GOZTI9'),
          completedAt: '2025-02-02T15:45:23.000Z',
        },
      },
    });
    expect(await ramp().getOfframpStatus('WD-xsy6e-HO')).toMatchObject({
      status: 'SUCCESS',
      receipt: 'TB21GOZTI9',
      receiverName: 'Jane Doe',
    });
  });
});

describe.each([
  ['MpesaReceiptNumber', { MpesaReceiptNumber: 'TGA6EIIORA' }],
  ['MobilemoneyReceiptNumber', { MobilemoneyReceiptNumber: 'TGA6EIIORA' }],
  ['both', { MobilemoneyReceiptNumber: 'TGA6EIIORA', MpesaReceiptNumber: 'TGA6EIIORA' }],
])('history receipt sent as %s', (_key, receipt) => {
  it('reads the on-ramp record’s receipt', async () => {
    wire.respond = json({
      status: 200,
      message: 'Transactions retrieved successfully (sorted from latest to oldest)',
      data: [
        {
          id: '686fb289c86af65ade30aaf6',
          ...receipt,
          TransactionDate: '2025-07-10T12:31:05.398Z',
          cryptoAmount: '0.1621872103799815',
          side: 'onramp',
          Amount: 21,
          orderID: 'D-d9m0k-T8',
          PhoneNumber: 254700000001,
        },
      ],
      pagination: { currentPage: 1, limit: 10, totalPages: 1, totalCount: 1 },
    });
    const page = await ramp().getHistory('onramp', ADDRESS);
    expect(page.records[0]).toMatchObject({ orderId: 'D-d9m0k-T8', receipt: 'TGA6EIIORA', kesAmount: 21 });
  });
});

describe('legacy quote bodies', () => {
  const offramp = {
    type: 'offramp',
    network: 'lisk',
    token: 'USDT',
    fiatCurrency: 'KES',
    amount: '0.2',
  } as const;
  const onramp = {
    type: 'onramp',
    network: 'lisk',
    token: 'USDT',
    fiatCurrency: 'KES',
    amount: '100',
  } as const;
  const envelope = (data: object) => json({ statusCode: 200, message: 'Quote retrieved successfully', data });
  const common = { inputAmount: '0.2', inputCurrency: 'USDT', outputCurrency: 'KES', exchangeRate: 129.45 };

  it('reads the oldest off-ramp body: numbers, fee.details, no limits', async () => {
    wire.respond = envelope({
      ...common,
      outputAmount: 25.89,
      type: 'offramp',
      network: 'Lisk',
      fee: { amount: 0.007725, currency: 'USDT', details: { feeInKES: 1, estimatedOutputKES: 24.89 } },
    });
    const q = await ramp().getQuote(offramp);
    expect(q).toMatchObject({
      outputAmount: '25.89',
      fee: { amount: '0.007725', kes: 1 },
      estimatedOutputKes: 24.89,
    });
    expect(q.limits).toBeUndefined();
  });

  it('reads the mid-2025 off-ramp body: text outputAmount, fee in both currencies, limits', async () => {
    wire.respond = envelope({
      ...common,
      outputAmount: '25.8900',
      type: 'offramp',
      network: 'lisk',
      fee: {
        feeInInputCurrency: '0.007725',
        currency: 'USDT',
        feeInOutputCurrency: 1,
        estimatedOutputKES: 24.89,
        decimals: 6,
      },
      limits: { min: 10, max: 30000, currency: 'KES' },
    });
    expect(await ramp().getQuote(offramp)).toMatchObject({
      outputAmount: '25.8900',
      fee: { amount: '0.007725', kes: 1 },
      estimatedOutputKes: 24.89,
      limits: { min: 10, max: 30000, currency: 'KES' },
    });
  });

  it('reads the union the sandbox sends on the legacy path', async () => {
    wire.respond = envelope({
      ...common,
      outputAmount: '25.8900',
      type: 'offramp',
      network: 'lisk',
      fee: {
        amount: 0.007725,
        currency: 'USDT',
        details: { feeInKES: 1, estimatedOutputKES: 24.89 },
        feeInInputCurrency: '0.007725',
        feeInOutputCurrency: 1,
        estimatedOutputKES: 24.89,
        decimals: 6,
      },
      limits: { min: 10, max: 30000, currency: 'KES' },
    });
    expect(await ramp().getQuote(offramp)).toMatchObject({
      outputAmount: '25.8900',
      fee: { amount: '0.007725', currency: 'USDT', kes: 1 },
      estimatedOutputKes: 24.89,
      limits: { min: 10, max: 30000, currency: 'KES' },
    });
  });

  it('reads the on-ramp union: fee.amount and fee.details beside fee.feeInKES, limits', async () => {
    wire.respond = envelope({
      inputAmount: '100',
      outputAmount: 0.7738740133106331,
      inputCurrency: 'KES',
      outputCurrency: 'USDT',
      exchangeRate: 129.22,
      type: 'onramp',
      network: 'lisk',
      fee: {
        amount: 1 / 129.22,
        currency: 'USDT',
        details: { feeInKES: 1, estimatedOutputKES: 101 },
        feeInKES: 1,
        estimatedOutputKES: 101,
      },
      limits: { min: 1, max: 10000, currency: 'KES' },
    });
    expect(await ramp().getQuote(onramp)).toMatchObject({
      outputAmount: '0.7738740133106331',
      fee: { kes: 1, currency: 'USDT' },
      estimatedOutputKes: 101,
      limits: { min: 1, max: 10000, currency: 'KES' },
    });
  });
});
