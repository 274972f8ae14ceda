/**
 * Sends the STK push at most once per idempotency key, across processes and crashes: the key is
 * claimed in the store first; a key already used answers from its recorded outcome; a key claimed
 * by an attempt that never recorded an outcome (running elsewhere, or crashed mid-call) is NOT sent
 * again: the user is told it is being processed, and the claim reconciler (./reconciler.ts) follows
 * it up from the ramp's history.
 */
import { userKey } from '../../chat/types.js';
import { mayHaveReachedService } from '../../flows/failures.js';
import type { Effect, EffectError, Input } from '../../flows/types.js';
import { stkLimits } from '../../limits/index.js';
import type { Logger } from '../../log/logger.js';
import { effectFailed, surelyNotActedOn, toEffectError } from '../errors.js';
import { errSummary, loggableUser } from '../loggable.js';
import { type EffectContext, ENGINE_TEXTS, textMessage } from '../types.js';
import type { PendingStkClaim } from './pending-claim.js';

type CreateOrder = Extract<Effect, { type: 'createOnrampOrder' }>;

/** The `createOnrampOrder` effect: claim the key, check the limits, ask the ramp, record the outcome. */
export async function createOnrampOrder(e: CreateOrder, ctx: EffectContext): Promise<Input | undefined> {
  const key = e.idempotencyKey;
  const log = ctx.logger.child({ user: loggableUser(ctx.user), idempotencyKey: key });
  // Listed with what a reconciler needs if this process dies before the outcome is recorded.
  const pending: PendingStkClaim = { user: ctx.user, request: e.request, track: e.track };
  const claim = await ctx.store.claimIdempotencyKey(key, pending);
  switch (claim.status) {
    case 'created':
      log.info({ orderId: claim.orderId }, 'order already created under this key; not sent again');
      return { kind: 'onrampCreated', orderId: claim.orderId, idempotencyKey: key };
    case 'failed':
      return effectFailed(e.type, claim.error);
    case 'in_flight':
      log.error(
        { since: new Date(claim.since).toISOString() },
        'an earlier attempt with this key has no recorded outcome; not sending again, the reconciler follows it up',
      );
      await ctx.send(textMessage(ENGINE_TEXTS.orderInFlight));
      return undefined;
    case 'claimed':
      break;
  }
  const refused = await refusedByLimits(e, ctx, log);
  if (refused) return refused;
  // Written before the ramp is asked: if Redis comes back empty, the wallet is known to look up.
  await ctx.journal?.intent(e.track);
  let orderId: string;
  try {
    orderId = (await ctx.ramp.createOnrampOrder(e.request)).orderId;
  } catch (err) {
    return orderNotCreated(e, pending, err, ctx, log);
  }
  await orderCreated(e, orderId, ctx, log);
  return { kind: 'onrampCreated', orderId, idempotencyKey: key };
}

/** A push to a third-party number over a rate limit: the key is released and the flow told to wait. */
async function refusedByLimits(e: CreateOrder, ctx: EffectContext, log: Logger): Promise<Input | undefined> {
  if (!e.thirdParty || !ctx.limits) return undefined;
  const { limiter, stk } = ctx.limits;
  const verdict = await limiter.take(stkLimits(stk, userKey(ctx.user), e.request.phone), ctx.now());
  if (verdict.ok) return undefined;
  // Nothing was sent and nothing counted: the key is free for a later try.
  await ctx.store.releaseIdempotencyKey(e.idempotencyKey);
  log.warn({ limit: verdict.key.split(':')[0] }, 'STK push to a third-party number refused by a rate limit');
  return effectFailed(e.type, {
    kind: 'rate_limited',
    message: 'too many M-Pesa prompts',
    retryInMs: Math.max(0, verdict.retryAt - ctx.now()),
  });
}

/**
 * The ramp answered with an error. Surely not acted on: the key is released. Possibly acted on:
 * kept for the reconciler. Otherwise the failure is recorded under the key.
 */
async function orderNotCreated(
  e: CreateOrder,
  pending: PendingStkClaim,
  err: unknown,
  ctx: EffectContext,
  log: Logger,
): Promise<Input> {
  const key = e.idempotencyKey;
  const error = toEffectError(err);
  try {
    if (surelyNotActedOn(err)) await ctx.store.releaseIdempotencyKey(key);
    else if (!mayHaveReachedService(error) || !(await keepForReconciler(key, pending, error, ctx)))
      await ctx.store.recordIdempotencyOutcome(key, { status: 'failed', error });
  } catch (storeErr) {
    log.error({ err: errSummary(storeErr) }, 'could not record the failed order attempt');
  }
  log.warn({ err: errSummary(err) }, 'creating the on-ramp order failed');
  return effectFailed(e.type, error);
}

/**
 * The order exists: the tracker follows it, then its outcome is recorded under the key. In that
 * order: when tracking cannot start (Redis blinked), the claim stays in flight and listed, and the
 * claim reconciler finds the order in the ramp's history and tracks it, so it is never left unfollowed.
 */
async function orderCreated(e: CreateOrder, orderId: string, ctx: EffectContext, log: Logger): Promise<void> {
  const createdAt = ctx.now();
  log.info({ orderId }, 'on-ramp order created');
  if (ctx.tracker) {
    try {
      await ctx.tracker.track({ ...e.track, orderId, createdAt });
    } catch (err) {
      log.error(
        { orderId, err: errSummary(err) },
        'could not start tracking the order; the claim reconciler will',
      );
      return;
    }
  } else log.warn({ orderId }, 'no tracker configured; the order will not be followed');
  try {
    await ctx.store.recordIdempotencyOutcome(e.idempotencyKey, { status: 'created', orderId, createdAt });
  } catch (err) {
    log.error(
      { orderId, err: errSummary(err) },
      'could not record the created order (the key stays in flight)',
    );
  }
}

/**
 * An answer that may hide a created order (5xx, timeout, unreadable body): the claim stays in flight
 * and listed, noted with what was heard, so the claim reconciler looks the order up in the ramp's
 * history like that of a process that died mid-call. False when the claim is no longer listed.
 */
async function keepForReconciler(
  key: string,
  pending: PendingStkClaim,
  error: EffectError,
  ctx: EffectContext,
): Promise<boolean> {
  const heardError = { kind: error.kind, message: (error.message ?? '').slice(0, 200), at: ctx.now() };
  return ctx.store.updatePendingClaim(key, { ...pending, heardError } satisfies PendingStkClaim);
}
