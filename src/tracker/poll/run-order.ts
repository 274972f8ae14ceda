/**
 * What the scheduler runs when an order is due: read it, take its next step (deliver a decided outcome,
 * or poll its side), turn errors into a backoff (or support, past the horizon or with unreadable
 * state), save when the next poll is due, and tell `onPoll`. Never throws.
 */
import {
  backoff,
  DONE,
  describe,
  errorKind,
  horizonPassed,
  pollAgain,
  StaleStateError,
  type TrackerContext,
} from '../context.js';
import type { PollDecision } from '../schedule/scheduler.js';
import { type StoredOrder, StoredStateError } from '../store/store.js';
import { escalate } from './escalate.js';
import { deliverFinal } from './final-message.js';
import { stepOfframp, stepOnramp } from './poll-order.js';
import { postsDone, save } from './progress.js';

/** One poll of one order: what the scheduler runs when the order is due. Never throws. */
export async function runOrder(ctx: TrackerContext, orderId: string): Promise<PollDecision> {
  const startedAt = ctx.now();
  const loaded = await loadForPoll(ctx, orderId);
  if (!('rec' in loaded)) return loaded;
  const { rec } = loaded;
  const { state, order } = rec;
  const lagMs = state.nextDueAt ? Math.max(0, startedAt - state.nextDueAt) : 0;
  if (state.nextDueAt) ctx.metrics.queueLag.observe(lagMs / 1000);

  let decision: PollDecision;
  try {
    if (state.final) decision = await deliverFinal(ctx, rec);
    else if (order.side === 'onramp') decision = await stepOnramp(ctx, rec);
    else decision = await stepOfframp(ctx, rec);
  } catch (err) {
    if (err instanceof StaleStateError) {
      // Whoever saved is ahead of this view: drop it and read the order afresh at the next poll.
      ctx.log.debug({ orderId, rev: rec.rev }, 'stale tracking state not saved');
      return pollAgain(ctx);
    }
    decision = await pollFailed(ctx, rec, err);
  }
  await postsDone(rec);
  if ('next' in decision && !ctx.saved.has(rec)) await saveNextDue(ctx, rec, decision.next);
  ctx.onPoll?.({
    orderId,
    side: order.side,
    lagMs,
    durationMs: ctx.now() - startedAt,
    decision: 'next' in decision ? 'next' : 'done',
  });
  return decision;
}

/** The order to poll, or the decision when there is none to poll (unreadable, gone, finished). */
async function loadForPoll(
  ctx: TrackerContext,
  orderId: string,
): Promise<{ rec: StoredOrder } | PollDecision> {
  let rec: StoredOrder | undefined;
  try {
    rec = await ctx.store.load(orderId);
  } catch (err) {
    ctx.metrics.errors.inc({ kind: errorKind(err) });
    if (err instanceof StoredStateError) {
      ctx.log.error({ err, orderId }, 'stored order is unreadable; tracking stops, check it by hand');
      return DONE;
    }
    ctx.log.warn({ err, orderId }, 'could not read the order; retrying');
    return { next: backoff(ctx, 3) };
  }
  if (!rec) {
    ctx.log.warn({ orderId }, 'no stored order for a scheduled poll');
    return DONE;
  }
  if (rec.final === 'done') return DONE;
  return { rec };
}

/** A step threw: back off, or escalate when waiting longer cannot help. */
async function pollFailed(ctx: TrackerContext, rec: StoredOrder, err: unknown): Promise<PollDecision> {
  const { state, order } = rec;
  const orderId = order.orderId;
  state.errorStreak += 1;
  state.lastError = describe(err);
  ctx.metrics.errors.inc({ kind: errorKind(err) });
  ctx.log.warn({ orderId, err: state.lastError, streak: state.errorStreak }, 'order poll failed');
  let decision: PollDecision = { next: backoff(ctx, state.errorStreak) };
  if (!state.final) {
    const mustEscalate =
      err instanceof StoredStateError || (state.stage === 'polling' && horizonPassed(ctx, order));
    if (mustEscalate) {
      try {
        decision = await escalate(ctx, rec, err instanceof StoredStateError ? 'deposit_unknown' : 'horizon');
      } catch (escErr) {
        ctx.log.error({ orderId, err: describe(escErr) }, 'could not escalate; retrying');
      }
    }
  }
  return decision;
}

/** Saves the state with the time the next poll is due (a stale view is dropped, not saved). */
async function saveNextDue(ctx: TrackerContext, rec: StoredOrder, delayMs: number): Promise<void> {
  const orderId = rec.order.orderId;
  rec.state.nextDueAt = ctx.now() + delayMs;
  await save(ctx, rec).catch((err: unknown) => {
    if (err instanceof StaleStateError) {
      ctx.log.debug({ orderId, rev: rec.rev }, 'stale tracking state not saved');
      return;
    }
    ctx.metrics.errors.inc({ kind: 'store' });
    ctx.log.warn({ err, orderId }, 'could not save tracking state');
  });
}
