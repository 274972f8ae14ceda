/** One sweep of the claim reconciler: take the due claims (leased) and follow each up. */
import type { PendingClaim } from '../../store/types.js';
import { errSummary } from '../loggable.js';
import { findOrder } from './claim-lookup.js';
import { giveUp, notCreated, recover } from './claim-outcomes.js';
import { type PendingStkClaim, pendingSchema } from './pending-claim.js';
import type { ReconcilerContext, SweepReport } from './reconciler-types.js';

/** Takes the claims older than `staleAfterMs` and follows each up; one failing is retried after the lease. */
export async function sweepOnce(rc: ReconcilerContext): Promise<SweepReport> {
  const report: SweepReport = { taken: 0, recovered: 0, escalated: 0, notCreated: 0, waiting: 0 };
  const claims = await rc.store.takeStaleClaims(rc.now() - rc.staleAfterMs, {
    leaseMs: rc.leaseMs,
    limit: rc.batch,
  });
  report.taken = claims.length;
  for (const c of claims) {
    try {
      await followUp(rc, c, report);
    } catch (err) {
      rc.log.error(
        { idempotencyKey: c.key, err: errSummary(err) },
        'following up an STK claim failed; retried after the lease',
      );
    }
  }
  return report;
}

/** Found: recovered. Not found yet: waits. Not found in time: not created, or handed to support. */
async function followUp(rc: ReconcilerContext, c: PendingClaim, report: SweepReport): Promise<void> {
  const parsed = pendingSchema.safeParse(c.data);
  if (!parsed.success || !Number.isFinite(c.claimedAt)) {
    // Nothing to tell anyone with: keep the key in flight (never re-sent) and drop the listing.
    await rc.store.settleStaleClaim(c.key, {
      status: 'failed',
      error: { kind: 'internal', message: 'unreadable pending claim' },
    });
    rc.log.error(
      { idempotencyKey: c.key },
      'a listed STK claim is unreadable; dropped, needs a manual check',
    );
    return;
  }
  const claim = parsed.data;
  const { order, lastError } = await lookUp(rc, c, claim);
  if (order) {
    if (await recover(rc, c, claim, order)) report.recovered++;
    return;
  }
  if (rc.now() - c.claimedAt < rc.giveUpAfterMs) {
    report.waiting++;
    return;
  }
  if (claim.heardError && lastError === undefined) {
    if (await notCreated(rc, c, claim)) report.notCreated++;
    return;
  }
  if (await giveUp(rc, c, claim, lastError)) report.escalated++;
}

/** The claim's order at the ramp, or why it could not be told (history unreadable, order contested). */
async function lookUp(
  rc: ReconcilerContext,
  c: PendingClaim,
  claim: PendingStkClaim,
): Promise<{ order?: { orderId: string; createdAt: number }; lastError?: string }> {
  try {
    const found = await findOrder(rc, c.key, claim, c.claimedAt);
    if (!found.contested) return { order: found.order };
    rc.log.warn(
      { idempotencyKey: c.key, orderId: found.contested },
      'a matching order may belong to another buy',
    );
    return {
      order: found.order,
      lastError: `order ${found.contested} fits this buy and another unrecorded buy of the same wallet, phone and amount`,
    };
  } catch (err) {
    rc.log.warn({ idempotencyKey: c.key, err: errSummary(err) }, 'could not read the on-ramp history');
    return { lastError: `on-ramp history unreadable: ${errSummary(err).message}`.slice(0, 300) };
  }
}
