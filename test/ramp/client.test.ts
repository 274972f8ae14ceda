/**
 * The client at the wire: drift in bodies, envelopes and casing; timeouts; the retry rule; what
 * reaches the log. A small node:http server stands in for the ramp.
 */
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.js';
import {
  createRampClient,
  RampDuplicateError,
  RampNetworkError,
  RampNotFoundError,
  RampServerError,
  RampTimeoutError,
  RampUnauthorizedError,
  RampValidationError,
} from '../../src/ramp/index.js';
import { freePort, json, startWire, type Wire } from './wire.js';

const KEY = 'key-0f1e2d3c';
const SECRET = 'secret-9a8b7c6d';
const ADDRESS = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';

let wire: Wire;
beforeEach(async () => {
  wire = await startWire();
});
afterEach(() => wire.close());

const ramp = (over: Partial<Parameters<typeof createRampClient>[0]> = {}) =>
  createRampClient({
    baseUrl: wire.url,
    apiKey: KEY,
    apiSecret: SECRET,
    timeoutMs: 2000,
    retries: 2,
    retryDelayMs: 10,
    ...over,
  });

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected the call to fail');
}

describe('requests', () => {
  it('sends the credentials in headers on every base_url call, and the bearer only to checkout', async () => {
    wire.respond = json({ networks: [], fiat: ['KES'], crypto: {} });
    await ramp().listAssets();
    expect(wire.seen[0]).toMatchObject({ method: 'GET', path: '/api/listed-assets' });
    expect(wire.seen[0]!.headers).toMatchObject({ 'x-api-key': KEY, 'x-api-secret': SECRET });

    wire.respond = json({ id: 'cs_1', url: 'https://pay/cs_1' });
    const s = await ramp({ checkoutUrl: `${wire.url}/pay`, checkoutSecret: 'sk_live' }).createCheckoutSession(
      {
        amount: 100,
        currency: 'KES',
        customer: { email: 'a@b.co', phone: '254712345678' },
        metadata: { order_id: 'o1' },
      },
    );
    expect(s).toMatchObject({ id: 'cs_1', url: 'https://pay/cs_1' });
    const checkout = wire.seen[1]!;
    expect(checkout.path).toBe('/pay/v1/checkout/sessions');
    expect(checkout.headers.authorization).toBe('Bearer sk_live');
    expect(checkout.headers['x-api-key']).toBeUndefined();
  });

  it('uses the legacy paths with the configured brand', async () => {
    wire.respond = json({ status: 'success', data: { status: 'PENDING', orderID: 'D-aaaaa-AA' } });
    const legacy = ramp({ generation: 'legacy', legacyBrand: 'acme' });
    await legacy.getOnrampStatus('D-aaaaa-AA');
    wire.respond = json({
      statusCode: 200,
      data: { inputAmount: '100', outputAmount: 1, exchangeRate: 100 },
    });
    await legacy.getQuote({
      type: 'onramp',
      network: 'celo',
      token: 'cUSD',
      fiatCurrency: 'KES',
      amount: '100',
    });
    wire.respond = json({ status: 200, hash: `0x${'1'.repeat(64)}` });
    await legacy.deposit({ chain: 'celo', address: ADDRESS, orderId: 'D-aaaaa-AA', project: 'p' });
    expect(wire.seen.map((s) => s.path)).toEqual([
      '/api/order-onramp-status/D-aaaaa-AA',
      '/api/acme-quotes',
      '/api/acme-deposit',
    ]);
  });

  it('sends fiatAmount for an off-ramp quote in the current generation, amount otherwise', async () => {
    wire.respond = json({
      statusCode: 200,
      data: { inputAmount: '1', outputAmount: '129.0000', exchangeRate: 129 },
    });
    const req = { type: 'offramp', network: 'lisk', token: 'USDT', fiatCurrency: 'KES' } as const;
    await ramp().getQuote({ ...req, fiatAmount: '500' });
    await ramp().getQuote({ ...req, amount: '1' });
    await ramp({ generation: 'legacy' }).getQuote({ ...req, amount: '1', fiatAmount: '500' });
    const bodies = wire.seen.map((s) => JSON.parse(s.body));
    expect(bodies[0]).toMatchObject({ fiatAmount: '500', cryptoCurrency: 'USDT', network: 'lisk' });
    expect(bodies[0].amount).toBeUndefined();
    expect(bodies[1]).toMatchObject({ amount: '1' });
    expect(bodies[2]).toMatchObject({ amount: '1' });
    expect(bodies[2].fiatAmount).toBeUndefined();
  });

  it('sends userAddress with an off-ramp order only in the current generation', async () => {
    wire.respond = json({ status: 'success', data: { orderID: 'WD-aaaaa-AA' } });
    const order = {
      chain: 'polygon',
      hash: `0x${'a'.repeat(64)}`,
      phone: '254712345678',
      tokenAddress: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
      userAddress: ADDRESS,
      project: 'p',
    } as const;
    await ramp().createOfframpOrder(order);
    await ramp({ generation: 'legacy' }).createOfframpOrder(order);
    const [cur, leg] = wire.seen.map((s) => JSON.parse(s.body));
    expect(cur).toMatchObject({ partyB: '254712345678', userAddress: ADDRESS, project: 'p' });
    expect(leg.userAddress).toBeUndefined();
    expect(wire.seen[1]!.path).toBe('/api/svc-order-offramp');
  });
});

