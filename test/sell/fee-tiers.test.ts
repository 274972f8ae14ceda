/**
 * One fee, the ramp's, at every fee band: what a seller is asked to send, at the quoted rate, is
 * worth the KES they receive plus the fee shown, and the intent binds exactly that. A buyer pays the
 * fee plus the value of the tokens received.
 *
 * The rule, exactly (T tokens to send, r the quoted rate, F the KES fee shown, R the KES received,
 * q = 0.000001, the ramp's token precision, which is the last decimal of the 6-decimal tokens sold):
 * - the summary's "You send" is the ramp's `inputAmount`, every digit; the intent's total is it in
 *   base units, exactly, and the escrow's fee argument is the ramp's fee in tokens;
 * - |T·r − (R + F)| ≤ 0.005 KES (R is the ramp's figure, to the cent);
 * - asked for K KES: R = K and 0 ≤ T·r − (K + F) < q·r (the smallest 6-decimal amount that pays K);
 * - asked for A tokens: T = A;
 * - the fee in tokens is F / r to 6 decimals: |fee·r − F| ≤ q·r / 2.
 * All products are computed on integers (micro-tokens × micro-KES), never in floating point.
 * Both path generations (the legacy one has no `fiatAmount`: the client searches) and both fee
 * categories (B2C, B2B) over amounts across every band the off-ramp limits reach (10–30,000 KES).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeeCategory, Quote, QuoteRequest, TokenInfo } from '../../src/domain/types.js';
import { sellFigures } from '../../src/flows/quote/quote-view.js';
import type { Effect } from '../../src/flows/types.js';
import { createRampClient } from '../../src/ramp/index.js';
import type { RampClient } from '../../src/ramp/types.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { sellConfirmButtonId } from '../../src/sell/flow.js';
import { amountsOf } from '../../src/sell/intents/intent.js';
import { Driver, onlyEffect, onrampQuote, textOf } from '../flows/helpers.js';

const MICRO = 1_000_000n;

/** Decimal text to an integer count of 10^-scale (exact; throws on more digits). */
function scaled(value: string | number, scale: number): bigint {
  const s = typeof value === 'number' ? value.toFixed(scale) : value;
  const m = /^(\d+)(?:\.(\d*))?$/.exec(s.trim());
  if (!m) throw new Error(`not a decimal: ${s}`);
  const frac = (m[2] ?? '').replace(/0+$/, '');
  if (frac.length > scale) throw new Error(`${s} has more than ${scale} decimals`);
  return BigInt(m[1]! + frac.padEnd(scale, '0'));
}

/** The number in a shown text ("KES 1,006.00", "7.76834 USDT"). */
const shownNumber = (t: string) => t.replace(/[^\d.]/g, '');

/** Off-ramp bands reachable within 10–30,000 KES: [low, high, B2C, B2B] (reference §4). */
const BANDS: [number, number, number, number][] = [
  [10, 49, 1, 3],
  [50, 100, 1, 4],
  [101, 500, 6, 9],
  [501, 1000, 6, 14],
  [1001, 1500, 6, 19],
  [1501, 2500, 11, 27],
  [2501, 3500, 11, 32],
  [3501, 5000, 11, 41],
  [5001, 7500, 13, 50],
  [7501, 10000, 13, 56],
  [10001, 15000, 13, 65],
  [15001, 20000, 13, 70],
  [20001, 25000, 16, 77],
  [25001, 30000, 16, 82],
];

/** A small seeded generator, so a failure names an amount that fails again. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** KES targets in every band: the edges (where the gross crosses into the next band), and random. */
function kesTargets(category: FeeCategory, random: () => number): number[] {
  const out = new Set<number>();
  for (const [low, high, b2c, b2b] of BANDS) {
    const fee = category === 'B2B' ? b2b : b2c;
    for (const k of [low, high - fee - 1, high - fee, high - fee + 1, high]) out.add(k);
    out.add(low + Math.floor(random() * (high - low)));
  }
  // The gross (K + fee) must stay within the limits.
  return [...out]
    .filter((k) => k >= 10 && k + (category === 'B2B' ? 82 : 16) <= 30_000)
    .sort((a, b) => a - b);
}

/** Token amounts (6 decimals) whose gross falls in every band. */
function tokenAmounts(rate: number, random: () => number): string[] {
  const out: string[] = [];
  for (const [low, high] of BANDS) {
    for (let i = 0; i < 2; i++) {
      const kes = low + random() * (high - low);
      const tokens = Math.floor((kes / rate) * 1e6) / 1e6;
      if (tokens * rate >= 10 && tokens * rate <= 30_000) out.push(tokens.toFixed(6));
    }
  }
  return out;
}

