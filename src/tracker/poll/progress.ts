/**
 * Writing down an order's progress: its tracking state (saved over the revision it was read at),
 * the last non-final message posted, and the timeline support reads.
 */
import type { OutMessage } from '../../chat/types.js';
import { describe, StaleStateError, type TrackerContext } from '../context.js';
import { failureReasonText } from '../messages.js';
import type { StoredOrder } from '../store/store.js';
import type { OrderEvent } from '../store/timeline.js';

/** Saves the state over the revision it was read at; throws StaleStateError when it is not current. */
export async function save(ctx: TrackerContext, rec: StoredOrder): Promise<void> {
  const rev = await ctx.store.saveState(rec.order.orderId, rec.state, rec.rev);
  if (rev === undefined) throw new StaleStateError(`order ${rec.order.orderId} was saved by another worker`);
  rec.rev = rev;
}

/** Posts still on their way, per poll: the poll ends only when they are out (see `postsDone`). */
const sending = new WeakMap<StoredOrder, Array<Promise<void>>>();

/**
 * Posts a non-final state change once (compared with the last posted state in the store). The poll
 * goes on without waiting for it: a later state of the same poll (the outcome right after "paid")
 * then replaces it while it still waits its turn, so only the newest state is sent. A post that
 * fails is posted again at the next poll.
 */
export function post(ctx: TrackerContext, rec: StoredOrder, key: string, message: OutMessage): void {
  if (rec.posted === key) return;
  rec.posted = key;
  const orderId = rec.order.orderId;
  const out = ctx.notifier
    .notify(rec.order.user, message)
    .then(() => ctx.store.setPosted(orderId, key))
    .catch((err: unknown) => {
      ctx.metrics.errors.inc({ kind: 'notify' });
      ctx.log.warn({ err, orderId, key }, 'could not post an order update; will retry');
    });
  sending.set(rec, [...(sending.get(rec) ?? []), out]);
}

/**
 * Waits for the poll's posts: the order is not polled again (here or by another process) before
 * they are out, so one order's messages never overtake each other.
 */
export async function postsDone(rec: StoredOrder): Promise<void> {
  const out = sending.get(rec);
  if (!out) return;
  sending.delete(rec);
  await Promise.all(out);
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
