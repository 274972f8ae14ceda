/**
 * The ramp client: every endpoint of both path generations and the checkout endpoint, answers
 * normalised into the domain types, failures as typed RampErrors.
 *
 * ```ts
 * const ramp = createRampClient({ baseUrl, apiKey, apiSecret, generation: 'current' });
 * const quote = await ramp.getQuote({ type: 'onramp', network: 'celo', token: 'USDT', fiatCurrency: 'KES', amount: '100' });
 * ```
 */
import type { Logger } from 'pino';
import { fetchAssets } from './actions/assets.js';
import { createCheckoutSession } from './actions/checkout.js';
import type { RampContext } from './actions/context.js';
import { deposit } from './actions/deposit.js';
import { getHistory } from './actions/history.js';
import { createOfframpOrder, getOfframpStatus } from './actions/offramp.js';
import { createOnrampOrder, getOnrampStatus } from './actions/onramp.js';
import { fetchQuote } from './actions/quote.js';
import { createTicket } from './actions/tickets.js';
import { createTransport } from './http.js';
import { type Generation, rampPaths } from './paths.js';
import type { RampClient } from './types.js';

export * from './errors.js';

export type { RampClient } from './types.js';

export interface RampClientOptions {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  /** Path generation; default 'current'. */
  generation?: Generation;
  /** The brand in legacy paths (`/api/<brand>-quotes`); default 'svc'. */
  legacyBrand?: string;
  /** Base address of the checkout endpoint; defaults to baseUrl. */
  checkoutUrl?: string;
  checkoutSecret?: string;
  /** Per attempt; default 15000. */
  timeoutMs?: number;
  /** Extra attempts for calls safe to repeat; default 3. */
  retries?: number;
  /** First backoff, doubled each retry; default 300. */
  retryDelayMs?: number;
  logger?: Logger;
}

/** Creates a client for the ramp service at `baseUrl`. */
export function createRampClient(opts: RampClientOptions): RampClient {
  const generation = opts.generation ?? 'current';
  const ctx: RampContext = {
    generation,
    paths: rampPaths(generation, opts.legacyBrand ?? 'svc'),
    send: createTransport({
      baseUrl: opts.baseUrl,
      apiKey: opts.apiKey,
      apiSecret: opts.apiSecret,
      checkoutUrl: opts.checkoutUrl,
      checkoutSecret: opts.checkoutSecret,
      timeoutMs: opts.timeoutMs ?? 15_000,
      retries: opts.retries ?? 3,
      retryDelayMs: opts.retryDelayMs ?? 300,
      logger: opts.logger?.child({ component: 'ramp' }),
    }),
  };
  return {
    getQuote: (r) => fetchQuote(ctx, r),
    listAssets: () => fetchAssets(ctx),
    createOnrampOrder: (r) => createOnrampOrder(ctx, r),
    getOnrampStatus: (id) => getOnrampStatus(ctx, id),
    deposit: (r) => deposit(ctx, r),
    createOfframpOrder: (r) => createOfframpOrder(ctx, r),
    getOfframpStatus: (id) => getOfframpStatus(ctx, id),
    createTicket: (r) => createTicket(ctx, r),
    getHistory: (side, address, page) => getHistory(ctx, side, address, page),
    createCheckoutSession: (r) => createCheckoutSession(ctx, r),
  };
}