describe('drift in answers', () => {
  it('reads the documented off-ramp quote (strings, feeInInputCurrency, no fee.amount)', async () => {
    wire.respond = json(
      '{"statusCode":200,"message":"Quote retrieved successfully","data":{"inputAmount":"0.2","outputAmount":"25.8900","inputCurrency":"USDT","outputCurrency":"KES","exchangeRate":129.45,"type":"offramp","network":"lisk","fee":{"feeInInputCurrency":"0.007725","currency":"USDT","feeInOutputCurrency":1,"estimatedOutputKES":24.89,"decimals":6},"limits":{"min":10,"max":30000,"currency":"KES"}}}',
    );
    const q = await ramp().getQuote({
      type: 'offramp',
      network: 'lisk',
      token: 'USDT',
      fiatCurrency: 'KES',
      amount: '0.2',
    });
    expect(q).toMatchObject({
      inputAmount: '0.2',
      outputAmount: '25.8900',
      exchangeRate: 129.45,
      fee: { amount: '0.007725', currency: 'USDT', kes: 1 },
      estimatedOutputKes: 24.89,
      limits: { min: 10, max: 30000, currency: 'KES' },
    });
  });

  it('reads the on-ramp quote (feeInKES), the June quote (fee.amount) and the legacy quote (details)', async () => {
    wire.respond = json({
      statusCode: 200,
      data: {
        inputAmount: '100',
        outputAmount: 0.7738740133106331,
        exchangeRate: '129.22',
        type: 'onramp',
        network: 'Lisk',
        fee: { feeInKES: '1', estimatedOutputKES: 101 },
      },
    });
    const on = await ramp().getQuote({
      type: 'onramp',
      network: 'lisk',
      token: 'USDT',
      fiatCurrency: 'KES',
      amount: '100',
    });
    expect(on).toMatchObject({ outputAmount: '0.7738740133106331', exchangeRate: 129.22, network: 'lisk' });
    expect(on.fee.kes).toBe(1);
    expect(on.estimatedOutputKes).toBe(101);

    wire.respond = json({
      statusCode: 200,
      data: {
        inputAmount: '1',
        outputAmount: '129.2200',
        exchangeRate: 129.22,
        fee: { amount: '0.046432', currency: 'USDT', estimatedOutputKES: 123.22, decimals: 6 },
      },
    });
    const june = await ramp().getQuote({
      type: 'offramp',
      network: 'polygon',
      token: 'USDT',
      fiatCurrency: 'KES',
      amount: '1',
    });
    expect(june.fee).toMatchObject({ amount: '0.046432', kes: 6 });

    wire.respond = json({
      statusCode: 200,
      message: 'ok',
      data: {
        inputAmount: '1',
        outputAmount: 129.22,
        exchangeRate: 129.22,
        type: 'offramp',
        network: 'Polygon',
        fee: { amount: 0.046432, currency: 'USDT', details: { feeInKES: 6, estimatedOutputKES: 123.22 } },
      },
    });
    const legacy = await ramp().getQuote({
      type: 'offramp',
      network: 'polygon',
      token: 'USDT',
      fiatCurrency: 'KES',
      amount: '1',
    });
    expect(legacy).toMatchObject({
      outputAmount: '129.22',
      fee: { amount: '0.046432', kes: 6 },
      estimatedOutputKes: 123.22,
    });
  });

  it('reads the documented on-ramp status with its trailing comma', async () => {
    wire.respond =
      json(`{"status":"success","data":{"status":"PENDING","message":"Your deposit is being processed","orderID":"D-roug7-UT","details":{
 "phoneNumber":"254700000001","mobilemoneyReceipt":"ws_CO_15022025083848183700000001",
 "transactionDate":"2025-02-15T08:38:48.000Z","resultDescription":"Transaction initiated",}}}`);
    const s = await ramp().getOnrampStatus('D-roug7-UT');
    expect(s).toEqual({
      orderId: 'D-roug7-UT',
      status: 'PENDING',
      message: 'Your deposit is being processed',
      phone: '254700000001',
      receipt: undefined,
      checkoutRequestId: 'ws_CO_15022025083848183700000001',
      transactionDate: '2025-02-15T08:38:48.000Z',
      resultDescription: 'Transaction initiated',
    });
  });

  it('reads the February CANCELLED body: numbers for phone and date', async () => {
    wire.respond = json(
      '{"status":"success","data":{"status":"CANCELLED","message":"Unknown transaction status","orderID":"D-rclsg-VL","details":{"phoneNumber":254700000001,"mobilemoneyReceipt":"ws_CO_15022025082917857700000001","transactionDate":1739597355087,"resultDescription":"Transaction cancelled by user"}}}',
    );
    const s = await ramp().getOnrampStatus('D-rclsg-VL');
    expect(s).toMatchObject({
      status: 'CANCELLED',
      phone: '254700000001',
      transactionDate: new Date(1739597355087).toISOString(),
      checkoutRequestId: 'ws_CO_15022025082917857700000001',
      resultDescription: 'Transaction cancelled by user',
    });
    expect(s.receipt).toBeUndefined();
  });

  it.each([
    ['mobilemoneyReceipt', 'TBF842GPCO'],
    ['mpesaReceipt', 'TBF842GPCP'],
    ['MpesaReceiptNumber', 'TBF842GPCQ'],
    ['MobilemoneyReceiptNumber', 'TBF842GPCR'],
  ])('takes the receipt from %s once paid', async (key, receipt) => {
    wire.respond = json({
      status: 'success',
      data: {
        Status: 'SUCCESS',
        OrderID: 'D-aaaaa-AA',
        Details: { PhoneNumber: 254712345678, [key]: receipt },
      },
    });
    const s = await ramp().getOnrampStatus('D-aaaaa-AA');
    expect(s).toMatchObject({ status: 'SUCCESS', receipt, phone: '254712345678' });
    expect(s.checkoutRequestId).toBeUndefined();
  });

  it('reads an unwrapped status body and a numeric date stamp', async () => {
    wire.respond = json({
      status: 'FAILED',
      message: 'Insufficient balance',
      details: {
        phoneNumber: '254700000001',
        transactionDate: 20250215083338,
        mobilemoneyReceipt: 'ws_CO_1',
      },
    });
    const s = await ramp().getOnrampStatus('D-aaaaa-AA');
    expect(s).toMatchObject({
      orderId: 'D-aaaaa-AA',
      status: 'FAILED',
      transactionDate: '2025-02-15T08:33:38.000Z',
      checkoutRequestId: 'ws_CO_1',
    });
  });

  it('reads the documented off-ramp status and strips the phone from the receiver name', async () => {
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
          mobilemoneyReceipt: 'TB21GOZTI9',
          completedAt: '2025-02-02T15:45:23.000Z',
        },
      },
    });
    expect(await ramp().getOfframpStatus('WD-xsy6e-HO')).toEqual({
      orderId: 'WD-xsy6e-HO',
      status: 'SUCCESS',
      message: 'Withdrawal completed successfully',
      phone: '254700000001',
      receiverName: 'Jane Doe',
      amountKes: '20.00',
      initiatedAt: '2025-02-02T12:45:21.859Z',
      completedAt: '2025-02-02T15:45:23.000Z',
      receipt: 'TB21GOZTI9',
      failureReason: undefined,
      resultCode: undefined,
    });
  });

  it('reads assets unwrapped or wrapped, with capitalised network keys and numeric ids', async () => {
    wire.respond = json({
      networks: ['lisk', 'algorand', 'tron'],
      fiat: ['KES', 'USD'],
      crypto: {
        lisk: [
          {
            symbol: 'USDT',
            name: 'Tether LISK',
            decimals: 6,
            address: '0x05D032ac25d322df992303dCa074EE7392C117b9',
          },
        ],
        algorand: [{ symbol: 'USDC', name: 'USD Coin', decimals: '6', address: 31566704 }],
        tron: [{ symbol: 'USDT', decimals: 6, address: 'T…' }],
      },
    });
    const a = await ramp().listAssets();
    expect(a.networks).toEqual(['lisk', 'algorand']);
    expect(a.tokens).toContainEqual({
      network: 'algorand',
      symbol: 'USDC',
      name: 'USD Coin',
      decimals: 6,
      address: '31566704',
    });

    wire.respond = json({
      statusCode: 200,
      data: {
        networks: ['Lisk', 'celo'],
        fiat: ['KES'],
        crypto: {
          Lisk: [
            {
              symbol: 'LSK',
              name: 'Lisk',
              decimals: 8,
              address: '0x0000000000000000000000000000000000000000',
            },
          ],
        },
      },
    });
    const legacy = await ramp().listAssets();
    expect(legacy.networks).toEqual(['lisk', 'celo']);
    expect(legacy.tokens[0]).toMatchObject({ network: 'lisk', symbol: 'LSK', decimals: 8 });
  });

  it('reads the deposit hash at the top level (numeric status) or under data', async () => {
    const hash = `0x${'1'.repeat(64)}`;
    wire.respond = json({
      status: 200,
      message: 'Transaction processed successfully',
      createdAt: '2025-02-15T08:33:38.000Z',
      updatedAt: '2025-02-15T08:33:45.000Z',
      hash,
    });
    const req = { chain: 'celo', address: ADDRESS, orderId: 'D-aaaaa-AA', project: 'p' } as const;
    expect(await ramp().deposit(req)).toEqual({
      hash,
      message: 'Transaction processed successfully',
      createdAt: '2025-02-15T08:33:38.000Z',
      updatedAt: '2025-02-15T08:33:45.000Z',
    });
    wire.respond = json({ status: 'success', data: { hash } });
    expect((await ramp().deposit(req)).hash).toBe(hash);
  });

  it('refuses to guess when a release answer has no hash', async () => {
    wire.respond = json({ status: 200, message: 'Transaction processed successfully' });
    const e = await rejection(
      ramp().deposit({ chain: 'celo', address: ADDRESS, orderId: 'D-aaaaa-AA', project: 'p' }),
    );
    expect(e).toBeInstanceOf(RampServerError);
    expect(wire.seen).toHaveLength(1);
  });

  it('reads the documented history records of both sides', async () => {
    wire.respond = json({
      status: 200,
      message: 'Transactions retrieved successfully (sorted from latest to oldest)',
      data: [
        {
          id: '686fb289c86af65ade30aaf6',
          MobilemoneyReceiptNumber: 'TGA6EIIORA',
          TransactionDate: '2025-07-10T12:31:05.398Z',
          cryptoAmount: '0.1621872103799815',
          feeAmount: '1',
          side: 'onramp',
          symbol: 'USDT',
          isSent: true,
          createdAt: '2025-07-10T12:31:05.398Z',
          Amount: 21,
          orderID: 'D-d9m0k-T8',
          transactionID: `0x${'2'.repeat(64)}`,
          PhoneNumber: 254700000001,
          resultDescription: 'Transaction initiated',
        },
      ],
      pagination: { currentPage: 1, limit: 10, totalPages: 3, totalCount: 28 },
    });
    const on = await ramp().getHistory('onramp', ADDRESS);
    expect(wire.seen[0]!.path).toBe(`/api/deposit-transactions/${ADDRESS}?page=1&limit=10`);
    expect(on).toMatchObject({ page: 1, limit: 10, totalPages: 3, totalCount: 28 });
    expect(on.records[0]).toEqual({
      id: '686fb289c86af65ade30aaf6',
      orderId: 'D-d9m0k-T8',
      side: 'onramp',
      kesAmount: 21,
      cryptoAmount: '0.1621872103799815',
      symbol: 'USDT',
      chain: undefined,
      receipt: 'TGA6EIIORA',
      txHash: `0x${'2'.repeat(64)}`,
      phone: '254700000001',
      createdAt: '2025-07-10T12:31:05.398Z',
      resultDescription: 'Transaction initiated',
    });

    wire.respond = json({
      status: 200,
      data: [
        {
          id: '686fb209c86af65ade30aabc',
          TransactionAmount: 38,
          TransactionReceipt: 'TGA2EI5X5C',
          ReceiverPartyPublicName: '254700000001 - Jane Doe',
          TransactionCompletedDateTime: '2025-07-10T12:28:57.273Z',
          transactionID: `0x${'3'.repeat(64)}`,
          transactionSize: '38',
          transactionFee: '0.007723',
          transactionSide: 'my-project',
          exchangeRate: '129.48',
          createdAt: '2025-07-10T12:28:57.273Z',
          chain: 'lisk',
          isSent: true,
          orderID: 'WD-d6v5j-FB',
          PhoneNumber: '254700000001',
          resultDescription: 'Transaction completed successfully',
        },
      ],
      pagination: { currentPage: 2, limit: 5, totalPages: 2, totalCount: 6 },
    });
    const off = await ramp().getHistory('offramp', ADDRESS, { page: 2, limit: 5 });
    expect(wire.seen[1]!.path).toBe(`/api/withdrawal-transactions/${ADDRESS}?page=2&limit=5`);
    expect(off.records[0]).toMatchObject({
      orderId: 'WD-d6v5j-FB',
      kesAmount: 38,
      receipt: 'TGA2EI5X5C',
      chain: 'lisk',
    });
  });

  it('reads the ticket record with its mixed casing', async () => {
    wire.respond = json({
      status: 'success',
      data: {
        refund: {
          PhoneNumber: '254700000001',
          Amount: '100',
          Description: 'Failed withdrawal attempt',
          Side: 'off-ramp',
          userAddress: ADDRESS,
          symbol: 'USDT',
          tokenAddress: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
          chain: 'Polygon',
          _id: '507f1f77bcf86cd799439011',
          createdAt: '2025-02-15T12:00:00.000Z',
        },
      },
    });
    const t = await ramp().createTicket({ side: 'offramp', orderId: 'WD-aaaaa-AA', description: 'x' });
    expect(t).toEqual({
      id: '507f1f77bcf86cd799439011',
      phone: '254700000001',
      amount: '100',
      description: 'Failed withdrawal attempt',
      side: 'off-ramp',
      userAddress: ADDRESS,
      symbol: 'USDT',
      tokenAddress: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
      chain: 'Polygon',
      createdAt: '2025-02-15T12:00:00.000Z',
    });
  });
});

