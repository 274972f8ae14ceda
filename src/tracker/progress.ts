/**
 * Writing down an order's progress: its tracking state (saved over the revision it was read at),
 * the last non-final message posted, and the timeline support reads.
 */
import type { OutMessage } from '../chat/types.js';
import { describe, StaleStateError, type TrackerContext } from './context.js';
import { failureReasonText } from './messages.js';
import type { StoredOrder } from './store.js';
import type { OrderEvent } from './timeline.js';

/** Saves the state over the revision it was read at; throws StaleStateError when it is not current. */
export async function save(ctx: TrackerContext, rec: StoredOrder): Promise<void> {
  const rev = await ctx.store.saveState(rec.order.orderId, rec.state, rec.rev);
  if (rev === undefined) throw new StaleStateError(`order ${rec.order.orderId} was saved by another worker`);
  rec.rev = rev;
}

/** Posts a non-final state change once (compared with the last posted state in the store). */
export async function post(
  ctx: TrackerContext,
  rec: StoredOrder,
  key: string,
  message: OutMessage,
): Promise<void> {
  if (rec.posted === key) return;
  try {
    await ctx.notifier.notify(rec.order.user, message);
    await ctx.store.setPosted(rec.order.orderId, key);
    rec.posted = key;
  } catch (err) {
    ctx.metrics.errors.inc({ kind: 'notify' });
    ctx.log.warn({ err, orderId: rec.order.orderId, key }, 'could not post an order update; will retry');
  }
}

/** Adds to the order's timeline. Support's view only: a failure is logged, never fatal. */
export async function note(
  ctx: TrackerContext,
  orderId: string,
  event: Omit<OrderEvent, 'at'>,
): Promise<void> {
  try {
    await ctx.store.appendEvent(orderId, { ...event, at: ctx.now() });
  } catch (err) {
    ctx.metrics.errors.inc({ kind: 'timeline' });
    ctx.log.warn({ orderId, kind: event.kind, err: describe(err) }, 'could not record an order event');
  }
}

/** Takes in a status the ramp reported: on the timeline when it changed, then in the state. */
export async function observe(
  ctx: TrackerContext,
  rec: StoredOrder,
  s: { status: 'PENDING' | 'SUCCESS' | 'FAILED' | 'CANCELLED'; receipt?: string },
  description?: string,
): Promise<void> {
  const { state } = rec;
  if (state.status !== s.status) {
    const failed = s.status === 'FAILED' || s.status === 'CANCELLED';
    await note(ctx, rec.order.orderId, {
      kind: 'status',
      status: s.status,
      ...(s.receipt ? { receipt: s.receipt } : {}),
      ...(failed
        ? {
            reason: failureReasonText(
              description ?? (s.status === 'CANCELLED' ? 'cancelled' : undefined),
              rec.order.side,
            ).id.replace(/^tracker-(payout-)?reason-/, ''),
          }
        : {}),
    });
  }
  state.polls += 1;
  state.status = s.status;
  state.errorStreak = 0;
  state.lastError = undefined;
}
