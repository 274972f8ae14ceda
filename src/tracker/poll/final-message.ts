/**
 * The end of an order: its outcome is decided and saved first, then posted to the user once (guarded
 * by the store's `final` claim, so two workers never both post it), then support is alerted when the
 * outcome is an escalation. The user hears why before support's own note reaches them.
 */
import { randomUUID } from 'node:crypto';
import { ChatGoneError } from '../../chat/types.js';
import { sendScope } from '../../outbound/index.js';
import { DONE, pollAgain, type TrackerContext } from '../context.js';
import { onrampDoneMessage } from '../messages.js';
import type { PollDecision } from '../schedule/scheduler.js';
import type { FinalOutcome } from '../store/state.js';
import type { StoredOrder } from '../store/store.js';
import type { EscalationCase } from '../types.js';
import { note, save } from './progress.js';

/** Decides the order's outcome (saved), then delivers it. */
export async function finalize(
  ctx: TrackerContext,
  rec: StoredOrder,
  outcome: FinalOutcome,
): Promise<PollDecision> {
  rec.state.final = outcome;
  rec.state.stage = 'final';
  await save(ctx, rec);
  return deliverFinal(ctx, rec);
}

/** A paid on-ramp whose crypto went out with `hash`: the success message. */
export const finishOnramp = (ctx: TrackerContext, rec: StoredOrder, hash: string) =>
  finalize(ctx, rec, {
    outcome: 'success',
    message: onrampDoneMessage(rec.order, rec.state.receipt, hash),
  });

/** Posts the decided outcome once (guarded by the `final` claim), then finishes the order. */
export async function deliverFinal(ctx: TrackerContext, rec: StoredOrder): Promise<PollDecision> {
  const { order, state } = rec;
  const final = state.final!;
  const token = randomUUID();
  const claim = await ctx.store.claimFinal(order.orderId, token, ctx.now(), ctx.cfg.claimStaleMs);
  if (claim === 'done') return DONE;
  if (claim === 'busy') {
    // Its holder may save the state; a save from here could only get in its way.
    ctx.saved.add(rec);
    return pollAgain(ctx);
  }
  try {
    // The user hears why first; then support is alerted (its own note to the user follows).
    if (!final.notifiedAt) {
      const gone = await tell(ctx, rec);
      if (gone) {
        final.escalation = unreachable(ctx, rec, gone);
        delete final.raisedAt;
      }
      if (final.escalation) {
        final.notifiedAt = ctx.now();
        await save(ctx, rec);
      }
    }
    if (final.escalation && !final.raisedAt) {
      await raiseToSupport(ctx, final.escalation);
      final.raisedAt = ctx.now();
      await save(ctx, rec);
    }
  } catch (err) {
    await ctx.store.releaseFinal(order.orderId, token).catch(() => {});
    ctx.metrics.errors.inc({ kind: final.escalation && !final.raisedAt ? 'escalate' : 'notify' });
    throw err;
  }
  await finishOrder(ctx, rec);
  return DONE;
}

/**
 * Posts the outcome, waiting its turn before progress messages. A failure is thrown (the order is
 * tried again later: the outcome is never dropped), except the platform saying the chat is gone,
 * which is returned: nothing will ever reach that chat.
 */
async function tell(ctx: TrackerContext, rec: StoredOrder): Promise<ChatGoneError | undefined> {
  try {
    // Named: told again after a kill or a lost save, it is the message already in the outbox.
    await ctx.notifier.notify(
      rec.order.user,
      { ...(rec.state.final?.message ?? { texts: [] }), outcome: true },
      sendScope(`final:${rec.order.orderId}`, { strict: true }),
    );
    return undefined;
  } catch (err) {
    if (err instanceof ChatGoneError) return err;
    throw err;
  }
}

/** The order's case for support when its user cannot be told how it ended. */
function unreachable(ctx: TrackerContext, rec: StoredOrder, gone: ChatGoneError): EscalationCase {
  const { order, state } = rec;
  const final = state.final!;
  ctx.log.warn(
    { orderId: order.orderId, outcome: final.outcome },
    "the order's chat is gone; support takes it",
  );
  const told = `the user could not be told the order ${final.outcome === 'success' ? 'succeeded' : `ended (${final.outcome})`}: ${gone.channel} says the chat is gone (${gone.reason.slice(0, 120)})`;
  const earlier = final.escalation;
  return {
    ...(earlier ?? {
      lastStatus: state.status,
      lastError: state.lastError,
      receipt: state.receipt,
      polls: state.polls,
    }),
    reason: 'undeliverable',
    order,
    at: ctx.now(),
    detail: earlier ? `${told}; it was going to support anyway (${earlier.reason})` : told,
  };
}

/** The final message is out: record it, let the chat's flow know, count the outcome. */
async function finishOrder(ctx: TrackerContext, rec: StoredOrder): Promise<void> {
  const { order, state } = rec;
  const final = state.final!;
  // The chat's flow learns the order is over (not awaited: the chat may be busy with the user). Told
  // before the store is, so the news does not depend on Redis answering the next two writes.
  void ctx.notifier.orderFinal?.(order.user, order.orderId).catch((err: unknown) => {
    ctx.log.warn(
      { orderId: order.orderId, err: (err as Error).message },
      'could not tell the chat the order is over',
    );
  });
  await note(ctx, order.orderId, { kind: 'final', outcome: final.outcome });
  await ctx.store.completeFinal(order.orderId, ctx.cfg.retentionMs);
  ctx.metrics.orders.inc({ side: order.side, state: final.outcome });
  ctx.log.info({ orderId: order.orderId, outcome: final.outcome }, 'order finished');
}

/** Hands the case to the support desk, or logs it loudly when none is plugged in. */
async function raiseToSupport(ctx: TrackerContext, c: EscalationCase): Promise<void> {
  if (ctx.onEscalate) {
    await ctx.onEscalate(c);
    return;
  }
  ctx.log.error(
    { orderId: c.order.orderId, side: c.order.side, reason: c.reason, lastStatus: c.lastStatus },
    'order escalated to support (no support handler is plugged in: handle it by hand)',
  );
}