describe('errors', () => {
  it('maps the documented refusals to typed errors', async () => {
    const c = ramp();
    const dep = { chain: 'celo', address: ADDRESS, orderId: 'D-aaaaa-AA', project: 'p' } as const;

    wire.respond = json({ status: 'error', message: 'Invalid API credentials' }, 401);
    expect(await rejection(c.listAssets())).toBeInstanceOf(RampUnauthorizedError);

    wire.respond = json(
      {
        statusCode: 400,
        message: 'Invalid network',
        error: 'Unsupported network. Supported networks: Lisk, celo, Base, Polygon',
      },
      400,
    );
    const net = (await rejection(
      c.getQuote({ type: 'onramp', network: 'scroll', token: 'USDT', fiatCurrency: 'KES', amount: '100' }),
    )) as RampValidationError;
    expect(net).toBeInstanceOf(RampValidationError);
    expect(net.supportedNetworks).toEqual(['Lisk', 'celo', 'Base', 'Polygon']);

    for (const [message, refusal] of [
      ['Transaction D-aaaaa-AA: STK push payment is being processed', 'pending'],
      ['Transaction D-aaaaa-AA: Payment failed', 'payment_failed'],
      ['Transaction D-aaaaa-AA has already been processed', 'already_processed'],
    ] as const) {
      wire.respond = json({ status: 'error', message }, 400);
      const e = (await rejection(c.deposit(dep))) as RampValidationError;
      expect(e).toBeInstanceOf(RampValidationError);
      expect(e.depositRefusal).toBe(refusal);
      expect(e.serviceMessage).toBe(message);
    }

    wire.respond = json(
      {
        status: 'error',
        message: 'This blockchain transaction has already been processed',
        data: { orderID: 'WD-xsy6e-HO' },
      },
      400,
    );
    const dup = await rejection(
      c.createOfframpOrder({
        chain: 'polygon',
        hash: `0x${'a'.repeat(64)}`,
        phone: '254712345678',
        tokenAddress: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
        userAddress: ADDRESS,
        project: 'p',
      }),
    );
    expect(dup).toBeInstanceOf(RampDuplicateError);
    expect((dup as RampDuplicateError).existingOrderId).toBe('WD-xsy6e-HO');

    wire.respond = json(
      { status: 'error', message: 'Transaction with the following WD-bbbbb-BB the not found' },
      404,
    );
    const nf = (await rejection(c.getOfframpStatus('WD-bbbbb-BB'))) as RampNotFoundError;
    expect(nf).toBeInstanceOf(RampNotFoundError);
    expect(nf.orderId).toBe('WD-bbbbb-BB');

    wire.respond = json({ error: 'Internal server error' }, 500);
    expect(
      await rejection(
        c.createOnrampOrder({
          phone: '254712345678',
          amountKes: 10,
          userAddress: ADDRESS,
          tokenAddress: '0x0',
        }),
      ),
    ).toBeInstanceOf(RampServerError);
  });

  it('reads an error body sent with HTTP 200', async () => {
    wire.respond = json({ status: 'error', message: 'Transaction D-ccccc-CC not found' });
    const e = await rejection(ramp().getOnrampStatus('D-ccccc-CC'));
    expect(e).toBeInstanceOf(RampNotFoundError);
    expect((e as RampNotFoundError).orderId).toBe('D-ccccc-CC');
  });

  it('calls an HTML gateway page on a POST a server error and does not resend it', async () => {
    wire.respond = (_r, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>Bad gateway</html>');
    };
    const e = await rejection(
      ramp().createOnrampOrder({
        phone: '254712345678',
        amountKes: 10,
        userAddress: ADDRESS,
        tokenAddress: '0x0',
      }),
    );
    expect(e).toBeInstanceOf(RampServerError);
    expect(wire.seen).toHaveLength(1);
  });

  it('calls an unreadable 200 a server error', async () => {
    wire.respond = json('{"status":"success", "data": {');
    await expect(ramp().getOnrampStatus('D-aaaaa-AA')).rejects.toBeInstanceOf(RampServerError);
  });
});

