/**
 * Follows up STK pushes whose outcome was never recorded. `createOnrampOrder` claims its idempotency
 * key (listing the claim with the user, the request and the tracking data) before calling the ramp;
 * if the process dies before the outcome is recorded, nobody knows whether the push was sent, and a
 * second attempt must not send it again. This sweep takes such claims once they are older than
 * `staleAfterMs` (leased atomically in the store, so any number of processes may run it) and looks
 * the order up in the ramp's on-ramp history of the wallet:
 *
 * - found (same phone, amount and token, created after the claim, not recorded under another key, and
 *   not just as well explained by another listed claim of the same wallet, whose call may still
 *   answer): tracked, the outcome recorded, and the user's conversation gets the order id as if the
 *   call had answered;
 * - not found `giveUpAfterMs` after the claim: handed to support, recorded as failed, and the user is
 *   told. Until then the claim is looked at again after each lease (the ramp may list it late).
 *
 * The outcome is recorded with `settleStaleClaim`, which exactly one caller wins; only the winner
 * speaks to the user.
 */

import { errSummary } from '../loggable.js';
import { sweepOnce } from './claim-sweep.js';
import type {
  ClaimReconciler,
  ClaimReconcilerDeps,
  ReconcilerContext,
  SweepReport,
} from './reconciler-types.js';

export type { ClaimReconciler, ClaimReconcilerDeps, StkEscalation } from './reconciler-types.js';

/** The deps with their defaults filled in. */
function reconcilerContext(deps: ClaimReconcilerDeps): ReconcilerContext {
  const staleAfterMs = deps.staleAfterMs;
  const intervalMs = deps.intervalMs ?? Math.min(30_000, Math.max(1_000, staleAfterMs / 2));
  return {
    store: deps.store,
    ramp: deps.ramp,
    ...(deps.tracker ? { tracker: deps.tracker } : {}),
    conversation: deps.conversation,
    ...(deps.onEscalate ? { onEscalate: deps.onEscalate } : {}),
    log: deps.logger.child({ component: 'claim-reconciler' }),
    now: deps.now ?? Date.now,
    staleAfterMs,
    giveUpAfterMs: deps.giveUpAfterMs ?? staleAfterMs + 5 * 60_000,
    intervalMs,
    leaseMs: deps.leaseMs ?? Math.max(60_000, 2 * intervalMs),
    batch: deps.batch ?? 20,
    clockSkewMs: deps.clockSkewMs ?? 60_000,
  };
}

/** Creates the reconciler; call `start` once the engine and tracker are ready. */
export function createClaimReconciler(deps: ClaimReconcilerDeps): ClaimReconciler {
  const rc = reconcilerContext(deps);
  let running: Promise<SweepReport> | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;

  // One sweep at a time: a call while one runs gets that one's report.
  const sweep = (): Promise<SweepReport> => {
    running ??= sweepOnce(rc).finally(() => {
      running = undefined;
    });
    return running;
  };

  return {
    sweep,
    start() {
      if (timer) return;
      timer = setInterval(() => {
        sweep().catch((err) => rc.log.error({ err: errSummary(err) }, 'claim sweep failed'));
      }, rc.intervalMs);
      timer.unref?.();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
}
