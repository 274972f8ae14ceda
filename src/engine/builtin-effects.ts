/** The effects every engine carries out: reads from the ramp and the tracker, tickets, and the STK push. */
import type { Effect } from '../flows/types.js';
import { createOnrampOrder } from './claims/create-onramp-order.js';
import type { Engine } from './types.js';

export function registerBuiltInEffects(engine: Engine): void {
  engine.registerEffect<Extract<Effect, { type: 'fetchAssets' }>>('fetchAssets', async (_e, ctx) => ({
    kind: 'assets',
    assets: await ctx.ramp.listAssets(),
  }));

  engine.registerEffect<Extract<Effect, { type: 'fetchQuote' }>>('fetchQuote', async (e, ctx) => ({
    kind: 'quote',
    quote: await ctx.ramp.getQuote(e.request),
    purpose: e.purpose,
  }));

  engine.registerEffect<Extract<Effect, { type: 'fetchHistory' }>>('fetchHistory', async (e, ctx) => ({
    kind: 'history',
    side: e.side,
    page: await ctx.ramp.getHistory(e.side, e.address, { page: e.page }),
  }));

  engine.registerEffect<Extract<Effect, { type: 'fetchOwnOrders' }>>('fetchOwnOrders', async (e, ctx) => {
    if (!ctx.tracker) return { kind: 'ownOrders', page: { orders: [], page: 1, totalPages: 0 } };
    return { kind: 'ownOrders', page: await ctx.tracker.ordersOf(ctx.user, e.page, e.limit) };
  });

  engine.registerEffect<Extract<Effect, { type: 'createTicket' }>>('createTicket', async (e, ctx) => ({
    kind: 'ticketCreated',
    ticket: await ctx.ramp.createTicket(e.request),
  }));

  engine.registerEffect<Extract<Effect, { type: 'createOnrampOrder' }>>(
    'createOnrampOrder',
    createOnrampOrder,
  );
}
