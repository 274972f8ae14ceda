/**
 * What every step of a poll works with (the tracker's services, settings and clock), and the small
 * rules they share: poll pacing (jitter, backoff, horizon) and how errors are named.
 */
import type { TrackedOrder } from '../flows/types.js';
import type { Logger } from '../log/logger.js';
import { isRampError } from '../ramp/errors.js';
import type { RampClient } from '../ramp/types.js';
import type { TrackerMetrics } from './metrics.js';
import type { PollSample, ResolvedTrackerConfig } from './options.js';
import type { PollDecision } from './schedule/scheduler.js';
import { type StoredOrder, StoredStateError, type TrackerStore } from './store/store.js';
import type { EscalationCase, Notifier } from './types.js';

/** The tracker's parts as one poll sees them. */
export interface TrackerContext {
  readonly cfg: ResolvedTrackerConfig;
  readonly ramp: RampClient;
  readonly notifier: Notifier;
  readonly log: Logger;
  readonly store: TrackerStore;
  readonly metrics: TrackerMetrics;
  readonly now: () => number;
  /** Names this process in deposit intents. */
  readonly workerId: string;
  readonly onEscalate?: (c: EscalationCase) => Promise<void>;
  readonly onPoll?: (sample: PollSample) => void;
  /** Polls whose state is already saved for their next turn (or must not be saved by them). */
  readonly saved: WeakSet<StoredOrder>;
}

export const DONE: PollDecision = { done: true };

/** Another worker saved the order since this one read it: this worker's view is stale and it stops. */
export class StaleStateError extends Error {
  override name = 'StaleStateError';
}

/** An error in words, for logs, the timeline and support. */
export const describe = (err: unknown): string =>
  isRampError(err)
    ? `${err.kind}: ${err.serviceMessage ?? err.message}`
    : err instanceof Error
      ? err.message
      : String(err);

/** The `kind` label of the errors metric. */
export const errorKind = (err: unknown): string =>
  isRampError(err) ? err.kind : err instanceof StoredStateError ? 'stored_state' : 'internal';

/** A delay spread ±20 %, so polls of many orders do not bunch up. */
export const jitter = (ms: number) => Math.round(ms * (0.8 + 0.4 * Math.random()));

/** The delay after `streak` failures in a row: doubling from the poll interval, capped. */
export const backoff = (ctx: TrackerContext, streak: number) =>
  jitter(Math.min(ctx.cfg.pollIntervalMs * 2 ** Math.max(0, streak), ctx.cfg.maxBackoffMs));

/** Poll again after the usual interval. */
export const pollAgain = (ctx: TrackerContext): PollDecision => ({ next: jitter(ctx.cfg.pollIntervalMs) });

/** True once a still-pending order has waited longer than its side allows. */
export const horizonPassed = (ctx: TrackerContext, o: TrackedOrder) =>
  ctx.now() > o.createdAt + (o.side === 'onramp' ? ctx.cfg.onrampHorizonMs : ctx.cfg.offrampHorizonMs);