let sandbox: Sandbox;
let clients: Record<'current' | 'legacy', RampClient>;
let usdt: TokenInfo;
const RATE = 129.5;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, kesPerUsd: RATE });
  const client = (generation: 'current' | 'legacy') =>
    createRampClient({
      baseUrl: sandbox.url,
      apiKey: sandbox.options.apiKey,
      apiSecret: sandbox.options.apiSecret,
      generation,
    });
  clients = { current: client('current'), legacy: client('legacy') };
  usdt = (await clients.current.listAssets()).tokens.find(
    (t) => t.network === 'polygon' && t.symbol === 'USDT',
  )!;
});
afterAll(() => sandbox?.close());

/**
 * `/sell <args>` through the pure flow with `quote` as the ramp's answer (first and at Confirm):
 * the quote request the flow made, the summary's texts, and the intent request.
 */
function sell(args: string, quoteOf: (request: QuoteRequest) => Quote) {
  const d = new Driver();
  d.command('sell', `${args} polygon 0712345678`);
  const options = d.feed({ kind: 'sellOptions', tokens: [usdt] });
  expect(
    options.effects.filter((e) => e.type !== 'send'),
    `${args}: ${options.ids}`,
  ).toHaveLength(1);
  const ask = onlyEffect(options) as Extract<Effect, { type: 'fetchQuote' }>;
  const quote = quoteOf(ask.request);
  const summary = d.quote(quote, 'sell');
  expect(d.at).toBe('summary');
  d.button(sellConfirmButtonId((d.flow as { id: string }).id));
  const intent = onlyEffect(d.quote(quote, 'sell-reconfirm')) as Extract<
    Effect,
    { type: 'sellCreateIntent' }
  >;
  return { request: ask.request, summary, intent: intent.request };
}

/** Checks the rule on one quote as the flow shows and binds it; `asked` is what the seller typed. */
function checkRule(quote: Quote, asked: { kes: number } | { tokens: string }, label: string) {
  const { summary, intent } = sell(
    'kes' in asked ? `${asked.kes} KES USDT` : `${asked.tokens} USDT`,
    () => quote,
  );
  const figures = sellFigures(quote);
  // What the summary shows.
  const send = shownNumber(String(textOf(summary, 'quote-pay-token')?.args?.amount));
  const receive = shownNumber(String(textOf(summary, 'quote-receive-kes')?.args?.amount));
  const fee = textOf(summary, 'quote-fee')?.args;
  expect(send, label).toBe(quote.inputAmount.replace(/\.?0+$/, ''));
  expect(Number(receive), label).toBe(figures.receiveKes);
  expect(Number(shownNumber(String(fee?.feeKes))), label).toBe(quote.fee.kes);
  expect(shownNumber(String(fee?.feeToken)), label).toBe(Number(figures.feeTokens).toString());

  // What the intent binds: the shown total, fee included, and the ramp's fee, in base units.
  expect(intent, label).toMatchObject({ total: quote.inputAmount, fee: figures.feeTokens });
  expect(intent.amountKes, label).toBe(figures.receiveKes);
  const bound = amountsOf(intent, 6);
  expect(bound.totalUnits, label).toBe(scaled(quote.inputAmount, 6));
  expect(bound.feeUnits, label).toBe(scaled(figures.feeTokens, 6));

  // The rule, on integers: micro-tokens × micro-KES-per-token = 10^-12 KES.
  const T = scaled(quote.inputAmount, 6);
  const r = scaled(quote.exchangeRate, 6);
  const F = scaled(quote.fee.kes, 2) * 10n ** 10n;
  const R = scaled(figures.receiveKes, 2) * 10n ** 10n;
  const value = T * r;
  const halfCent = 5n * 10n ** 9n;
  const gap = value - (R + F);
  expect(gap <= halfCent && gap >= -halfCent, `${label}: ${T}·${r} vs R ${R} + F ${F}`).toBe(true);
  const feeGap = scaled(figures.feeTokens, 6) * r - F;
  expect(2n * (feeGap < 0n ? -feeGap : feeGap) <= r, `${label}: fee in tokens`).toBe(true);
  if ('kes' in asked) {
    expect(figures.receiveKes, label).toBe(asked.kes);
    const over = value - (BigInt(asked.kes) * MICRO * MICRO + F);
    expect(over >= 0n && over < r, `${label}: ${over} over, one unit is ${r}`).toBe(true);
  } else {
    expect(T, label).toBe(scaled(asked.tokens, 6));
  }
}

