/**
 * What the app follows up once everything runs: STK pushes whose process died before recording the
 * outcome (the claim reconciler, src/engine/claims/reconciler.ts), and orders lost when Redis came back
 * empty (recovery from the journal, src/recovery). Both hand what they cannot settle to support.
 */
import { createClaimReconciler } from '../engine/index.js';
import {
  createRecoveryGate,
  type RecoveryReport,
  recoverLostOrders,
  restoreStanding,
} from '../recovery/index.js';
import type { AppParts } from './extensions.js';
import type { Stops } from './stops.js';

/** Escalation through the support desk, which is wired after the parts that escalate. */
const escalateLate =
  (parts: AppParts) =>
  async (c: Parameters<NonNullable<AppParts['escalation']['escalate']>>[0]): Promise<void> => {
    if (!parts.escalation.escalate) throw new Error('the support desk is not wired yet');
    await parts.escalation.escalate(c);
  };

/**
 * Follows up STK pushes whose process died before recording the outcome: found at the ramp ->
 * tracked and the user told; not found -> support.
 */
export function startClaimReconciler(parts: AppParts, stops: Stops): void {
  const reconciler = createClaimReconciler({
    store: parts.store,
    ramp: parts.ramp,
    tracker: parts.tracker,
    conversation: parts.engine,
    logger: parts.logger,
    staleAfterMs: 2 * parts.config.RAMP_TIMEOUT_MS,
    onEscalate: escalateLate(parts),
  });
  reconciler.start();
  stops.push(() => reconciler.stop());
}

/**
 * Redis without our marker was emptied (or is new): orders the journal knows and Redis lost are
 * looked up in the ramp's history and tracked again, or handed to support. A running process
 * notices too (checked every RECOVERY_CHECK_MS); one process at a time runs the pass, and passes are
 * run again at the next checks until one finishes (a history the ramp did not answer is read again).
 * Resolves with the report of the pass run at start (undefined when none ran).
 */
export function startRecovery(
  parts: AppParts,
  journalPath: string | undefined,
  stops: Stops,
): Promise<RecoveryReport | undefined> {
  const { redis, journal, config, logger } = parts;
  if (!redis || !journalPath || !journal) return Promise.resolve(undefined);
  const gate = createRecoveryGate(redis, parts.prefix, { leaseMs: config.RECOVERY_LEASE_MS });
  let retry: NodeJS.Timeout | undefined;
  const recoverIfDue = async (): Promise<RecoveryReport | undefined> => {
    const { turn, retryInMs } = await gate.enter();
    // Another process holds the lease: looked at again as soon as it would have expired, so a
    // holder that died stalls recovery for one short lease, not until the next check.
    if (retryInMs !== undefined) {
      clearTimeout(retry);
      retry = setTimeout(() => void guarded(), retryInMs + 50);
      retry.unref();
    }
    if (!turn) return undefined;
    const lost = new AbortController();
    const renewing = setInterval(
      () =>
        void turn.renew().then(
          (ours) => ours || lost.abort(new Error('the recovery lease was lost; the pass stops')),
          (err: unknown) => lost.abort(err),
        ),
      Math.max(100, Math.floor(config.RECOVERY_LEASE_MS / 3)),
    );
    renewing.unref();
    let finished = false;
    try {
      const report = await recoverLostOrders({
        journal,
        ramp: parts.ramp,
        tracker: parts.tracker,
        logger,
        horizonMs: config.RECOVERY_HORIZON_MS,
        onEscalate: escalateLate(parts),
        project: config.RAMP_PROJECT,
        ...(parts.saleRecovery?.recover ? { sales: parts.saleRecovery.recover } : {}),
        signal: lost.signal,
      });
      if (parts.standing)
        report.standing = await restoreStanding({
          sink: parts.standing,
          notify: (user, message) => parts.engine.notify(user, message),
          logger,
          signal: lost.signal,
        });
      finished =
        report.unreadable === 0 &&
        report.failed === 0 &&
        report.waiting === 0 &&
        (report.standing?.failed ?? 0) === 0;
      if (!finished) logger.warn(report, 'recovery pass left work undone; it runs again at the next check');
      return report;
    } finally {
      clearInterval(renewing);
      await turn.leave(finished);
    }
  };
  // One check at a time in this process: a tick during a long pass waits for it instead.
  let running: Promise<RecoveryReport | undefined> | undefined;
  const guarded = () =>
    (running ??= recoverIfDue()
      .catch((err: unknown) => {
        logger.error({ err: (err as Error).message }, 'recovery after an empty Redis failed');
        return undefined;
      })
      .finally(() => {
        running = undefined;
      }));
  const check = setInterval(() => void guarded(), config.RECOVERY_CHECK_MS);
  check.unref();
  stops.push(async () => {
    clearInterval(check);
    clearTimeout(retry);
  });
  return guarded();
}
