/** A chat user's own orders as the tracker knows them: their history, and who made an order. */
import type { UserRef } from '../chat/types.js';
import type { OrderOutcome, OwnOrder, OwnOrdersPage } from '../flows/types.js';
import { describe, type TrackerContext } from './context.js';
import type { StoredOrder } from './store.js';

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
    ...(order.tokenAmount ? { tokenAmount: order.tokenAmount } : {}),
    ...(order.side === 'offramp' && order.feeToken ? { feeToken: order.feeToken } : {}),
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