describe('sell: one fee, the ramp’s, at every band', () => {
  for (const generation of ['current', 'legacy'] as const) {
    for (const category of ['B2C', 'B2B'] as const) {
      it(`${generation} path, ${category}: KES targets and token amounts`, async () => {
        const random = seeded(category === 'B2C' ? 22 : 2222);
        const ramp = clients[generation];
        const quotes: { quote: Quote; asked: { kes: number } | { tokens: string } }[] = [];
        const targets = kesTargets(category, random);
        const amounts = tokenAmounts(RATE, random);
        await Promise.all([
          ...targets.map(async (kes) => {
            const quote = await ramp.getQuote({
              type: 'offramp',
              network: 'polygon',
              token: 'USDT',
              fiatCurrency: 'KES',
              fiatAmount: String(kes),
              category,
            });
            quotes.push({ quote, asked: { kes } });
          }),
          ...amounts.map(async (tokens) => {
            const quote = await ramp.getQuote({
              type: 'offramp',
              network: 'polygon',
              token: 'USDT',
              fiatCurrency: 'KES',
              amount: tokens,
              category,
            });
            quotes.push({ quote, asked: { tokens } });
          }),
        ]);
        expect(quotes.length).toBeGreaterThan(80);
        const fees = new Set(quotes.map((q) => q.quote.fee.kes));
        expect(fees.size, 'every fee of the table seen').toBe(category === 'B2C' ? 5 : BANDS.length);
        for (const { quote, asked } of quotes)
          checkRule(quote, asked, `${generation} ${category} ${JSON.stringify(asked)}`);
      });
    }
  }

  it('the flow asks the ramp for what the seller asked: a KES target, or a token amount', () => {
    const seen: QuoteRequest[] = [];
    const stub = (request: QuoteRequest): Quote => {
      seen.push(request);
      return {
        type: 'offramp',
        network: 'polygon',
        inputAmount: '7.768340',
        inputCurrency: 'USDT',
        outputAmount: '1006.0000',
        outputCurrency: 'KES',
        exchangeRate: RATE,
        fee: { amount: '0.046332', currency: 'USDT', kes: 6 },
        estimatedOutputKes: 1000,
        limits: { min: 10, max: 30000, currency: 'KES' },
        receivedAt: '2026-11-26T00:00:00.000Z',
      };
    };
    sell('1000 KES USDT', stub);
    sell('7.76834 USDT', stub);
    expect(seen).toMatchObject([{ fiatAmount: '1000' }, { amount: '7.76834' }]);
  });

  it('the figures of issue #22: KES 1,000 at 129.50 is 7.76834 USDT sent, fee KES 6 (was 7.814672)', async () => {
    const figures: string[] = [];
    for (const kes of [1000, 1500, 5000]) {
      const quote = await clients.current.getQuote({
        type: 'offramp',
        network: 'polygon',
        token: 'USDT',
        fiatCurrency: 'KES',
        fiatAmount: String(kes),
      });
      const { summary, intent } = sell(`${kes} KES USDT`, () => quote);
      figures.push(
        `${kes}: send ${textOf(summary, 'quote-pay-token')?.args?.amount}, fee ${textOf(summary, 'quote-fee')?.args?.feeKes}, receive ${textOf(summary, 'quote-receive-kes')?.args?.amount}, bound ${intent.total}`,
      );
    }
    expect(figures).toEqual([
      '1000: send 7.76834 USDT, fee KES 6.00, receive KES 1,000.00, bound 7.768340',
      '1500: send 11.667954 USDT, fee KES 11.00, receive KES 1,500.00, bound 11.667954',
      '5000: send 38.710425 USDT, fee KES 13.00, receive KES 5,000.00, bound 38.710425',
    ]);
  });
});

describe('buy: KES paid = the fee + the value of the tokens received', () => {
  it('at every band of the on-ramp limits, as the sandbox quotes and the summary shows', async () => {
    const random = seeded(7);
    const amounts = [
      1, 49, 50, 100, 101, 500, 501, 1000, 1001, 1500, 1501, 2500, 5000, 5001, 7500, 7501, 10000,
    ];
    for (let i = 0; i < 20; i++) amounts.push(1 + Math.floor(random() * 9999));
    for (const generation of ['current', 'legacy'] as const) {
      for (const kes of amounts) {
        const quote = await clients[generation].getQuote({
          type: 'onramp',
          network: 'polygon',
          token: 'USDT',
          fiatCurrency: 'KES',
          amount: String(kes),
        });
        const d = new Driver();
        d.command('quote', `buy ${kes} USDT polygon`);
        d.assets({ networks: ['polygon'], fiat: ['KES'], tokens: [usdt] });
        const shown = d.quote(quote, 'quote');
        const pay = Number(shownNumber(String(textOf(shown, 'quote-pay-kes')?.args?.amount)));
        const fee = Number(shownNumber(String(textOf(shown, 'quote-fee')?.args?.feeKes)));
        const tokens = String(textOf(shown, 'quote-receive-token')?.args?.amount);
        const label = `${generation} ${kes} KES`;
        expect(pay, label).toBe(kes + fee);
        // Tokens shown to 6 decimals: their value is the KES paid less the fee, within half a unit.
        const value = scaled(shownNumber(tokens), 6) * scaled(quote.exchangeRate, 6);
        const net = BigInt(kes) * MICRO * MICRO;
        const gap = value > net ? value - net : net - value;
        expect(2n * gap <= scaled(quote.exchangeRate, 6), `${label}: ${tokens}`).toBe(true);
      }
    }
    // The helper's reference quote agrees.
    expect(onrampQuote(100).estimatedOutputKes).toBe(101);
  });
});