describe('timeouts and retries', () => {
  const silent = () => {}; // never answers: the client's timeout must end the call

  it('times out a GET after retrying it', async () => {
    wire.respond = silent;
    const e = await rejection(ramp({ timeoutMs: 100, retries: 1 }).getOnrampStatus('D-aaaaa-AA'));
    expect(e).toBeInstanceOf(RampTimeoutError);
    expect(wire.seen).toHaveLength(2);
  });

  it('retries a GET answered 503 until it succeeds', async () => {
    let n = 0;
    wire.respond = (req, res) =>
      n++ < 2
        ? json({ status: 'error', message: 'busy' }, 503)(req, res)
        : json({ status: 'success', data: { status: 'SUCCESS' } })(req, res);
    const s = await ramp({ retries: 3 }).getOnrampStatus('D-aaaaa-AA');
    expect(s.status).toBe('SUCCESS');
    expect(wire.seen).toHaveLength(3);
  });

  it('retries a quote (harmless POST) on 503', async () => {
    let n = 0;
    wire.respond = (req, res) =>
      n++ < 1
        ? json({ status: 'error', message: 'busy' }, 503)(req, res)
        : json({ statusCode: 200, data: { inputAmount: '100', outputAmount: 1, exchangeRate: 100 } })(
            req,
            res,
          );
    await ramp().getQuote({
      type: 'onramp',
      network: 'celo',
      token: 'USDT',
      fiatCurrency: 'KES',
      amount: '100',
    });
    expect(wire.seen).toHaveLength(2);
  });

  it('never resends an order or a release that got a 503 or timed out', async () => {
    wire.respond = json({ status: 'error', message: 'busy' }, 503);
    await expect(
      ramp().createOnrampOrder({
        phone: '254712345678',
        amountKes: 10,
        userAddress: ADDRESS,
        tokenAddress: '0x0',
      }),
    ).rejects.toBeInstanceOf(RampServerError);
    expect(wire.seen).toHaveLength(1);

    wire.respond = silent;
    await expect(
      ramp({ timeoutMs: 100 }).deposit({
        chain: 'celo',
        address: ADDRESS,
        orderId: 'D-aaaaa-AA',
        project: 'p',
      }),
    ).rejects.toBeInstanceOf(RampTimeoutError);
    expect(wire.seen).toHaveLength(2);
  });

  it('never resends a POST whose connection broke after sending', async () => {
    wire.respond = (_r, res) => res.socket?.destroy();
    const e = await rejection(
      ramp().deposit({ chain: 'celo', address: ADDRESS, orderId: 'D-aaaaa-AA', project: 'p' }),
    );
    expect(e).toBeInstanceOf(RampNetworkError);
    expect((e as RampNetworkError).delivered).toBe(true);
    expect(wire.seen).toHaveLength(1);
  });

  it('resends a POST the server never received (connection refused) once it listens', async () => {
    const port = await freePort();
    const c = createRampClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: KEY,
      apiSecret: SECRET,
      retries: 4,
      retryDelayMs: 60,
    });
    const late = new Promise<Wire>((resolve) =>
      setTimeout(async () => {
        const w = await startWire(port);
        w.respond = json({ status: 'success', data: { orderID: 'D-aaaaa-AA' } });
        resolve(w);
      }, 100),
    );
    const order = await c.createOnrampOrder({
      phone: '254712345678',
      amountKes: 10,
      userAddress: ADDRESS,
      tokenAddress: '0x0',
    });
    const w = await late;
    expect(order.orderId).toBe('D-aaaaa-AA');
    expect(w.seen).toHaveLength(1);
    await w.close();
  });

  it('says nothing was delivered when the connection is always refused', async () => {
    const port = await freePort();
    const c = createRampClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: KEY,
      apiSecret: SECRET,
      retries: 1,
      retryDelayMs: 5,
    });
    const e = await rejection(
      c.deposit({ chain: 'celo', address: ADDRESS, orderId: 'D-aaaaa-AA', project: 'p' }),
    );
    expect(e).toBeInstanceOf(RampNetworkError);
    expect((e as RampNetworkError).delivered).toBe(false);
  });
});

