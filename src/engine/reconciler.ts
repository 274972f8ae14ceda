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
import type { Conversation } from '../channels/types.js';
import type { UserRef } from '../chat/types.js';
import { normalizeKenyanPhone } from '../domain/phone.js';
import type { HistoryRecord, Network } from '../domain/types.js';
import type { Logger } from '../log/logger.js';
import type { RampClient } from '../ramp/types.js';
import type { PendingClaim, SessionStore } from '../store/types.js';
import type { Notifier, OrderTracker } from '../tracker/types.js';
import { errSummary, loggableUser } from './loggable.js';
import { type PendingStkClaim, pendingSchema } from './pending-claim.js';

export type { PendingStkClaim } from './pending-claim.js';

/** What support gets for an STK push that may or may not have been sent and is not at the ramp. */
export interface StkEscalation {
  reason: 'stk_unknown';
  user: UserRef;
  idempotencyKey: string;
  phone: string;
  amountKes: number;
  network: Network;
  walletAddress: string;
  token: { symbol: string };
  /** Epoch ms of the claim (when the push may have been sent). */
  claimedAt: number;
  /** Why the order could not be found, e.g. the history could not be read. */
  lastError?: string;
  at: number;
}

export interface ClaimReconcilerDeps {
  store: SessionStore;
  ramp: RampClient;
  tracker?: OrderTracker;
  /** The engine: recovered orders are fed to the user's conversation, other news is notified. */
  conversation: Conversation & Notifier;
  logger: Logger;
  /** A claim with no outcome this long after it was made is looked up (e.g. 2 × RAMP_TIMEOUT_MS). */
  staleAfterMs: number;
  /** Not found this long after the claim: escalate (default staleAfterMs + 5 minutes). */
  giveUpAfterMs?: number;
  /** How often `start` sweeps (default half of staleAfterMs, between 1 s and 30 s). */
  intervalMs?: number;
  /** How long a taken claim is hidden from other sweeps (default max(60 s, 2 × intervalMs)). */
  leaseMs?: number;
  /** Claims taken per sweep (default 20). */
  batch?: number;
  /** Slack for the ramp's clock when comparing its createdAt with the claim time (default 60 s). */
  clockSkewMs?: number;
  onEscalate?: (c: StkEscalation) => Promise<void>;
  now?: () => number;
}

export interface SweepReport {
  taken: number;
  recovered: number;
  escalated: number;
  /** Calls that answered with an error and, the history shows, created nothing. */
  notCreated: number;
  waiting: number;
}

export interface ClaimReconciler {
  /** One pass: takes due claims and follows each up. */
  sweep(): Promise<SweepReport>;
  /** Sweeps every `intervalMs` until stopped. */
  start(): void;
  /** Stops the interval and waits for a running sweep. */
  stop(): Promise<void>;
}

/** Texts the reconciler sends (locales/<lang>/engine.ftl). */
export const RECONCILER_TEXTS = {
  unconfirmed: 'engine-order-unconfirmed',
  notCreated: 'engine-order-not-created',
} as const;

const HISTORY_PAGE_SIZE = 50;
const HISTORY_MAX_PAGES = 4;

