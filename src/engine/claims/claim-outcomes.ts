/**
 * The three ends of a followed-up claim. Each records the outcome with `settleStaleClaim`, which
 * exactly one caller wins; only the winner speaks to the user. False when another caller won.
 */
import type { PendingClaim } from '../../store/types.js';
import { loggableUser } from '../loggable.js';
import type { PendingStkClaim } from './pending-claim.js';
import { RECONCILER_TEXTS, type ReconcilerContext } from './reconciler-types.js';

/** Found at the ramp: tracked, recorded, and fed to the user's conversation as if the call had answered. */
export async function recover(
  rc: ReconcilerContext,
  c: PendingClaim,
  claim: PendingStkClaim,
  order: { orderId: string; createdAt: number },
): Promise<boolean> {
  const { orderId, createdAt } = order;
  const clog = rc.log.child({ user: loggableUser(claim.user), idempotencyKey: c.key, orderId });
  // Tracking first (a no-op for an order already tracked): if this process dies right after, the
  // claim is still listed and the next sweep finds the same order again.
  if (rc.tracker) await rc.tracker.track({ ...claim.track, orderId, createdAt });
  else clog.warn('no tracker configured; the recovered order will not be followed');
  if (!(await rc.store.settleStaleClaim(c.key, { status: 'created', orderId, createdAt }))) {
    clog.info('the claim was settled elsewhere meanwhile');
    return false;
  }
  clog.warn('an STK push with no recorded outcome was found at the ramp; tracking it');
  await rc.conversation.handle(claim.user, { kind: 'onrampCreated', orderId, idempotencyKey: c.key });
  return true;
}

/** Not found in time: handed to support, recorded as failed, and the user is told it is unconfirmed. */
export async function giveUp(
  rc: ReconcilerContext,
  c: PendingClaim,
  claim: PendingStkClaim,
  lastError?: string,
): Promise<boolean> {
  const clog = rc.log.child({ user: loggableUser(claim.user), idempotencyKey: c.key });
  const { request, track } = claim;
  // Support first: if handing over fails, the claim stays listed and is tried again after the lease.
  if (rc.onEscalate) {
    await rc.onEscalate({
      reason: 'stk_unknown',
      user: claim.user,
      idempotencyKey: c.key,
      phone: request.phone,
      amountKes: request.amountKes,
      network: track.network,
      walletAddress: request.userAddress,
      token: { symbol: track.token.symbol },
      claimedAt: c.claimedAt,
      ...(lastError ? { lastError } : {}),
      at: rc.now(),
    });
  } else {
    clog.error('no support desk configured: this STK push needs a manual check');
  }
  const settled = await rc.store.settleStaleClaim(c.key, {
    status: 'failed',
    error: { kind: 'internal', message: 'no outcome recorded and no matching order at the ramp' },
  });
  if (!settled) return false;
  clog.error(
    { lastError, claimedAt: new Date(c.claimedAt).toISOString() },
    'an STK push with no recorded outcome is not at the ramp; handed to support',
  );
  await rc.conversation.notify(claim.user, {
    texts: [{ id: RECONCILER_TEXTS.unconfirmed, args: { amount: request.amountKes } }],
  });
  return true;
}

/**
 * The call answered with an error, the history was read and lists no such order after the margin:
 * the ramp never created it (no STK push, no money taken). The user is told so plainly; nothing for
 * support to do.
 */
export async function notCreated(
  rc: ReconcilerContext,
  c: PendingClaim,
  claim: PendingStkClaim,
): Promise<boolean> {
  const settled = await rc.store.settleStaleClaim(c.key, {
    status: 'failed',
    error: { kind: 'internal', message: 'the ramp did not create the order (not in its history)' },
  });
  if (!settled) return false;
  rc.log.warn(
    { user: loggableUser(claim.user), idempotencyKey: c.key, heard: claim.heardError?.kind },
    'an STK push whose call answered with an error is not at the ramp; the user is told it was not made',
  );
  await rc.conversation.notify(claim.user, {
    texts: [{ id: RECONCILER_TEXTS.notCreated, args: { amount: claim.request.amountKes } }],
  });
  return true;
}