describe('logging', () => {
  it('logs method, path, status and duration, never credentials or whole phone numbers', async () => {
    let out = '';
    const destination = new Writable({
      write(chunk, _enc, cb) {
        out += chunk.toString();
        cb();
      },
    });
    const logger = createLogger({ level: 'debug', destination });
    const c = ramp({ logger, checkoutSecret: 'sk_checkout_secret', retries: 1 });
    wire.respond = json({ status: 'success', data: { orderID: 'D-aaaaa-AA', message: 'ok' } });
    await c.createOnrampOrder({
      phone: '254712345678',
      amountKes: 10,
      userAddress: ADDRESS,
      tokenAddress: '0x0',
    });
    await c.createCheckoutSession({
      amount: 1,
      currency: 'KES',
      customer: { email: 'a@b.co', phone: '254712345678' },
      metadata: { order_id: 'x' },
    });
    wire.respond = json({ status: 'error', message: 'busy' }, 503);
    await rejection(c.getOnrampStatus('D-aaaaa-AA'));
    wire.respond = json({ status: 'error', message: 'Invalid API credentials' }, 401);
    await rejection(c.listAssets());

    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toContainEqual(
      expect.objectContaining({
        method: 'POST',
        path: '/api/onramp-orders',
        status: 200,
        durationMs: expect.any(Number),
      }),
    );
    expect(lines).toContainEqual(expect.objectContaining({ method: 'GET', status: 503 }));
    expect(lines).toContainEqual(
      expect.objectContaining({ method: 'GET', path: '/api/listed-assets', status: 401 }),
    );
    for (const secret of [KEY, SECRET, 'sk_checkout_secret', '254712345678', '712345678']) {
      expect(out).not.toContain(secret);
    }
  });
});
