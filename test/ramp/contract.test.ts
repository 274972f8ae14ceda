/**
 * The ramp contract: the client driven through every endpoint and every error, in both path
 * generations, against the sandbox (always) and against a real service (RAMP_LIVE_TEST=1 with
 * RAMP_BASE_URL, RAMP_API_KEY, RAMP_API_SECRET). The live run sticks to calls that create nothing
 * billable: quotes, assets, refusals for unknown orders, history, unauthorized, malformed bodies.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Network, OfframpOrderState, OnrampOrderState } from '../../src/domain/types.js';
import {
  createRampClient,
  RampDuplicateError,
  RampNotFoundError,
  RampUnauthorizedError,
  RampValidationError,
} from '../../src/ramp/index.js';
import type { RampClient } from '../../src/ramp/types.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';

type Generation = 'current' | 'legacy';
const GENERATIONS: Generation[] = ['current', 'legacy'];
const SETTLE_MS = 80;

interface Target {
  url: string;
  apiKey: string;
  apiSecret: string;
  legacyBrand: string;
}

const live = {
  enabled:
    process.env.RAMP_LIVE_TEST === '1' &&
    !!process.env.RAMP_BASE_URL &&
    !!process.env.RAMP_API_KEY &&
    !!process.env.RAMP_API_SECRET,
  target: (): Target => ({
    url: process.env.RAMP_BASE_URL!,
    apiKey: process.env.RAMP_API_KEY!,
    apiSecret: process.env.RAMP_API_SECRET!,
    legacyBrand: process.env.RAMP_LEGACY_BRAND ?? 'svc',
  }),
};

const USDT_POLYGON = '0xc2132D05D31c914a87C6611C10748AEb04B58e8F';
const USDT_CELO = '0x48065fbBE25f71C9282ddf5e1cD6D6A887483D5e';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const randomEvmAddress = () => `0x${randomBytes(20).toString('hex')}`;
const randomHash = () => `0x${randomBytes(32).toString('hex')}`;
const ALGORAND_HASH = () =>
  Array.from(randomBytes(52), (b) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'[b % 32]).join('');

function client(
  t: Target,
  generation: Generation,
  over: Partial<Parameters<typeof createRampClient>[0]> = {},
) {
  return createRampClient({
    baseUrl: t.url,
    apiKey: t.apiKey,
    apiSecret: t.apiSecret,
    generation,
    legacyBrand: t.legacyBrand,
    timeoutMs: 5000,
    retries: 1,
    retryDelayMs: 50,
    ...over,
  });
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected the call to fail');
}

async function settled<T extends OnrampOrderState | OfframpOrderState>(read: () => Promise<T>): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const s = await read();
    if (s.status !== 'PENDING') return s;
    await sleep(20);
  }
  throw new Error('order did not settle');
}

/** Cases that hold for the real service as for the sandbox, and create nothing. */
function sharedCases(target: () => Target, generation: Generation) {
  let ramp: RampClient;
  beforeAll(() => {
    ramp = client(target(), generation);
  });
  const network: Network = 'polygon';

  it('quotes an on-ramp: fee on top, crypto not reduced', async () => {
    const q = await ramp.getQuote({
      type: 'onramp',
      network,
      token: 'USDT',
      fiatCurrency: 'KES',
      amount: '100',
    });
    expect(q.type).toBe('onramp');
    expect(q.inputAmount).toBe('100');
    expect(q.exchangeRate).toBeGreaterThan(0);
    expect(Number(q.outputAmount)).toBeCloseTo(100 / q.exchangeRate, 9);
    expect(q.fee.kes).toBeGreaterThan(0);
    expect(q.estimatedOutputKes).toBe(100 + q.fee.kes);
  });

  it('quotes an off-ramp by tokens: the fee comes off the gross KES', async () => {
    const q = await ramp.getQuote({
      type: 'offramp',
      network,
      token: 'USDT',
      fiatCurrency: 'KES',
      amount: '1',
    });
    expect(q.type).toBe('offramp');
    expect(q.inputAmount).toBe('1');
    expect(Number(q.outputAmount)).toBeCloseTo(q.exchangeRate, 4);
    expect(Number(q.fee.amount)).toBeCloseTo(q.fee.kes / q.exchangeRate, 6);
    expect(q.estimatedOutputKes).toBeCloseTo(Number(q.outputAmount) - q.fee.kes, 2);
  });

  it('answers an unsupported network with the list of supported ones', async () => {
    const e = await rejection(
      ramp.getQuote({
        type: 'onramp',
        network: 'solana' as Network,
        token: 'USDT',
        fiatCurrency: 'KES',
        amount: '100',
      }),
    );
    expect(e).toBeInstanceOf(RampValidationError);
    const networks = (e as RampValidationError).supportedNetworks?.map((n) => n.toLowerCase());
    expect(networks).toEqual(expect.arrayContaining(['lisk', 'celo', 'base', 'polygon']));
  });

  it('lists assets', async () => {
    const a = await ramp.listAssets();
    expect(a.networks.length).toBeGreaterThan(0);
    expect(a.tokens.length).toBeGreaterThan(0);
    for (const t of a.tokens) {
      expect(a.networks).toContain(t.network);
      expect(Number.isInteger(t.decimals)).toBe(true);
    }
  });

  it('reports an unknown on-ramp order as not found, naming it', async () => {
    const e = await rejection(ramp.getOnrampStatus('D-zzzzz-ZZ'));
    expect(e).toBeInstanceOf(RampNotFoundError);
    expect((e as RampNotFoundError).orderId).toBe('D-zzzzz-ZZ');
  });

  it('reports an unknown off-ramp order as not found, naming it', async () => {
    const e = await rejection(ramp.getOfframpStatus('WD-zzzzz-ZZ'));
    expect(e).toBeInstanceOf(RampNotFoundError);
    expect((e as RampNotFoundError).orderId).toBe('WD-zzzzz-ZZ');
  });

  it('refuses to release crypto for an unknown order', async () => {
    const e = await rejection(
      ramp.deposit({
        chain: 'polygon',
        address: randomEvmAddress(),
        orderId: 'D-zzzzz-ZY',
        project: 'rampchat-test',
      }),
    );
    expect(e).toBeInstanceOf(RampNotFoundError);
  });

  it('gives an empty history page for a wallet with no transactions', async () => {
    for (const side of ['onramp', 'offramp'] as const) {
      const h = await ramp.getHistory(side, randomEvmAddress());
      expect(h.records).toEqual([]);
      expect(h.totalCount).toBe(0);
    }
  });

  it('refuses wrong credentials', async () => {
    const bad = client(target(), generation, { apiSecret: 'not-the-secret' });
    const e = await rejection(bad.listAssets());
    expect(e).toBeInstanceOf(RampUnauthorizedError);
  });

  it('answers missing credentials with 401 and the documented text', async () => {
    const t = target();
    const res = await fetch(`${t.url}/api/fx-quotes`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: 'API key and secret are required' });
  });

  it('answers a malformed body with a validation error, not a 500', async () => {
    const t = target();
    const path = generation === 'current' ? '/api/fx-quotes' : `/api/${t.legacyBrand}-quotes`;
    const res = await fetch(`${t.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': t.apiKey, 'x-api-secret': t.apiSecret },
      body: '{"type":"onramp","amount":',
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
}

describe.each(GENERATIONS)('ramp contract against the sandbox (%s paths)', (generation) => {
  let sandbox: Sandbox;
  let ramp: RampClient;
  const target = (): Target => ({
    url: sandbox.url,
    apiKey: sandbox.options.apiKey,
    apiSecret: sandbox.options.apiSecret,
    legacyBrand: sandbox.options.legacyBrand,
  });
  const refusals: string[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      settleMs: SETTLE_MS,
      legacyBrand: generation === 'legacy' ? 'acme' : 'svc',
      verifyOfframpHash: async ({ hash }) =>
        refusals.includes(hash) ? 'Transaction not found on chain' : undefined,
    });
    ramp = client(target(), generation, {
      checkoutUrl: sandbox.url,
      checkoutSecret: sandbox.options.checkoutSecret,
    });
  });
  afterAll(() => sandbox.close());

  describe('shared cases', () => sharedCases(target, generation));

  const onramp = (phone: string, userAddress = randomEvmAddress(), amountKes = 100) =>
    ramp.createOnrampOrder({ phone, amountKes, userAddress, tokenAddress: USDT_CELO });
  const offramp = (phone: string, over: Partial<Parameters<RampClient['createOfframpOrder']>[0]> = {}) =>
    ramp.createOfframpOrder({
      chain: 'polygon',
      hash: randomHash(),
      phone,
      tokenAddress: USDT_POLYGON,
      userAddress: randomEvmAddress(),
      project: 'rampchat-test',
      ...over,
    });

  describe('quotes', () => {
    it.each([
      ['49', 1],
      ['100', 1],
      ['101', 6],
      ['2000', 11],
      ['10000', 13],
    ])('on-ramp of %s KES costs the B2C fee %i KES', async (amount, fee) => {
      const q = await ramp.getQuote({
        type: 'onramp',
        network: 'celo',
        token: 'USDT',
        fiatCurrency: 'KES',
        amount,
      });
      expect(q.fee.kes).toBe(fee);
      expect(q.estimatedOutputKes).toBe(Number(amount) + fee);
      expect(q.exchangeRate).toBe(129.5);
      expect(Number(q.outputAmount)).toBe(Number(amount) * (1 / 129.5));
    });

    it('charges the B2B band when asked', async () => {
      const tokens = (300 / 129.5).toFixed(6);
      const b2c = await ramp.getQuote({
        type: 'offramp',
        network: 'celo',
        token: 'USDT',
        fiatCurrency: 'KES',
        amount: tokens,
      });
      const b2b = await ramp.getQuote({
        type: 'offramp',
        network: 'celo',
        token: 'USDT',
        fiatCurrency: 'KES',
        amount: tokens,
        category: 'B2B',
      });
      expect(b2c.fee.kes).toBe(6);
      expect(b2b.fee.kes).toBe(9);
      expect(b2b.fee.amount).toBe((9 / 129.5).toFixed(6));
    });

    it('prices cKES at par', async () => {
      const q = await ramp.getQuote({
        type: 'offramp',
        network: 'celo',
        token: 'cKES',
        fiatCurrency: 'KES',
        amount: '500',
      });
      expect(q.exchangeRate).toBe(1);
      expect(q.fee.kes).toBe(6);
      expect(q.estimatedOutputKes).toBe(494);
    });

    it.each([
      ['onramp', '0.5', 1, 10000],
      ['onramp', '10001', 1, 10000],
      ['offramp', '0.05', 10, 30000],
      ['offramp', '250', 10, 30000],
    ] as const)('refuses a %s of %s outside the limits, naming them', async (type, amount, min, max) => {
      const e = await rejection(
        ramp.getQuote({ type, network: 'polygon', token: 'USDT', fiatCurrency: 'KES', amount }),
      );
      expect(e).toBeInstanceOf(RampValidationError);
      expect((e as RampValidationError).message).toContain(String(min));
      expect((e as RampValidationError).message).toContain(String(max));
    });

    it('reports the limits (legacy too, since mid-2025)', async () => {
      const on = await ramp.getQuote({
        type: 'onramp',
        network: 'base',
        token: 'USDC',
        fiatCurrency: 'KES',
        amount: '100',
      });
      const off = await ramp.getQuote({
        type: 'offramp',
        network: 'base',
        token: 'USDC',
        fiatCurrency: 'KES',
        amount: '1',
      });
      expect(on.limits).toEqual({ min: 1, max: 10000, currency: 'KES' });
      expect(off.limits).toEqual({ min: 10, max: 30000, currency: 'KES' });
    });

    if (generation === 'current') {
      it.each(['10', '49', '95', '99.5', '100', '1000', '4990', '29984'])(
        'quotes an off-ramp by the KES to receive (%s)',
        async (fiatAmount) => {
          const q = await ramp.getQuote({
            type: 'offramp',
            network: 'lisk',
            token: 'USDT',
            fiatCurrency: 'KES',
            fiatAmount,
          });
          expect(q.estimatedOutputKes).toBeGreaterThanOrEqual(Number(fiatAmount));
          expect(q.estimatedOutputKes! - Number(fiatAmount)).toBeLessThan(0.01);
          expect(q.inputAmount).toMatch(/^\d+\.\d{6}$/);
        },
      );

      it('lists all six networks, Algorand USDC by its asset id', async () => {
        const a = await ramp.listAssets();
        expect(a.networks.sort()).toEqual(['algorand', 'base', 'celo', 'lisk', 'polygon', 'scroll']);
        expect(a.tokens).toContainEqual(
          expect.objectContaining({ network: 'algorand', symbol: 'USDC', address: '31566704', decimals: 6 }),
        );
      });

      it('lists Scroll as supported for quotes', async () => {
        const q = await ramp.getQuote({
          type: 'onramp',
          network: 'scroll',
          token: 'USDT',
          fiatCurrency: 'KES',
          amount: '100',
        });
        expect(q.network).toBe('scroll');
      });
    } else {
      it.each([
        ['lisk', 'USDT', '10'],
        ['lisk', 'USDT', '99.5'],
        ['polygon', 'USDT', '1000'],
        ['celo', 'cKES', '494'],
        ['celo', 'cKES', '20'],
      ] as const)(
        'quotes an off-ramp on %s %s by the KES to receive (%s) through token quotes',
        async (network, token, fiatAmount) => {
          const q = await ramp.getQuote({ type: 'offramp', network, token, fiatCurrency: 'KES', fiatAmount });
          expect(q.estimatedOutputKes).toBeGreaterThanOrEqual(Number(fiatAmount));
          expect(q.estimatedOutputKes! - Number(fiatAmount)).toBeLessThan(0.01);
        },
      );

      it('lists the legacy assets', async () => {
        const a = await ramp.listAssets();
        expect(a.networks.sort()).toEqual(['base', 'celo', 'lisk', 'polygon']);
        expect(a.tokens).toContainEqual(
          expect.objectContaining({ network: 'lisk', symbol: 'LSK', decimals: 8 }),
        );
      });

      it('refuses Scroll, listing the legacy networks', async () => {
        const e = await rejection(
          ramp.getQuote({
            type: 'onramp',
            network: 'scroll',
            token: 'USDT',
            fiatCurrency: 'KES',
            amount: '100',
          }),
        );
        expect((e as RampValidationError).supportedNetworks).toEqual(['Lisk', 'celo', 'Base', 'Polygon']);
      });
    }
  });

  describe('on-ramp', () => {
    it('shows the checkout request id while pending and a receipt once paid', async () => {
      const { orderId } = await onramp('254712340000');
      expect(orderId).toMatch(/^D-[a-z0-9]{5}-[A-Z0-9]{2}$/);
      const pending = await ramp.getOnrampStatus(orderId);
      expect(pending).toMatchObject({ orderId, status: 'PENDING', phone: '254712340000' });
      expect(pending.checkoutRequestId).toMatch(/^ws_CO_\d{17}712340000$/);
      expect(pending.receipt).toBeUndefined();
      const done = await settled(() => ramp.getOnrampStatus(orderId));
      expect(done.status).toBe('SUCCESS');
      expect(done.receipt).toMatch(/^[A-Z][A-L][1-9A-V][A-Z0-9]{7}$/);
      expect(done.checkoutRequestId).toBeUndefined();
    });

    it('reads the same receipt from status and history', async () => {
      const userAddress = randomEvmAddress();
      const { orderId } = await onramp('254712345679', userAddress);
      const done = await settled(() => ramp.getOnrampStatus(orderId));
      const history = await ramp.getHistory('onramp', userAddress);
      expect(done.receipt).toMatch(/^[A-Z0-9]{10}$/);
      expect(history.records[0]).toMatchObject({ orderId, receipt: done.receipt });
    });

    it('fails for a phone ending 0001 (insufficient balance)', async () => {
      const { orderId } = await onramp('254700000001');
      const s = await settled(() => ramp.getOnrampStatus(orderId));
      expect(s).toMatchObject({ status: 'FAILED', message: 'Insufficient balance' });
      expect(s.receipt).toBeUndefined();
      expect(s.checkoutRequestId).toMatch(/^ws_CO_/);
    });

    it('never settles for a phone ending 0002', async () => {
      const { orderId } = await onramp('254700000002');
      await sleep(SETTLE_MS * 3);
      expect((await ramp.getOnrampStatus(orderId)).status).toBe('PENDING');
    });

    it(`reports a cancelled prompt (0003) as ${generation === 'legacy' ? 'CANCELLED' : 'FAILED'}`, async () => {
      const { orderId } = await onramp('254700000003');
      const s = await settled(() => ramp.getOnrampStatus(orderId));
      if (generation === 'legacy') {
        expect(s).toMatchObject({ status: 'CANCELLED', resultDescription: 'Transaction cancelled by user' });
        expect(s.phone).toBe('254700000003');
        expect(s.transactionDate).toMatch(/^\d{4}-\d\d-\d\dT/);
      } else {
        expect(s.status).toBe('FAILED');
      }
    });

    it('refuses bad order input with a validation error', async () => {
      const e = await rejection(onramp('0712345678'));
      expect(e).toBeInstanceOf(RampValidationError);
    });
  });

  describe('deposit (crypto release)', () => {
    it('refuses while pending and after a failed payment, releases once, then refuses', async () => {
      const address = randomEvmAddress();
      const { orderId } = await onramp('254712340005', address);
      const early = await rejection(ramp.deposit({ chain: 'celo', address, orderId, project: 'p' }));
      expect(early).toBeInstanceOf(RampValidationError);
      expect((early as RampValidationError).depositRefusal).toBe('pending');

      await settled(() => ramp.getOnrampStatus(orderId));
      const released = await ramp.deposit({ chain: 'celo', address, orderId, project: 'p' });
      expect(released.hash).toMatch(/^0x[0-9a-f]{64}$/);

      const again = await rejection(ramp.deposit({ chain: 'celo', address, orderId, project: 'p' }));
      expect((again as RampValidationError).depositRefusal).toBe('already_processed');
      expect((again as RampValidationError).serviceMessage).toBe(
        `Transaction ${orderId} has already been processed`,
      );
      expect(sandbox.depositCallCount(orderId)).toBe(3);
    });

    it('releases at most once when asked twice at the same time', async () => {
      const address = randomEvmAddress();
      const { orderId } = await onramp('254712340006', address);
      await settled(() => ramp.getOnrampStatus(orderId));
      const results = await Promise.allSettled(
        Array.from({ length: 5 }, () => ramp.deposit({ chain: 'celo', address, orderId, project: 'p' })),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) {
        if (r.status === 'rejected')
          expect((r.reason as RampValidationError).depositRefusal).toBe('already_processed');
      }
      expect(sandbox.depositCallCount(orderId)).toBe(5);
    });

    it('refuses a failed payment', async () => {
      const address = randomEvmAddress();
      const { orderId } = await onramp('254700000001', address);
      await settled(() => ramp.getOnrampStatus(orderId));
      const e = await rejection(ramp.deposit({ chain: 'celo', address, orderId, project: 'p' }));
      expect((e as RampValidationError).depositRefusal).toBe('payment_failed');
      expect(sandbox.depositCallCount(orderId)).toBe(1);
    });

    it('releases on Algorand with a 52-character transaction id', async () => {
      const address = 'XEI2YQ47YAEDJEOYE3KQTYJNRCA2G2TO7U4STRYMOOXAZMIHRQ7HEEPGOE';
      const { orderId } = await ramp.createOnrampOrder({
        phone: '254712345678',
        amountKes: 50,
        userAddress: address,
        tokenAddress: '31566704',
      });
      await settled(() => ramp.getOnrampStatus(orderId));
      const r = await ramp.deposit({ chain: 'algorand', address, orderId, project: 'p' });
      expect(r.hash).toMatch(/^[A-Z2-7]{52}$/);
    });
  });

  describe('off-ramp', () => {
    it('files a transfer, pays out, and shows who received it', async () => {
      const { orderId } = await offramp('254711112222');
      expect(orderId).toMatch(/^WD-[a-z0-9]{5}-[A-Z0-9]{2}$/);
      expect((await ramp.getOfframpStatus(orderId)).status).toBe('PENDING');
      const s = await settled(() => ramp.getOfframpStatus(orderId));
      expect(s).toMatchObject({ orderId, status: 'SUCCESS', phone: '254711112222' });
      expect(s.receipt).toMatch(/^[A-Z0-9]{10}$/);
      expect(s.receiverName).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
      expect(Number(s.amountKes)).toBeGreaterThan(0);
      expect(s.completedAt).toBeDefined();
    });

    it('answers a hash filed before with the first order', async () => {
      const hash = randomHash();
      const first = await offramp('254711112222', { hash });
      const e = await rejection(offramp('254711112222', { hash: hash.toUpperCase().replace('0X', '0x') }));
      expect(e).toBeInstanceOf(RampDuplicateError);
      expect((e as RampDuplicateError).existingOrderId).toBe(first.orderId);
    });

    it('checks the hash length per chain', async () => {
      await expect(offramp('254711112222', { hash: randomHash().slice(0, 65) })).rejects.toBeInstanceOf(
        RampValidationError,
      );
      await expect(offramp('254711112222', { chain: 'algorand', hash: randomHash() })).rejects.toBeInstanceOf(
        RampValidationError,
      );
      const ok = await offramp('254711112222', {
        chain: 'algorand',
        hash: ALGORAND_HASH(),
        tokenAddress: '31566704',
        userAddress: 'XEI2YQ47YAEDJEOYE3KQTYJNRCA2G2TO7U4STRYMOOXAZMIHRQ7HEEPGOE',
      });
      expect(ok.orderId).toMatch(/^WD-/);
    });

    it('names an unsupported chain', async () => {
      const e = await rejection(offramp('254711112222', { chain: 'solana' as Network }));
      expect((e as RampValidationError).serviceMessage).toBe('Unsupported blockchain: solana');
    });

    it('passes on the refusal of the hash check', async () => {
      const hash = randomHash();
      refusals.push(hash);
      const e = await rejection(offramp('254711112222', { hash }));
      expect(e).toBeInstanceOf(RampValidationError);
      expect((e as RampValidationError).serviceMessage).toBe('Transaction not found on chain');
    });

    it('fails a payout to a phone ending 0001 with a reason', async () => {
      const { orderId } = await offramp('254700000001');
      const s = await settled(() => ramp.getOfframpStatus(orderId));
      expect(s).toMatchObject({
        status: 'FAILED',
        message: 'Withdrawal failed',
        failureReason: 'Transaction timeout',
      });
      expect(s.resultCode).toMatch(/^\d+$/);
      expect(s.receipt).toBeUndefined();
    });

    it('keeps a payout to a phone ending 0002 pending', async () => {
      const { orderId } = await offramp('254700000002');
      await sleep(SETTLE_MS * 3);
      expect((await ramp.getOfframpStatus(orderId)).status).toBe('PENDING');
    });
  });

  describe('tickets', () => {
    it('files off-ramp tickets by order for failed and pending orders only', async () => {
      const failed = await offramp('254700000001');
      const pending = await offramp('254700000002');
      const paid = await offramp('254711112222');
      await sleep(SETTLE_MS * 2);
      const t = await ramp.createTicket({
        side: 'offramp',
        orderId: failed.orderId,
        description: 'No money arrived',
      });
      expect(t.id).toMatch(/^[0-9a-f]{24}$/);
      expect(t).toMatchObject({
        phone: '254700000001',
        side: 'off-ramp',
        description: 'No money arrived',
        symbol: 'USDT',
      });
      await expect(
        ramp.createTicket({ side: 'offramp', orderId: pending.orderId, description: 'Stuck' }),
      ).resolves.toMatchObject({ phone: '254700000002' });
      const e = await rejection(
        ramp.createTicket({ side: 'offramp', orderId: paid.orderId, description: 'x' }),
      );
      expect((e as RampValidationError).serviceMessage).toBe(
        'No failed or pending transaction found with this orderID',
      );
      await expect(
        ramp.createTicket({ side: 'offramp', orderId: 'WD-zzzzz-ZZ', description: 'x' }),
      ).rejects.toBeInstanceOf(RampNotFoundError);
    });

    it('files on-ramp tickets by order for failed and cancelled orders only', async () => {
      const failed = await onramp('254700000001');
      const cancelled = await onramp('254700000003');
      const pending = await onramp('254700000002');
      const paid = await onramp('254712345678');
      await sleep(SETTLE_MS * 2);
      for (const o of [failed, cancelled]) {
        const t = await ramp.createTicket({
          side: 'onramp',
          orderId: o.orderId,
          description: 'Paid, no crypto',
          chain: 'celo',
        });
        expect(t).toMatchObject({ side: 'on-ramp', chain: 'celo', amount: '100' });
      }
      for (const o of [pending, paid]) {
        const e = await rejection(
          ramp.createTicket({ side: 'onramp', orderId: o.orderId, description: 'x' }),
        );
        expect((e as RampValidationError).serviceMessage).toBe(
          'No failed transaction found with this orderID',
        );
      }
      expect(sandbox.tickets().filter((t) => t.Side === 'on-ramp').length).toBeGreaterThanOrEqual(2);
    });

    it('files a manual ticket and names every field when one is missing', async () => {
      const fields = {
        phone: '254712345678',
        amount: '2.5',
        description: 'Sent USDT, no M-Pesa',
        userAddress: randomEvmAddress(),
        symbol: 'USDT',
        tokenAddress: USDT_POLYGON,
        chain: 'polygon',
      };
      const t = await ramp.createTicket({ side: 'offramp', ...fields });
      expect(t).toMatchObject({ phone: '254712345678', amount: '2.5', side: 'off-ramp', chain: 'polygon' });
      const onSide = await ramp.createTicket({ side: 'onramp', ...fields });
      expect(onSide.side).toBe('on-ramp');
      const e = await rejection(ramp.createTicket({ side: 'offramp', ...fields, symbol: '' }));
      expect((e as RampValidationError).serviceMessage).toBe(
        'Please provide all required inputs: phone, amount, description, side, userAddress, symbol, tokenAddress, and chain',
      );
    });
  });

  describe('history', () => {
    it('pages on-ramp records newest first', async () => {
      const address = randomEvmAddress();
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) {
        ids.push((await onramp('254712345678', address, 100 + i)).orderId);
        await sleep(2);
      }
      const p1 = await ramp.getHistory('onramp', address);
      expect(p1).toMatchObject({ page: 1, limit: 10, totalPages: 2, totalCount: 12 });
      expect(p1.records.map((r) => r.orderId)).toEqual(ids.slice(2).reverse());
      expect(p1.records[0]).toMatchObject({
        side: 'onramp',
        kesAmount: 111,
        symbol: 'USDT',
        phone: '254712345678',
      });
      const p2 = await ramp.getHistory('onramp', address.toLowerCase(), { page: 2, limit: 10 });
      expect(p2.records.map((r) => r.orderId)).toEqual(ids.slice(0, 2).reverse());
      const small = await ramp.getHistory('onramp', address, { page: 3, limit: 5 });
      expect(small).toMatchObject({ page: 3, limit: 5, totalPages: 3 });
      expect(small.records).toHaveLength(2);
    });

    it('lists off-ramp records with receipt and hash once paid (current: filed under userAddress)', async () => {
      const userAddress = randomEvmAddress();
      const hash = randomHash();
      const { orderId } = await offramp('254711112222', { userAddress, hash });
      await settled(() => ramp.getOfframpStatus(orderId));
      const h = await ramp.getHistory('offramp', userAddress);
      if (generation === 'legacy') {
        // The legacy order carries no userAddress, so nothing is filed under the wallet.
        expect(h.totalCount).toBe(0);
        return;
      }
      expect(h.totalCount).toBe(1);
      expect(h.records[0]).toMatchObject({
        orderId,
        side: 'offramp',
        txHash: hash,
        chain: 'polygon',
        phone: '254711112222',
      });
      expect(h.records[0]!.receipt).toMatch(/^[A-Z0-9]{10}$/);
    });
  });

  describe('checkout', () => {
    const request = {
      amount: 1500,
      currency: 'KES',
      customer: { email: 'buyer@example.com', phone: '254712345678' },
      metadata: { order_id: 'shop-42' },
    };

    it('creates a session with the bearer secret', async () => {
      const s = await ramp.createCheckoutSession(request);
      expect(s.id).toMatch(/^cs_/);
      expect(s.url).toContain(s.id);
      expect(s.raw).toMatchObject({ amount: 1500, currency: 'KES', metadata: { order_id: 'shop-42' } });
    });

    it('refuses a wrong secret and a bad body', async () => {
      const bad = client(target(), generation, { checkoutUrl: sandbox.url, checkoutSecret: 'nope' });
      await expect(bad.createCheckoutSession(request)).rejects.toBeInstanceOf(RampUnauthorizedError);
      await expect(ramp.createCheckoutSession({ ...request, amount: 15.5 })).rejects.toBeInstanceOf(
        RampValidationError,
      );
    });
  });
});

describe.skipIf(!live.enabled)(
  'live ramp service (set RAMP_LIVE_TEST=1, RAMP_BASE_URL, RAMP_API_KEY and RAMP_API_SECRET to run)',
  () => {
    for (const generation of GENERATIONS) {
      describe(`${generation} paths`, () => sharedCases(live.target, generation));
    }
  },
);
