/**
 * The order tracker: follows every order to a final chat message or a support escalation, and
 * releases the crypto of a paid on-ramp order at most once.
 *
 * At-most-once deposit: before `ramp.deposit` a worker writes `deposit:<id>` = intent (SET NX), after
 * it the hash (`sent`). Whoever finds a marker it did not write never calls deposit: `sent` -> finish;
 * `intent` younger than `claimStaleMs` -> wait (its writer may still be mid-call); older, or `unknown`
 * (timeout, 5xx, connection lost after sending, "already processed") -> reconcile against the wallet's
 * deposit history, and escalate to support when the hash cannot be found. The marker is only removed
 * when the service definitely refused the call (then nothing was released and a retry is safe).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Registry } from 'prom-client';
import type { OutMessage, UserRef } from '../chat/types.js';
import type { Direction, OfframpOrderState, OnrampOrderState } from '../domain/types.js';
import type { OrderOutcome, OwnOrder, OwnOrdersPage, TrackedOrder } from '../flows/types.js';
import type { Logger } from '../log/logger.js';
import {
  isRampError,
  RampNetworkError,
  RampNotFoundError,
  RampUnauthorizedError,
  RampValidationError,
} from '../ramp/errors.js';
import type { RampClient } from '../ramp/types.js';
import {
  escalatedMessage,
  failureReasonText,
  offrampDoneMessage,
  offrampFailedMessage,
  offrampPendingMessage,
  onrampDoneMessage,
  onrampFailedMessage,
  onrampPaidMessage,
  onrampPendingMessage,
} from './messages.js';
import { createTrackerMetrics, type TrackerMetrics } from './metrics.js';
import { createBullScheduler, createLocalScheduler, type PollDecision, type Scheduler } from './scheduler.js';
import {
  type DepositMarker,
  type FinalOutcome,
  initialTrackingState,
  type TrackingState,
  trackedOrderSchema,
} from './state.js';
import {
  createMemoryTrackerStore,
  createRedisTrackerStore,
  type StoredOrder,
  StoredStateError,
  type TrackerStore,
} from './store.js';
import { createSweepScheduler } from './sweep-scheduler.js';
import type { OrderEvent } from './timeline.js';
import type { EscalationCase, EscalationReason, Notifier, OrderTracker, TrackerHealth } from './types.js';

export interface TrackerConfig {
  /** Time between two status polls of one order (jittered ±20 %). */
  pollIntervalMs: number;
  /** A still-pending on-ramp (STK push) order is escalated to support after this. */
  onrampHorizonMs: number;
  /** A still-pending off-ramp (payout) order is escalated to support after this. */
  offrampHorizonMs: number;
  /** Orders polled at once per process. */
  concurrency: number;
  /** Our project id, sent with deposits. */
  project: string;
  /** Cap of the exponential backoff after errors. Default 60 s. */
  maxBackoffMs?: number;
  /**
   * How long a deposit intent or a final-message claim is presumed to belong to a live worker.
   * Must exceed the ramp timeout. Default 120 s.
   */
  claimStaleMs?: number;
  /** History lookups before an unknown deposit goes to support. Default 3. */
  reconcileAttempts?: number;
  /** How long a finished order's keys are kept. Default 30 days. */
  retentionMs?: number;
  /** BullMQ lock of a job being polled; a dead worker's poll is retried after it. Default 30 s. */
  lockDurationMs?: number;
  /** How often BullMQ looks for polls whose worker died. Default 30 s. */
  stalledIntervalMs?: number;
  /**
   * With Redis: `bullmq` (one job per pending order) or `sweep` (one sorted set swept by every
   * process; a tenth of the memory per order). Default `bullmq`.
   */
  scheduler?: 'bullmq' | 'sweep';
}

