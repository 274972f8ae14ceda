/**
 * One status poll of an order, from the ramp's answer to the next step: still pending (tell the user
 * once, poll again, or go to support past the horizon), paid on-ramp (release the crypto), paid-out
 * off-ramp (done), failed or cancelled (the final message saying why).
 */
import type { OutMessage } from '../../chat/types.js';
import type { Direction, OfframpOrderState, OnrampOrderState } from '../../domain/types.js';
import { horizonPassed, jitter, type TrackerContext } from '../context.js';
import {
  offrampDoneMessage,
  offrampFailedMessage,
  offrampPendingMessage,
  onrampCancelled,
  onrampFailedMessage,
  onrampPaidMessage,
  onrampPendingMessage,
} from '../messages.js';
import type { PollDecision } from '../schedule/scheduler.js';
import type { StoredOrder } from '../store/store.js';
import { escalate } from './escalate.js';
import { finalize } from './final-message.js';
import { release } from './onramp-release.js';
import { observe, post, save } from './progress.js';

/** The next step of an on-ramp order: its payment status, or the release once paid. */
export async function stepOnramp(ctx: TrackerContext, rec: StoredOrder): Promise<PollDecision> {
  const { order, state } = rec;
  if (state.stage === 'releasing') return release(ctx, rec);
  const s: OnrampOrderState = await timedStatus(ctx, 'onramp', () => ctx.ramp.getOnrampStatus(order.orderId));
  await observe(ctx, rec, s, s.resultDescription ?? s.message);
  if (s.status === 'PENDING') return stillPending(ctx, rec, onrampPendingMessage(order));
  if (s.status === 'SUCCESS') {
    state.receipt = s.receipt;
    state.stage = 'releasing';
    await save(ctx, rec);
    post(ctx, rec, 'SUCCESS', onrampPaidMessage(order, s.receipt));
    return release(ctx, rec);
  }
  // A prompt cancelled on the phone comes back as FAILED "Request cancelled by user" on the current
  // paths: recorded as cancelled, so the history says what the chat said (no money was taken).
  return finalize(ctx, rec, {
    outcome: onrampCancelled(s.status, s.resultDescription ?? s.message) ? 'cancelled' : 'failed',
    message: onrampFailedMessage(order, s.status, s.resultDescription ?? s.message),
  });
}

/** The next step of an off-ramp order: its payout status. */
export async function stepOfframp(ctx: TrackerContext, rec: StoredOrder): Promise<PollDecision> {
  const { order } = rec;
  const s: OfframpOrderState = await timedStatus(ctx, 'offramp', () =>
    ctx.ramp.getOfframpStatus(order.orderId),
  );
  await observe(ctx, rec, s, s.failureReason ?? s.message);
  if (s.status === 'PENDING') return stillPending(ctx, rec, offrampPendingMessage(order));
  if (s.status === 'SUCCESS') {
    // Kept with the order, so its owner's history shows the payout's M-Pesa receipt.
    if (s.receipt) rec.state.receipt = s.receipt;
    return finalize(ctx, rec, { outcome: 'success', message: offrampDoneMessage(order, s) });
  }
  return finalize(ctx, rec, {
    outcome: s.status === 'CANCELLED' ? 'cancelled' : 'failed',
    message: offrampFailedMessage(order, s),
  });
}

/** Still pending: to support once past the horizon, else tell the user (once) and poll again. */
async function stillPending(
  ctx: TrackerContext,
  rec: StoredOrder,
  message: OutMessage,
): Promise<PollDecision> {
  if (horizonPassed(ctx, rec.order)) return escalate(ctx, rec, 'horizon');
  const delay = jitter(ctx.cfg.pollIntervalMs);
  rec.state.nextDueAt = ctx.now() + delay;
  await save(ctx, rec);
  ctx.saved.add(rec);
  post(ctx, rec, 'PENDING', message);
  return { next: delay };
}

/** A status call to the ramp, timed in the poll-duration metric. */
async function timedStatus<T extends { status: string }>(
  ctx: TrackerContext,
  side: Direction,
  call: () => Promise<T>,
): Promise<T> {
  const end = ctx.metrics.pollDuration.startTimer({ side });
  try {
    const s = await call();
    end({ result: s.status });
    return s;
  } catch (err) {
    end({ result: 'error' });
    throw err;
  }
}
