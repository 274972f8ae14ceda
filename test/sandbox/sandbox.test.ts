/**
 * The sandbox at the wire: the reference's exact figures, identifier formats, documented texts,
 * and no 500 whatever the body.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offrampFigures, tokensForFiat } from '../../src/sandbox/fees.js';
import { feeKes, type Sandbox, startSandbox } from '../../src/sandbox/index.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, settleMs: 50, kesPerUsd: 129.45 });
});
afterAll(() => sandbox.close());

const auth = () => ({
  'content-type': 'application/json',
  'x-api-key': sandbox.options.apiKey,
  'x-api-secret': sandbox.options.apiSecret,
});

async function call(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  headers: Record<string, string> = auth(),
) {
  const res = await fetch(`${sandbox.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    text,
    json: JSON.parse(text) as Record<string, unknown> & {
      data?: Record<string, unknown>;
      message?: unknown;
      status?: unknown;
    },
  };
}

describe('figures of the reference (§4)', () => {
  it('off-ramp 0.2 USDT at 129.45: 25.8900 gross, fee 1 KES = 0.007725 USDT, 24.89 out', async () => {
    const r = await call('POST', '/api/fx-quotes', {
      type: 'offramp',
      amount: '0.2',
      fiatCurrency: 'KES',
      cryptoCurrency: 'USDT',
      network: 'lisk',
    });
    expect(r.json).toEqual({
      statusCode: 200,
      message: 'Quote retrieved successfully',
      data: {
        inputAmount: '0.2',
        outputAmount: '25.8900',
        inputCurrency: 'USDT',
        outputCurrency: 'KES',
        exchangeRate: 129.45,
        type: 'offramp',
        network: 'lisk',
        fee: {
          amount: '0.007725',
          feeInInputCurrency: '0.007725',
          currency: 'USDT',
          feeInOutputCurrency: 1,
          estimatedOutputKES: 24.89,
          decimals: 6,
        },
        limits: { min: 10, max: 30000, currency: 'KES' },
      },
    });
  });

  it('on-ramp 100 KES at 129.22: the doc’s exact unrounded output', async () => {
    const s = await startSandbox({ port: 0, kesPerUsd: 129.22 });
    try {
      const res = await fetch(`${s.url}/api/fx-quotes`, {
        method: 'POST',
        headers: { ...auth(), 'x-api-key': s.options.apiKey, 'x-api-secret': s.options.apiSecret },
        body: JSON.stringify({
          type: 'onramp',
          amount: '100',
          fiatCurrency: 'KES',
          cryptoCurrency: 'USDT',
          network: 'lisk',
        }),
      });
      const body = await res.json();
      expect(body.data).toEqual({
        inputAmount: '100',
        outputAmount: 0.7738740133106331,
        inputCurrency: 'KES',
        outputCurrency: 'USDT',
        exchangeRate: 129.22,
        type: 'onramp',
        network: 'lisk',
        fee: { feeInKES: 1, estimatedOutputKES: 101 },
        limits: { min: 1, max: 10000, currency: 'KES' },
      });
      expect(offrampFigures(1, 129.22)).toMatchObject({
        outputAmount: '129.2200',
        feeKes: 6,
        feeTokens: '0.046432',
        estimatedOutputKes: 123.22,
      });
    } finally {
      await s.close();
    }
  });

  it('bands: floors between bands, B2B table', () => {
    expect(
      [1, 49, 49.5, 50, 100, 100.9, 101, 500, 501, 1500, 1501, 30001, 70001].map((k) => feeKes(k)),
    ).toEqual([1, 1, 1, 1, 1, 1, 6, 6, 6, 6, 11, 16, 16]);
    expect([49, 100, 500, 1000, 10000, 30000, 40000].map((k) => feeKes(k, 'B2B'))).toEqual([
      3, 4, 9, 14, 56, 82, 109,
    ]);
  });

  it('fiatAmount: the tokens pay at least the asked KES and less than a cent more', () => {
    for (let f = 10; f <= 30000; f += f < 200 ? 0.5 : 37) {
      for (const category of ['B2C', 'B2B'] as const) {
        const tokens = Number(tokensForFiat(f, 129.45, category));
        const out = offrampFigures(tokens, 129.45, category).estimatedOutputKes;
        expect(out, `F=${f} ${category}`).toBeGreaterThanOrEqual(f);
        expect(out - f, `F=${f} ${category}`).toBeLessThan(0.01);
      }
    }
  });
});

describe('identifiers and texts', () => {
  it('order ids carry the creation time in base 36', async () => {
    const before = Date.now();
    const r = await call('POST', '/api/onramp-orders', {
      partyA: '254712345678',
      amount: 100,
      side: 'onramp',
      userAddress: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
      tokenAddress: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
    });
    const after = Date.now();
    expect(r.json).toMatchObject({
      status: 'success',
      message: 'STK Push initiated successfully',
      data: { message: 'Success. Request accepted for processing' },
    });
    const id = String(r.json.data?.orderID);
    expect(id).toMatch(/^D-[a-z0-9]{5}-[A-Z0-9]{2}$/);
    const middles = new Set<string>();
    for (let t = before; t <= after; t++) middles.add(t.toString(36).slice(-5));
    expect(middles).toContain(id.split('-')[1]);
  });

  it('answers missing and wrong credentials with the generic bodies', async () => {
    const missing = await call('GET', '/api/listed-assets', undefined, {});
    expect(missing).toMatchObject({
      status: 401,
      json: { status: 'error', message: 'API key and secret are required' },
    });
    const wrong = await call('GET', '/api/svc-supported-assets', undefined, {
      'x-api-key': 'k',
      'x-api-secret': 's',
    });
    expect(wrong).toMatchObject({
      status: 401,
      json: { status: 'error', message: 'Invalid API credentials' },
    });
  });

  it('answers the unsupported network exactly', async () => {
    const r = await call('POST', '/api/svc-quotes', {
      type: 'onramp',
      amount: '100',
      fiatCurrency: 'KES',
      cryptoCurrency: 'USDT',
      network: 'scroll',
    });
    expect(r).toMatchObject({ status: 400 });
    expect(r.json).toEqual({
      statusCode: 400,
      message: 'Invalid network',
      error: 'Unsupported network. Supported networks: Lisk, celo, Base, Polygon',
    });
  });

  it('wants project and userAddress on a current off-ramp order, not on a legacy one', async () => {
    const order = {
      chain: 'polygon',
      hash: `0x${'b'.repeat(64)}`,
      partyB: '254712345678',
      tokenAddress: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
    };
    const current = await call('POST', '/api/offramp-orders', order);
    expect(current.status).toBe(400);
    expect(current.json.status).toBe('error');
    const legacy = await call('POST', '/api/svc-order-offramp', order);
    expect(legacy.json).toMatchObject({
      status: 'success',
      message: 'Withdrawal payment initiated successfully',
    });
    const missing = await call('POST', '/api/svc-order-offramp', { chain: 'polygon' });
    expect(missing.json.message).toBe('Missing required parameters: tokenAddress, hash, or phone number');
  });

  it('answers an unknown path with a 404 body', async () => {
    const r = await call('GET', '/api/nothing-here');
    expect(r).toMatchObject({ status: 404, json: { status: 'error' } });
  });
});

describe('robustness', () => {
  const posts = [
    '/api/fx-quotes',
    '/api/onramp-orders',
    '/api/deposit',
    '/api/offramp-orders',
    '/api/offramp-ticket',
    '/api/onramp-ticket',
    '/api/svc-quotes',
    '/api/svc-onramp',
    '/api/svc-deposit',
    '/api/svc-order-offramp',
    '/api/create-offramp-ticket',
    '/api/user-onramp-ticket',
  ];
  const garbage = [
    '{"type":',
    'not json at all',
    '[]',
    '[1,2,3]',
    '123',
    '"text"',
    'null',
    'true',
    '{}',
    JSON.stringify({
      type: ['onramp'],
      amount: { $gt: 1 },
      fiatAmount: -5,
      partyA: { n: 1 },
      partyB: [],
      chain: 7,
      hash: null,
      network: {},
      orderID: 12,
      description: [],
      phone: true,
      side: 5,
      userAddress: 1,
      tokenAddress: { a: 1 },
      category: 'B2X',
    }),
    JSON.stringify({
      type: 'offramp',
      amount: '1e400',
      fiatCurrency: 'KES',
      cryptoCurrency: 'USDT',
      network: 'celo',
    }),
    JSON.stringify({
      type: 'onramp',
      amount: 'NaN',
      fiatCurrency: 'KES',
      cryptoCurrency: 'USDT',
      network: 'celo',
    }),
    JSON.stringify({ orderID: '__proto__', description: 'x', address: '0x1', chain: 'constructor' }),
    JSON.stringify({
      chain: 'polygon',
      hash: 'x'.repeat(100_000),
      partyB: '254712345678',
      tokenAddress: '1',
    }),
  ];

  it('never answers 500 to garbage bodies', async () => {
    for (const path of posts) {
      for (const body of garbage) {
        const r = await fetch(`${sandbox.url}${path}`, { method: 'POST', headers: auth(), body });
        const text = await r.text();
        expect(r.status, `${path} ${body.slice(0, 40)}`).toBeGreaterThanOrEqual(400);
        expect(r.status, `${path} ${body.slice(0, 40)}`).toBeLessThan(500);
        expect(() => JSON.parse(text)).not.toThrow();
      }
    }
    const checkout = await fetch(`${sandbox.url}/v1/checkout/sessions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${sandbox.options.checkoutSecret}`,
        'content-type': 'application/json',
      },
      body: '{"amount":"many"}',
    });
    expect(checkout.status).toBe(400);
  });

  it('never answers 500 to odd ids and queries', async () => {
    for (const path of [
      '/api/onramp-order-status/',
      '/api/onramp-order-status/%E0%A4%A',
      `/api/offramp-order-status/${'x'.repeat(5000)}`,
      '/api/order-offramp-status/..%2F..%2Fetc',
      '/api/deposit-transactions/0xabc?page=-1&limit=abc',
      '/api/withdrawal-transactions/0xabc?page=99999999999&limit=1e9',
    ]) {
      const r = await fetch(`${sandbox.url}${path}`, { headers: auth() });
      expect(r.status, path).toBeGreaterThanOrEqual(400);
      expect(r.status, path).toBeLessThan(500);
    }
  });

  it('refuses a body over 1 MB without falling over', async () => {
    const r = await fetch(`${sandbox.url}/api/fx-quotes`, {
      method: 'POST',
      headers: auth(),
      body: `{"pad":"${'x'.repeat(1_200_000)}"}`,
    });
    expect(r.status).toBe(413);
    expect((await call('GET', '/api/listed-assets')).status).toBe(200);
  });
});

describe('npm run sandbox', () => {
  it('prints its base address and the test phone numbers', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/main.ts'], {
      env: { ...process.env, SANDBOX_PORT: '0', LOG_LEVEL: 'silent', RAMP_LEGACY_BRAND: 'acme' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no banner: ${out}`)), 15_000);
        child.stdout.on('data', (d) => {
          out += d.toString();
          if (out.includes('any other')) {
            clearTimeout(timer);
            resolve();
          }
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      expect(url).toBeDefined();
      expect(out).toContain('254700000001');
      expect(out).toContain('254700000002');
      expect(out).toContain('254700000003');
      expect(out).toContain('legacy paths: /api/<any brand>-… (ours: /api/acme-…)');
      const res = await fetch(`${url}/api/listed-assets`, {
        headers: { 'x-api-key': 'sandbox-key', 'x-api-secret': 'sandbox-secret' },
      });
      expect(res.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