export interface TrackerDeps {
  ramp: RampClient;
  notifier: Notifier;
  logger: Logger;
  config: TrackerConfig;
  /** With it: BullMQ and Redis state (durable, many processes). Without: in-process (local mode). */
  redisUrl?: string;
  /** Key prefix of every tracker key. Default `rampchat:`. */
  prefix?: string;
  /** Hands an order support must look at to the support desk. Failing calls are retried. */
  onEscalate?: (c: EscalationCase) => Promise<void>;
  now?: () => number;
  /** Names this process in deposit intents. */
  workerId?: string;
  /** Told about every poll (benchmarks and tracing); must not throw. */
  onPoll?: (sample: PollSample) => void;
}

/** One poll as seen by `onPoll`. */
export interface PollSample {
  orderId: string;
  side: Direction;
  /** How late the poll started behind its due time. */
  lagMs: number;
  /** How long the whole poll took (status call, store, messages). */
  durationMs: number;
  /** The decision: `next` (poll again) or `done`. */
  decision: 'next' | 'done';
}

/** The tracker with its metrics and health. */
export interface Tracker extends OrderTracker {
  readonly registry: Registry;
  readonly metrics: TrackerMetrics;
  readonly mode: 'redis' | 'local';
  /** Runs one poll of an order now, as a worker would, without scheduling the next one. */
  pollOnce(orderId: string): Promise<PollDecision>;
  /** What happened to an order so far, oldest first (empty once the order's retention ran out). */
  timeline(orderId: string): Promise<OrderEvent[]>;
  /** A chat user's own orders, newest first, with what became of each (pages from 1). */
  ordersOf(user: UserRef, page: number, limit: number): Promise<OwnOrdersPage>;
  /** Who made an order through rampchat (undefined when unknown here, e.g. made elsewhere or expired). */
  ownerOf(orderId: string): Promise<UserRef | undefined>;
  health(): Promise<TrackerHealth>;
}

const DONE: PollDecision = { done: true };

const OUTCOMES: Record<string, OrderOutcome> = {
  success: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
  escalated: 'support',
};

/** Another worker saved the order since this one read it: this worker's view is stale and it stops. */
class StaleStateError extends Error {
  override name = 'StaleStateError';
}

const describe = (err: unknown): string =>
  isRampError(err)
    ? `${err.kind}: ${err.serviceMessage ?? err.message}`
    : err instanceof Error
      ? err.message
      : String(err);

const errorKind = (err: unknown): string =>
  isRampError(err) ? err.kind : err instanceof StoredStateError ? 'stored_state' : 'internal';

/** The call was answered with a refusal or never left: nothing was released, a retry is safe. */
const definitelyNotSent = (err: unknown): boolean =>
  err instanceof RampValidationError ||
  err instanceof RampUnauthorizedError ||
  err instanceof RampNotFoundError ||
  (err instanceof RampNetworkError && !err.delivered);

