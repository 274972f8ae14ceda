/**
 * The release of a paid on-ramp order's crypto, at most once.
 *
 * At-most-once deposit: before `ramp.deposit` a worker writes `deposit:<id>` = intent (SET NX), after
 * it the hash (`sent`). Whoever finds a marker it did not write never calls deposit: `sent` -> finish;
 * `intent` younger than `claimStaleMs` -> wait (its writer may still be mid-call); older, or `unknown`
 * (timeout, 5xx, connection lost after sending, "already processed") -> reconcile against the wallet's
 * deposit history, and escalate to support when the hash cannot be found. The marker is only removed
 * when the service definitely refused the call (then nothing was released and a retry is safe).
 */
import { randomUUID } from 'node:crypto';
import {
  type DepositRefusal,
  RampNetworkError,
  RampNotFoundError,
  RampUnauthorizedError,
  RampValidationError,
} from '../../ramp/errors.js';
import { backoff, describe, errorKind, horizonPassed, pollAgain, type TrackerContext } from '../context.js';
import { onrampFailedMessage } from '../messages.js';
import type { PollDecision } from '../schedule/scheduler.js';
import type { DepositMarker } from '../store/state.js';
import type { StoredOrder } from '../store/store.js';
import { reconcile } from './deposit-reconcile.js';
import { escalate } from './escalate.js';
import { finalize, finishOnramp } from './final-message.js';
import { note } from './progress.js';

/** The call was answered with a refusal or never left: nothing was released, a retry is safe. */
const definitelyNotSent = (err: unknown): boolean =>
  err instanceof RampValidationError ||
  err instanceof RampUnauthorizedError ||
  err instanceof RampNotFoundError ||
  (err instanceof RampNetworkError && !err.delivered);

/** Releases the crypto: claims the deposit intent, calls `ramp.deposit` once, records the hash. */
export async function release(ctx: TrackerContext, rec: StoredOrder): Promise<PollDecision> {
  const { order } = rec;
  const token = randomUUID();
  const existing = await ctx.store.claimDeposit(order.orderId, {
    state: 'intent',
    token,
    worker: ctx.workerId,
    at: ctx.now(),
  });
  if (existing) return resumeDeposit(ctx, rec, existing);
  await note(ctx, order.orderId, { kind: 'deposit_intent' });
  let hash: string;
  try {
    const result = await ctx.ramp.deposit({
      chain: order.network,
      address: order.walletAddress,
      orderId: order.orderId,
      project: ctx.cfg.project,
    });
    hash = result.hash;
  } catch (err) {
    return depositFailed(ctx, rec, token, err);
  }
  if (!hash) return depositFailed(ctx, rec, token, new Error('the deposit answer carried no hash'));
  await ctx.store.setDeposit(order.orderId, { state: 'sent', hash, at: ctx.now() });
  ctx.metrics.deposits.inc({ outcome: 'success' });
  await note(ctx, order.orderId, { kind: 'deposit_sent', hash });
  ctx.log.info({ orderId: order.orderId }, 'crypto released');
  return finishOnramp(ctx, rec, hash);
}

/** A marker this worker did not write: never call deposit, follow what the marker says. */
async function resumeDeposit(
  ctx: TrackerContext,
  rec: StoredOrder,
  marker: DepositMarker,
): Promise<PollDecision> {
  if (marker.state === 'sent') return finishOnramp(ctx, rec, marker.hash);
  if (marker.state === 'unknown') return reconcile(ctx, rec);
  if (ctx.now() - marker.at < ctx.cfg.claimStaleMs) return pollAgain(ctx);
  ctx.log.warn({ orderId: rec.order.orderId, worker: marker.worker }, 'deposit intent without outcome');
  return reconcile(ctx, rec);
}

/** `ramp.deposit` threw (or answered without a hash): refused for sure, or outcome unknown. */
async function depositFailed(
  ctx: TrackerContext,
  rec: StoredOrder,
  token: string,
  err: unknown,
): Promise<PollDecision> {
  const { order, state } = rec;
  const id = order.orderId;
  state.lastError = describe(err);
  ctx.metrics.errors.inc({ kind: errorKind(err) });
  const refusal = err instanceof RampValidationError ? err.depositRefusal : undefined;
  if (refusal === 'already_processed') {
    ctx.metrics.deposits.inc({ outcome: 'refused' });
    await ctx.store.setDeposit(id, {
      state: 'unknown',
      token,
      worker: ctx.workerId,
      at: ctx.now(),
      reason: refusal,
    });
    await note(ctx, id, { kind: 'deposit_unknown', reason: refusal });
    return reconcile(ctx, rec);
  }
  if (definitelyNotSent(err)) return depositRefused(ctx, rec, token, err, refusal);
  ctx.metrics.deposits.inc({ outcome: 'unknown' });
  await ctx.store.setDeposit(id, {
    state: 'unknown',
    token,
    worker: ctx.workerId,
    at: ctx.now(),
    reason: state.lastError,
  });
  await note(ctx, id, { kind: 'deposit_unknown', reason: errorKind(err) });
  ctx.log.warn({ orderId: id, err: state.lastError }, 'deposit outcome unknown; reconciling');
  // Give the service a moment to record the transfer before looking for it.
  return pollAgain(ctx);
}

/** Nothing was released: the intent is dropped, then the order fails, retries or goes to support. */
async function depositRefused(
  ctx: TrackerContext,
  rec: StoredOrder,
  token: string,
  err: unknown,
  refusal: DepositRefusal | undefined,
): Promise<PollDecision> {
  const { order, state } = rec;
  const id = order.orderId;
  ctx.metrics.deposits.inc({ outcome: 'refused' });
  await ctx.store.releaseDeposit(id, token);
  await note(ctx, id, { kind: 'deposit_refused', reason: refusal ?? errorKind(err) });
  state.errorStreak += 1;
  ctx.log.warn({ orderId: id, err: state.lastError }, 'deposit refused');
  if (refusal === 'payment_failed') {
    return finalize(ctx, rec, {
      outcome: 'failed',
      message: onrampFailedMessage(order, 'FAILED', undefined),
    });
  }
  const retryable =
    refusal === 'pending' || err instanceof RampUnauthorizedError || err instanceof RampNetworkError;
  if (!retryable || horizonPassed(ctx, order)) return escalate(ctx, rec, 'deposit_refused');
  return { next: backoff(ctx, state.errorStreak) };
}
