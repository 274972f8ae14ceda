/**
 * A deposit whose outcome is unknown (the call may or may not have gone through) is never called
 * again: its hash is looked for in the wallet's deposit history, and after `reconcileAttempts`
 * lookups without it the order goes to support.
 */
import type { TrackedOrder } from '../../flows/types.js';
import { RampNotFoundError } from '../../ramp/errors.js';
import type { RampClient } from '../../ramp/types.js';
import { describe, errorKind, jitter, type TrackerContext } from '../context.js';
import type { PollDecision } from '../schedule/scheduler.js';
import type { StoredOrder } from '../store/store.js';
import { escalate } from './escalate.js';
import { finishOnramp } from './final-message.js';
import { note } from './progress.js';

/** The deposit's outcome is unknown: look for its hash in the wallet's history, never call again. */
export async function reconcile(ctx: TrackerContext, rec: StoredOrder): Promise<PollDecision> {
  const { order, state } = rec;
  let hash: string | undefined;
  try {
    hash = await findDepositHash(ctx.ramp, order);
  } catch (err) {
    state.lastError = describe(err);
    ctx.metrics.errors.inc({ kind: errorKind(err) });
    ctx.log.warn({ orderId: order.orderId, err: state.lastError }, 'deposit history lookup failed');
  }
  if (hash) {
    await ctx.store.setDeposit(order.orderId, { state: 'sent', hash, at: ctx.now(), reconciled: true });
    ctx.metrics.deposits.inc({ outcome: 'reconciled' });
    await note(ctx, order.orderId, { kind: 'reconciled', hash });
    ctx.log.info({ orderId: order.orderId }, 'deposit found in history');
    return finishOnramp(ctx, rec, hash);
  }
  state.reconcileAttempts += 1;
  if (state.reconcileAttempts >= ctx.cfg.reconcileAttempts) {
    ctx.metrics.deposits.inc({ outcome: 'escalated' });
    return escalate(ctx, rec, 'deposit_unknown');
  }
  return { next: jitter(ctx.cfg.pollIntervalMs * 2 ** state.reconcileAttempts) };
}

/** The order's deposit hash in the first three pages of the wallet's on-ramp history, if there. */
async function findDepositHash(ramp: RampClient, order: TrackedOrder): Promise<string | undefined> {
  for (let page = 1; page <= 3; page++) {
    let history: Awaited<ReturnType<RampClient['getHistory']>>;
    try {
      history = await ramp.getHistory('onramp', order.walletAddress, { page, limit: 50 });
    } catch (err) {
      if (err instanceof RampNotFoundError) return undefined;
      throw err;
    }
    const hit = history.records.find((r) => r.orderId === order.orderId && r.txHash);
    if (hit?.txHash) return hit.txHash;
    if (page >= history.totalPages) return undefined;
  }
  return undefined;
}