/** Creates the reconciler; call `start` once the engine and tracker are ready. */
export function createClaimReconciler(deps: ClaimReconcilerDeps): ClaimReconciler {
  const { store, ramp, conversation } = deps;
  const now = deps.now ?? Date.now;
  const staleAfterMs = deps.staleAfterMs;
  const giveUpAfterMs = deps.giveUpAfterMs ?? staleAfterMs + 5 * 60_000;
  const intervalMs = deps.intervalMs ?? Math.min(30_000, Math.max(1_000, staleAfterMs / 2));
  const leaseMs = deps.leaseMs ?? Math.max(60_000, 2 * intervalMs);
  const batch = deps.batch ?? 20;
  const skewMs = deps.clockSkewMs ?? 60_000;
  const log = deps.logger.child({ component: 'claim-reconciler' });

  /**
   * The earliest on-ramp order at the ramp that this claim can explain, if any. An order another
   * listed claim could explain just as well (a later buy of the same wallet, phone, amount and token
   * whose call may still be answered) is not taken: `contested` names it instead.
   */
  async function findOrder(key: string, claim: PendingStkClaim, claimedAt: number) {
    const earliest = claimedAt - skewMs;
    const matches: Array<{ orderId: string; createdAt: number; record: HistoryRecord }> = [];
    for (let page = 1; page <= HISTORY_MAX_PAGES; page++) {
      const found = await ramp.getHistory('onramp', claim.request.userAddress, {
        page,
        limit: HISTORY_PAGE_SIZE,
      });
      let older = false;
      for (const r of found.records) {
        const createdAt = r.createdAt ? Date.parse(r.createdAt) : Number.NaN;
        if (Number.isFinite(createdAt) && createdAt < earliest) older = true;
        if (fits(r, claim, createdAt, earliest)) matches.push({ orderId: r.orderId!, createdAt, record: r });
      }
      if (older || found.records.length === 0 || page >= found.totalPages) break;
    }
    if (!matches.length) return {};
    matches.sort((a, b) => a.createdAt - b.createdAt);
    // Listed before the holders are read: a rival that records its order meanwhile shows as the holder.
    const rivals = (await store.listPendingClaims()).flatMap((p) => {
      const parsed = p.key === key ? undefined : pendingSchema.safeParse(p.data);
      const sameWallet =
        parsed?.success &&
        parsed.data.request.userAddress.toLowerCase() === claim.request.userAddress.toLowerCase();
      return parsed?.success && sameWallet && Number.isFinite(p.claimedAt)
        ? [{ claim: parsed.data, earliest: p.claimedAt - skewMs }]
        : [];
    });
    let contested: string | undefined;
    for (const m of matches) {
      const holder = await store.keyOfOrder(m.orderId);
      if (holder === key) return { order: m };
      if (holder !== undefined) continue;
      if (rivals.some((rv) => fits(m.record, rv.claim, m.createdAt, rv.earliest))) {
        contested ??= m.orderId;
        continue;
      }
      return { order: m };
    }
    return { contested };
  }

  async function recover(
    c: PendingClaim,
    claim: PendingStkClaim,
    order: { orderId: string; createdAt: number },
  ): Promise<boolean> {
    const { orderId, createdAt } = order;
    const clog = log.child({ user: loggableUser(claim.user), idempotencyKey: c.key, orderId });
    // Tracking first (a no-op for an order already tracked): if this process dies right after, the
    // claim is still listed and the next sweep finds the same order again.
    if (deps.tracker) await deps.tracker.track({ ...claim.track, orderId, createdAt });
    else clog.warn('no tracker configured; the recovered order will not be followed');
    if (!(await store.settleStaleClaim(c.key, { status: 'created', orderId, createdAt }))) {
      clog.info('the claim was settled elsewhere meanwhile');
      return false;
    }
    clog.warn('an STK push with no recorded outcome was found at the ramp; tracking it');
    await conversation.handle(claim.user, { kind: 'onrampCreated', orderId, idempotencyKey: c.key });
    return true;
  }

  async function giveUp(c: PendingClaim, claim: PendingStkClaim, lastError?: string): Promise<boolean> {
    const clog = log.child({ user: loggableUser(claim.user), idempotencyKey: c.key });
    const { request, track } = claim;
    // Support first: if handing over fails, the claim stays listed and is tried again after the lease.
    if (deps.onEscalate) {
      await deps.onEscalate({
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
        at: now(),
      });
    } else {
      clog.error('no support desk configured: this STK push needs a manual check');
    }
    const settled = await store.settleStaleClaim(c.key, {
      status: 'failed',
      error: { kind: 'internal', message: 'no outcome recorded and no matching order at the ramp' },
    });
    if (!settled) return false;
    clog.error(
      { lastError, claimedAt: new Date(c.claimedAt).toISOString() },
      'an STK push with no recorded outcome is not at the ramp; handed to support',
    );
    await conversation.notify(claim.user, {
      texts: [{ id: RECONCILER_TEXTS.unconfirmed, args: { amount: request.amountKes } }],
    });
    return true;
  }

  async function followUp(c: PendingClaim, report: SweepReport): Promise<void> {
    const parsed = pendingSchema.safeParse(c.data);
    if (!parsed.success || !Number.isFinite(c.claimedAt)) {
      // Nothing to tell anyone with: keep the key in flight (never re-sent) and drop the listing.
      await store.settleStaleClaim(c.key, {
        status: 'failed',
        error: { kind: 'internal', message: 'unreadable pending claim' },
      });
      log.error({ idempotencyKey: c.key }, 'a listed STK claim is unreadable; dropped, needs a manual check');
      return;
    }
    const claim = parsed.data;
    let order: { orderId: string; createdAt: number } | undefined;
    let lastError: string | undefined;
    try {
      const found = await findOrder(c.key, claim, c.claimedAt);
      order = found.order;
      if (found.contested) {
        lastError = `order ${found.contested} fits this buy and another unrecorded buy of the same wallet, phone and amount`;
        log.warn(
          { idempotencyKey: c.key, orderId: found.contested },
          'a matching order may belong to another buy',
        );
      }
    } catch (err) {
      lastError = `on-ramp history unreadable: ${errSummary(err).message}`.slice(0, 300);
      log.warn({ idempotencyKey: c.key, err: errSummary(err) }, 'could not read the on-ramp history');
    }
    if (order) {
      if (await recover(c, claim, order)) report.recovered++;
      return;
    }
    if (now() - c.claimedAt < giveUpAfterMs) {
      report.waiting++;
      return;
    }
    if (claim.heardError && lastError === undefined) {
      if (await notCreated(c, claim)) report.notCreated++;
      return;
    }
    if (await giveUp(c, claim, lastError)) report.escalated++;
  }

  /**
   * The call answered with an error, the history was read and lists no such order after the margin:
   * the ramp never created it (no STK push, no money taken). The user is told so plainly; nothing for
   * support to do.
   */
  async function notCreated(c: PendingClaim, claim: PendingStkClaim): Promise<boolean> {
    const settled = await store.settleStaleClaim(c.key, {
      status: 'failed',
      error: { kind: 'internal', message: 'the ramp did not create the order (not in its history)' },
    });
    if (!settled) return false;
    log.warn(
      { user: loggableUser(claim.user), idempotencyKey: c.key, heard: claim.heardError?.kind },
      'an STK push whose call answered with an error is not at the ramp; the user is told it was not made',
    );
    await conversation.notify(claim.user, {
      texts: [{ id: RECONCILER_TEXTS.notCreated, args: { amount: claim.request.amountKes } }],
    });
    return true;
  }

  let running: Promise<SweepReport> | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;

  async function sweepOnce(): Promise<SweepReport> {
    const report: SweepReport = { taken: 0, recovered: 0, escalated: 0, notCreated: 0, waiting: 0 };
    const claims = await store.takeStaleClaims(now() - staleAfterMs, { leaseMs, limit: batch });
    report.taken = claims.length;
    for (const c of claims) {
      try {
        await followUp(c, report);
      } catch (err) {
        log.error(
          { idempotencyKey: c.key, err: errSummary(err) },
          'following up an STK claim failed; retried after the lease',
        );
      }
    }
    return report;
  }

  const sweep = (): Promise<SweepReport> => {
    running ??= sweepOnce().finally(() => {
      running = undefined;
    });
    return running;
  };

  return {
    sweep,
    start() {
      if (timer) return;
      timer = setInterval(() => {
        sweep().catch((err) => log.error({ err: errSummary(err) }, 'claim sweep failed'));
      }, intervalMs);
      timer.unref?.();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
}

function fits(r: HistoryRecord, claim: PendingStkClaim, createdAt: number, earliest: number): boolean {
  const { request } = claim;
  if (!r.orderId || r.side !== 'onramp') return false;
  if (!Number.isFinite(createdAt) || createdAt < earliest) return false;
  if (r.kesAmount === undefined || Math.abs(r.kesAmount - request.amountKes) > 0.005) return false;
  if (r.symbol && r.symbol.toLowerCase() !== claim.track.token.symbol.toLowerCase()) return false;
  return r.phone === undefined || normalizeKenyanPhone(String(r.phone)) === request.phone;
}