/** Creates the tracker. Nothing connects until the first `track` or `start`. */
export function createTracker(deps: TrackerDeps): Tracker {
  const cfg = {
    maxBackoffMs: 60_000,
    claimStaleMs: 120_000,
    reconcileAttempts: 3,
    retentionMs: 30 * 24 * 3600_000,
    ...deps.config,
  };
  const now = deps.now ?? Date.now;
  const prefix = deps.prefix ?? 'rampchat:';
  const workerId = deps.workerId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const log = deps.logger.child({ component: 'tracker' });
  const store: TrackerStore = deps.redisUrl
    ? createRedisTrackerStore({ url: deps.redisUrl, prefix, logger: deps.logger })
    : createMemoryTrackerStore();
  const scheduler: Scheduler = !deps.redisUrl
    ? createLocalScheduler({ concurrency: cfg.concurrency, logger: log })
    : cfg.scheduler === 'sweep'
      ? createSweepScheduler({
          url: deps.redisUrl,
          key: `${prefix}due`,
          concurrency: cfg.concurrency,
          leaseMs: cfg.lockDurationMs,
          logger: log,
        })
      : createBullScheduler({
          url: deps.redisUrl,
          prefix: `${prefix}bull`,
          concurrency: cfg.concurrency,
          lockDurationMs: cfg.lockDurationMs,
          stalledIntervalMs: cfg.stalledIntervalMs,
          logger: log,
        });
  const metrics = createTrackerMetrics(() => store.countTracking());
  /** Polls whose state is already saved for their next turn (or must not be saved by them). */
  const saved = new WeakSet<StoredOrder>();

  const jitter = (ms: number) => Math.round(ms * (0.8 + 0.4 * Math.random()));
  const backoff = (streak: number) =>
    jitter(Math.min(cfg.pollIntervalMs * 2 ** Math.max(0, streak), cfg.maxBackoffMs));
  const next = (): PollDecision => ({ next: jitter(cfg.pollIntervalMs) });
  const horizonPassed = (o: TrackedOrder) =>
    now() > o.createdAt + (o.side === 'onramp' ? cfg.onrampHorizonMs : cfg.offrampHorizonMs);

  async function timedStatus<T extends { status: string }>(side: Direction, call: () => Promise<T>) {
    const end = metrics.pollDuration.startTimer({ side });
    try {
      const s = await call();
      end({ result: s.status });
      return s;
    } catch (err) {
      end({ result: 'error' });
      throw err;
    }
  }

  /** Saves the state over the revision it was read at; throws StaleStateError when it is not current. */
  async function save(rec: StoredOrder): Promise<void> {
    const rev = await store.saveState(rec.order.orderId, rec.state, rec.rev);
    if (rev === undefined)
      throw new StaleStateError(`order ${rec.order.orderId} was saved by another worker`);
    rec.rev = rev;
  }

  /** Posts a non-final state change once (compared with the last posted state in the store). */
  async function post(rec: StoredOrder, key: string, message: OutMessage): Promise<void> {
    if (rec.posted === key) return;
    try {
      await deps.notifier.notify(rec.order.user, message);
      await store.setPosted(rec.order.orderId, key);
      rec.posted = key;
    } catch (err) {
      metrics.errors.inc({ kind: 'notify' });
      log.warn({ err, orderId: rec.order.orderId, key }, 'could not post an order update; will retry');
    }
  }

  /** Adds to the order's timeline. Support's view only: a failure is logged, never fatal. */
  async function note(orderId: string, event: Omit<OrderEvent, 'at'>): Promise<void> {
    try {
      await store.appendEvent(orderId, { ...event, at: now() });
    } catch (err) {
      metrics.errors.inc({ kind: 'timeline' });
      log.warn({ orderId, kind: event.kind, err: describe(err) }, 'could not record an order event');
    }
  }

  /** Takes in a status the ramp reported: on the timeline when it changed, then in the state. */
  async function observe(
    rec: StoredOrder,
    s: { status: 'PENDING' | 'SUCCESS' | 'FAILED' | 'CANCELLED'; receipt?: string },
    description?: string,
  ): Promise<void> {
    const { state } = rec;
    if (state.status !== s.status) {
      const failed = s.status === 'FAILED' || s.status === 'CANCELLED';
      await note(rec.order.orderId, {
        kind: 'status',
        status: s.status,
        ...(s.receipt ? { receipt: s.receipt } : {}),
        ...(failed
          ? {
              reason: failureReasonText(
                description ?? (s.status === 'CANCELLED' ? 'cancelled' : undefined),
                rec.order.side,
              ).id.replace(/^tracker-(payout-)?reason-/, ''),
            }
          : {}),
      });
    }
    state.polls += 1;
    state.status = s.status;
    state.errorStreak = 0;
    state.lastError = undefined;
  }

  /** Still pending: to support once past the horizon, else tell the user (once) and poll again. */
  async function stillPending(rec: StoredOrder, message: OutMessage): Promise<PollDecision> {
    if (horizonPassed(rec.order)) return escalate(rec, 'horizon');
    const delay = jitter(cfg.pollIntervalMs);
    rec.state.nextDueAt = now() + delay;
    await save(rec);
    saved.add(rec);
    await post(rec, 'PENDING', message);
    return { next: delay };
  }

  async function raise(c: EscalationCase): Promise<void> {
    if (deps.onEscalate) {
      await deps.onEscalate(c);
      return;
    }
    log.error(
      { orderId: c.order.orderId, side: c.order.side, reason: c.reason, lastStatus: c.lastStatus },
      'order escalated to support (no support handler is plugged in: handle it by hand)',
    );
  }

  /** Posts the decided outcome once (guarded by the `final` claim), then finishes the order. */
  async function deliverFinal(rec: StoredOrder): Promise<PollDecision> {
    const { order, state } = rec;
    const final = state.final!;
    const token = randomUUID();
    const claim = await store.claimFinal(order.orderId, token, now(), cfg.claimStaleMs);
    if (claim === 'done') return DONE;
    if (claim === 'busy') {
      // Its holder may save the state; a save from here could only get in its way.
      saved.add(rec);
      return next();
    }
    try {
      // The user hears why first; then support is alerted (its own note to the user follows).
      if (!final.notifiedAt) {
        await deps.notifier.notify(order.user, final.message);
        if (final.escalation) {
          final.notifiedAt = now();
          await save(rec);
        }
      }
      if (final.escalation && !final.raisedAt) {
        await raise(final.escalation);
        final.raisedAt = now();
        await save(rec);
      }
    } catch (err) {
      await store.releaseFinal(order.orderId, token).catch(() => {});
      metrics.errors.inc({ kind: final.escalation && !final.raisedAt ? 'escalate' : 'notify' });
      throw err;
    }
    await note(order.orderId, { kind: 'final', outcome: final.outcome });
    await store.completeFinal(order.orderId, cfg.retentionMs);
    // The chat's flow learns the order is over (not awaited: the chat may be busy with the user).
    void deps.notifier.orderFinal?.(order.user, order.orderId).catch((err: unknown) => {
      log.warn(
        { orderId: order.orderId, err: (err as Error).message },
        'could not tell the chat the order is over',
      );
    });
    metrics.orders.inc({ side: order.side, state: final.outcome });
    log.info({ orderId: order.orderId, outcome: final.outcome }, 'order finished');
    return DONE;
  }

  async function finalize(rec: StoredOrder, outcome: FinalOutcome): Promise<PollDecision> {
    rec.state.final = outcome;
    rec.state.stage = 'final';
    await save(rec);
    return deliverFinal(rec);
  }

  async function escalate(rec: StoredOrder, reason: EscalationReason): Promise<PollDecision> {
    const { order, state } = rec;
    const deposit =
      order.side === 'onramp'
        ? await store.getDeposit(order.orderId).catch((err: unknown) => ({ error: describe(err) }))
        : undefined;
    const c: EscalationCase = {
      reason,
      order,
      lastStatus: state.status,
      lastError: state.lastError,
      receipt: state.receipt,
      polls: state.polls,
      at: now(),
      deposit: deposit as Record<string, unknown> | undefined,
    };
    log.warn({ orderId: order.orderId, reason }, 'escalating order to support');
    await note(order.orderId, { kind: 'escalated', reason });
    return finalize(rec, { outcome: 'escalated', message: escalatedMessage(order, reason), escalation: c });
  }

  const finishOnramp = (rec: StoredOrder, hash: string) =>
    finalize(rec, { outcome: 'success', message: onrampDoneMessage(rec.order, rec.state.receipt, hash) });

  async function findDepositHash(order: TrackedOrder): Promise<string | undefined> {
    for (let page = 1; page <= 3; page++) {
      let history: Awaited<ReturnType<RampClient['getHistory']>>;
      try {
        history = await deps.ramp.getHistory('onramp', order.walletAddress, { page, limit: 50 });
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

  /** The deposit's outcome is unknown: look for its hash in the wallet's history, never call again. */
  async function reconcile(rec: StoredOrder): Promise<PollDecision> {
    const { order, state } = rec;
    let hash: string | undefined;
    try {
      hash = await findDepositHash(order);
    } catch (err) {
      state.lastError = describe(err);
      metrics.errors.inc({ kind: errorKind(err) });
      log.warn({ orderId: order.orderId, err: state.lastError }, 'deposit history lookup failed');
    }
    if (hash) {
      await store.setDeposit(order.orderId, { state: 'sent', hash, at: now(), reconciled: true });
      metrics.deposits.inc({ outcome: 'reconciled' });
      await note(order.orderId, { kind: 'reconciled', hash });
      log.info({ orderId: order.orderId }, 'deposit found in history');
      return finishOnramp(rec, hash);
    }
    state.reconcileAttempts += 1;
    if (state.reconcileAttempts >= cfg.reconcileAttempts) {
      metrics.deposits.inc({ outcome: 'escalated' });
      return escalate(rec, 'deposit_unknown');
    }
    return { next: jitter(cfg.pollIntervalMs * 2 ** state.reconcileAttempts) };
  }

  async function resumeDeposit(rec: StoredOrder, marker: DepositMarker): Promise<PollDecision> {
    if (marker.state === 'sent') return finishOnramp(rec, marker.hash);
    if (marker.state === 'unknown') return reconcile(rec);
    if (now() - marker.at < cfg.claimStaleMs) return next();
    log.warn({ orderId: rec.order.orderId, worker: marker.worker }, 'deposit intent without outcome');
    return reconcile(rec);
  }

  async function depositFailed(rec: StoredOrder, token: string, err: unknown): Promise<PollDecision> {
    const { order, state } = rec;
    const id = order.orderId;
    state.lastError = describe(err);
    metrics.errors.inc({ kind: errorKind(err) });
    const refusal = err instanceof RampValidationError ? err.depositRefusal : undefined;
    if (refusal === 'already_processed') {
      metrics.deposits.inc({ outcome: 'refused' });
      await store.setDeposit(id, { state: 'unknown', token, worker: workerId, at: now(), reason: refusal });
      await note(id, { kind: 'deposit_unknown', reason: refusal });
      return reconcile(rec);
    }
    if (definitelyNotSent(err)) {
      metrics.deposits.inc({ outcome: 'refused' });
      await store.releaseDeposit(id, token);
      await note(id, { kind: 'deposit_refused', reason: refusal ?? errorKind(err) });
      state.errorStreak += 1;
      log.warn({ orderId: id, err: state.lastError }, 'deposit refused');
      if (refusal === 'payment_failed') {
        return finalize(rec, {
          outcome: 'failed',
          message: onrampFailedMessage(order, 'FAILED', undefined),
        });
      }
      const retryable =
        refusal === 'pending' || err instanceof RampUnauthorizedError || err instanceof RampNetworkError;
      if (!retryable || horizonPassed(order)) return escalate(rec, 'deposit_refused');
      return { next: backoff(state.errorStreak) };
    }
    metrics.deposits.inc({ outcome: 'unknown' });
    await store.setDeposit(id, {
      state: 'unknown',
      token,
      worker: workerId,
      at: now(),
      reason: state.lastError,
    });
    await note(id, { kind: 'deposit_unknown', reason: errorKind(err) });
    log.warn({ orderId: id, err: state.lastError }, 'deposit outcome unknown; reconciling');
    // Give the service a moment to record the transfer before looking for it.
    return next();
  }

  async function release(rec: StoredOrder): Promise<PollDecision> {
    const { order } = rec;
    const token = randomUUID();
    const existing = await store.claimDeposit(order.orderId, {
      state: 'intent',
      token,
      worker: workerId,
      at: now(),
    });
    if (existing) return resumeDeposit(rec, existing);
    await note(order.orderId, { kind: 'deposit_intent' });
    let hash: string;
    try {
      const result = await deps.ramp.deposit({
        chain: order.network,
        address: order.walletAddress,
        orderId: order.orderId,
        project: cfg.project,
      });
      hash = result.hash;
    } catch (err) {
      return depositFailed(rec, token, err);
    }
    if (!hash) return depositFailed(rec, token, new Error('the deposit answer carried no hash'));
    await store.setDeposit(order.orderId, { state: 'sent', hash, at: now() });
    metrics.deposits.inc({ outcome: 'success' });
    await note(order.orderId, { kind: 'deposit_sent', hash });
    log.info({ orderId: order.orderId }, 'crypto released');
    return finishOnramp(rec, hash);
  }

  async function stepOnramp(rec: StoredOrder): Promise<PollDecision> {
    const { order, state } = rec;
    if (state.stage === 'releasing') return release(rec);
    const s: OnrampOrderState = await timedStatus('onramp', () => deps.ramp.getOnrampStatus(order.orderId));
    await observe(rec, s, s.resultDescription ?? s.message);
    if (s.status === 'PENDING') return stillPending(rec, onrampPendingMessage(order));
    if (s.status === 'SUCCESS') {
      state.receipt = s.receipt;
      state.stage = 'releasing';
      await save(rec);
      await post(rec, 'SUCCESS', onrampPaidMessage(order, s.receipt));
      return release(rec);
    }
    return finalize(rec, {
      outcome: s.status === 'CANCELLED' ? 'cancelled' : 'failed',
      message: onrampFailedMessage(order, s.status, s.resultDescription ?? s.message),
    });
  }

  async function stepOfframp(rec: StoredOrder): Promise<PollDecision> {
    const { order } = rec;
    const s: OfframpOrderState = await timedStatus('offramp', () =>
      deps.ramp.getOfframpStatus(order.orderId),
    );
    await observe(rec, s, s.failureReason ?? s.message);
    if (s.status === 'PENDING') return stillPending(rec, offrampPendingMessage(order));
    if (s.status === 'SUCCESS') {
      return finalize(rec, { outcome: 'success', message: offrampDoneMessage(order, s) });
    }
    return finalize(rec, {
      outcome: s.status === 'CANCELLED' ? 'cancelled' : 'failed',
      message: offrampFailedMessage(order, s),
    });
  }

  /** One poll of one order: what the scheduler runs when the order is due. Never throws. */
  async function runOrder(orderId: string): Promise<PollDecision> {
    const startedAt = now();
    let rec: StoredOrder | undefined;
    try {
      rec = await store.load(orderId);
    } catch (err) {
      metrics.errors.inc({ kind: errorKind(err) });
      if (err instanceof StoredStateError) {
        log.error({ err, orderId }, 'stored order is unreadable; tracking stops, check it by hand');
        return DONE;
      }
      log.warn({ err, orderId }, 'could not read the order; retrying');
      return { next: backoff(3) };
    }
    if (!rec) {
      log.warn({ orderId }, 'no stored order for a scheduled poll');
      return DONE;
    }
    if (rec.final === 'done') return DONE;
    const { state, order } = rec;
    const lagMs = state.nextDueAt ? Math.max(0, startedAt - state.nextDueAt) : 0;
    if (state.nextDueAt) metrics.queueLag.observe(lagMs / 1000);

    let decision: PollDecision;
    try {
      if (state.final) decision = await deliverFinal(rec);
      else if (order.side === 'onramp') decision = await stepOnramp(rec);
      else decision = await stepOfframp(rec);
    } catch (err) {
      if (err instanceof StaleStateError) {
        // Whoever saved is ahead of this view: drop it and read the order afresh at the next poll.
        log.debug({ orderId, rev: rec.rev }, 'stale tracking state not saved');
        return next();
      }
      state.errorStreak += 1;
      state.lastError = describe(err);
      metrics.errors.inc({ kind: errorKind(err) });
      log.warn({ orderId, err: state.lastError, streak: state.errorStreak }, 'order poll failed');
      decision = { next: backoff(state.errorStreak) };
      if (!state.final) {
        const mustEscalate =
          err instanceof StoredStateError || (state.stage === 'polling' && horizonPassed(order));
        if (mustEscalate) {
          try {
            decision = await escalate(rec, err instanceof StoredStateError ? 'deposit_unknown' : 'horizon');
          } catch (escErr) {
            log.error({ orderId, err: describe(escErr) }, 'could not escalate; retrying');
          }
        }
      }
    }
    if ('next' in decision && !saved.has(rec)) {
      state.nextDueAt = now() + decision.next;
      await save(rec).catch((err: unknown) => {
        if (err instanceof StaleStateError) {
          log.debug({ orderId, rev: rec.rev }, 'stale tracking state not saved');
          return;
        }
        metrics.errors.inc({ kind: 'store' });
        log.warn({ err, orderId }, 'could not save tracking state');
      });
    }
    deps.onPoll?.({
      orderId,
      side: order.side,
      lagMs,
      durationMs: now() - startedAt,
      decision: 'next' in decision ? 'next' : 'done',
    });
    return decision;
  }

  /** An order as its owner's history shows it: the outcome the tracker reached, receipt and hash. */
  async function ownOrder(rec: StoredOrder): Promise<OwnOrder> {
    const { order, state } = rec;
    let txHash = order.txHash;
    if (order.side === 'onramp') {
      const marker = await store.getDeposit(order.orderId).catch(() => undefined);
      if (marker?.state === 'sent') txHash = marker.hash;
    }
    const outcome: OrderOutcome =
      state.stage === 'final' && state.final ? (OUTCOMES[state.final.outcome] ?? 'pending') : 'pending';
    return {
      orderId: order.orderId,
      side: order.side,
      createdAt: order.createdAt,
      network: order.network,
      symbol: order.token.symbol,
      amountKes: order.side === 'onramp' ? (order.paidKes ?? order.amountKes) : order.amountKes,
      ...(order.tokenAmount ? { tokenAmount: order.tokenAmount } : {}),
      outcome,
      ...(state.receipt ? { receipt: state.receipt } : {}),
      ...(txHash ? { txHash } : {}),
    };
  }

  return {
    registry: metrics.registry,
    metrics,
    mode: deps.redisUrl ? 'redis' : 'local',

    async track(input) {
      const order = trackedOrderSchema.parse(input);
      const firstDelay = Math.round(Math.random() * cfg.pollIntervalMs);
      const state: TrackingState = { ...initialTrackingState(), nextDueAt: now() + firstDelay };
      const added = await store.addOrder(order, state);
      if (added) {
        await note(order.orderId, { kind: 'created' });
        metrics.orders.inc({ side: order.side, state: 'tracked' });
        log.info({ orderId: order.orderId, side: order.side }, 'tracking order');
      } else {
        const rec = await store.load(order.orderId);
        if (!rec || rec.final === 'done') return;
      }
      await scheduler.enqueue(order.orderId, firstDelay);
    },

    async start() {
      await scheduler.start(runOrder);
      const ids = await store.trackingIds();
      for (let i = 0; i < ids.length; i += 200) {
        await Promise.all(
          ids
            .slice(i, i + 200)
            .map((id) => scheduler.enqueue(id, Math.round(Math.random() * cfg.pollIntervalMs))),
        );
      }
      log.info({ resumed: ids.length, mode: deps.redisUrl ? 'redis' : 'local' }, 'tracker started');
    },

    async stop() {
      await scheduler.stop();
      await store.close();
    },

    pollOnce: runOrder,

    timeline: (orderId) => store.timeline(orderId),

    async ordersOf(user, page, limit) {
      const { ids, total } = await store.ordersOf(`${user.channel}:${user.id}`, (page - 1) * limit, limit);
      const orders: OwnOrder[] = [];
      for (const id of ids) {
        try {
          const rec = await store.load(id);
          if (rec) orders.push(await ownOrder(rec));
        } catch (err) {
          log.warn({ orderId: id, err: describe(err) }, 'an order of the history could not be read');
        }
      }
      return { orders, page, totalPages: Math.ceil(total / limit) };
    },

    async ownerOf(orderId) {
      try {
        return (await store.load(orderId))?.order.user;
      } catch {
        return undefined;
      }
    },

    async health() {
      try {
        await store.ping();
        const queue = await scheduler.stats();
        return { ok: true, details: { store: store.kind, redis: deps.redisUrl ? 'ok' : 'unused', queue } };
      } catch (err) {
        return { ok: false, details: { store: store.kind, error: describe(err) } };
      }
    },
  };
}
