/**
 * Escalation to support: an order the tracker cannot finish by itself (still pending past its horizon,
 * a deposit whose outcome stays unknown, a refused deposit that cannot be retried) gets a final message
 * saying so, and support gets the case with what the tracker knows, deposit guard included.
 */
import { describe, type TrackerContext } from '../context.js';
import { escalatedMessage } from '../messages.js';
import type { PollDecision } from '../schedule/scheduler.js';
import type { StoredOrder } from '../store/store.js';
import type { EscalationCase, EscalationReason } from '../types.js';
import { finalize } from './final-message.js';
import { note } from './progress.js';

/** Makes support's case of the order and finishes it with the escalation message. */
export async function escalate(
  ctx: TrackerContext,
  rec: StoredOrder,
  reason: EscalationReason,
): Promise<PollDecision> {
  const { order, state } = rec;
  const deposit =
    order.side === 'onramp'
      ? await ctx.store.getDeposit(order.orderId).catch((err: unknown) => ({ error: describe(err) }))
      : undefined;
  const c: EscalationCase = {
    reason,
    order,
    lastStatus: state.status,
    lastError: state.lastError,
    receipt: state.receipt,
    polls: state.polls,
    at: ctx.now(),
    deposit: deposit as Record<string, unknown> | undefined,
  };
  ctx.log.warn({ orderId: order.orderId, reason }, 'escalating order to support');
  ctx.metrics.escalations.inc({ side: order.side, reason });
  await note(ctx, order.orderId, { kind: 'escalated', reason });
  return finalize(ctx, rec, {
    outcome: 'escalated',
    message: escalatedMessage(order, reason),
    escalation: c,
  });
}
