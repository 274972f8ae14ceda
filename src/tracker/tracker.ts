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
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Registry } from 'prom-client';
import type { UserRef } from '../chat/types.js';
import type { OwnOrdersPage } from '../flows/types.js';
import { createScheduler, createStore } from './backing.js';
import type { TrackerContext } from './context.js';
import { startTracking, trackerHealth, trackOrder } from './lifecycle.js';
import { createTrackerMetrics, type TrackerMetrics } from './metrics.js';
import { type TrackerDeps, withDefaults } from './options.js';
import { type OrderRecordView, ordersOf, ownerOf, recordOf } from './own-orders.js';
import { runOrder } from './poll/run-order.js';
import type { PollDecision } from './schedule/scheduler.js';
import type { StoredOrder } from './store/store.js';
import type { OrderEvent } from './store/timeline.js';
import type { OrderTracker, TrackerHealth } from './types.js';

export type { TrackerConfig, TrackerDeps } from './options.js';
export type { OrderRecordView } from './own-orders.js';

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
  /** One order whole, for its receipt (undefined when unknown here); the caller checks its owner. */
  recordOf(orderId: string): Promise<OrderRecordView | undefined>;
  health(): Promise<TrackerHealth>;
}

/** Creates the tracker. Nothing connects until the first `track` or `start`. */
export function createTracker(deps: TrackerDeps): Tracker {
  const cfg = withDefaults(deps.config);
  const prefix = deps.prefix ?? 'rampchat:';
  const log = deps.logger.child({ component: 'tracker' });
  const store = createStore(deps.redisUrl, prefix, deps.logger);
  const scheduler = createScheduler(deps.redisUrl, prefix, cfg, log);
  const metrics = createTrackerMetrics(() => store.countTracking());
  const mode = deps.redisUrl ? 'redis' : 'local';
  const ctx: TrackerContext = {
    cfg,
    ramp: deps.ramp,
    notifier: deps.notifier,
    log,
    store,
    metrics,
    now: deps.now ?? Date.now,
    workerId: deps.workerId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`,
    onEscalate: deps.onEscalate,
    onPoll: deps.onPoll,
    saved: new WeakSet<StoredOrder>(),
  };

  return {
    registry: metrics.registry,
    metrics,
    mode,
    track: (input) => trackOrder(ctx, scheduler, input),
    start: () => startTracking(ctx, scheduler, mode),
    async stop() {
      await scheduler.stop();
      await store.close();
    },
    pollOnce: (orderId) => runOrder(ctx, orderId),
    timeline: (orderId) => store.timeline(orderId),
    ordersOf: (user, page, limit) => ordersOf(ctx, user, page, limit),
    ownerOf: (orderId) => ownerOf(ctx, orderId),
    recordOf: (orderId) => recordOf(ctx, orderId),
    health: () => trackerHealth(ctx, scheduler, !!deps.redisUrl),
  };
}
