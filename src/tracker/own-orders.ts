/** A chat user's own orders as the tracker knows them: their history, and who made an order. */
import type { UserRef } from '../chat/types.js';
import { roundDecimal } from '../domain/decimal.js';
import type { OrderOutcome, OwnOrder, OwnOrdersPage, TrackedOrder } from '../flows/types.js';
import { describe, type TrackerContext } from './context.js';
import type { StoredOrder } from './store/store.js';

const OUTCOMES: Record<string, OrderOutcome> = {
  success: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
  escalated: 'support',
};

/** A chat user's own orders, newest first, with what became of each (pages from 1). */
export async function ordersOf(
  ctx: TrackerContext,
  user: UserRef,
  page: number,
  limit: number,
): Promise<OwnOrdersPage> {
  const { ids, total } = await ctx.store.ordersOf(`${user.channel}:${user.id}`, (page - 1) * limit, limit);
  const orders: OwnOrder[] = [];
  for (const id of ids) {
    try {
      const rec = await ctx.store.load(id);
      if (rec) orders.push(await ownOrder(ctx, rec));
    } catch (err) {
      ctx.log.warn({ orderId: id, err: describe(err) }, 'an order of the history could not be read');
    }
  }
  return { orders, page, totalPages: Math.ceil(total / limit) };
}

/** Who made an order through rampchat (undefined when unknown here, e.g. made elsewhere or expired). */
export async function ownerOf(ctx: TrackerContext, orderId: string): Promise<UserRef | undefined> {
  try {
    return (await ctx.store.load(orderId))?.order.user;
  } catch {
    return undefined;
  }
}

/** One order whole, for its receipt: the order as made, its outcome, receipt, hash and end time. */
export interface OrderRecordView extends OwnOrder {
  order: TrackedOrder;
  /** Epoch ms its final message was posted (absent while it is not over). */
  finishedAt?: number;
}

/** An order as its receipt needs it (undefined when unknown here: made elsewhere, or expired). */
export async function recordOf(ctx: TrackerContext, orderId: string): Promise<OrderRecordView | undefined> {
  const rec = await ctx.store.load(orderId);
  if (!rec) return undefined;
  const events = await ctx.store.timeline(orderId).catch(() => []);
  const finishedAt = events.find((e) => e.kind === 'final')?.at;
  return { ...(await ownOrder(ctx, rec)), order: rec.order, ...(finishedAt ? { finishedAt } : {}) };
}

/** An order as its owner's history shows it: the outcome the tracker reached, receipt and hash. */
async function ownOrder(ctx: TrackerContext, rec: StoredOrder): Promise<OwnOrder> {
  const { order, state } = rec;
  let txHash = order.txHash;
  if (order.side === 'onramp') {
    const marker = await ctx.store.getDeposit(order.orderId).catch(() => undefined);
    if (marker?.state === 'sent') txHash = marker.hash;
  }
  const outcome: OrderOutcome =
    state.stage === 'final' && state.final ? (OUTCOMES[state.final.outcome] ?? 'pending') : 'pending';
  return {
    orderId: order.orderId,
    side: order.side,
    createdAt: order.createdAt,
    network: order.network,
    symbol: order.token.symbol,
    amountKes: order.amountKes,
    ...(order.side === 'onramp' && order.paidKes !== undefined ? { paidKes: order.paidKes } : {}),
    // To the token's own decimals, as it moved on chain and as the chat and the receipt say it (a
    // buy's stored figure is the quote's and may carry more digits than can move).
    ...(order.tokenAmount ? { tokenAmount: onChain(order.tokenAmount, order.token.decimals) } : {}),
    ...(order.side === 'offramp' && order.fee ? { feeToken: order.fee } : {}),
    outcome,
    ...(state.receipt ? { receipt: state.receipt } : {}),
    ...(txHash ? { txHash } : {}),
    ...(planRun(order.plan) ? { planRun: planRun(order.plan) } : {}),
  };
}

/** The run number of a standing buy's order ("<planId>:<n>"), if it was one. */
function planRun(plan: string | undefined): number | undefined {
  const n = Number(plan?.split(':')[1]);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

const onChain = (amount: string, decimals: number): string =>
  roundDecimal(amount, Math.min(Math.max(decimals, 0), 18)) ?? amount;
