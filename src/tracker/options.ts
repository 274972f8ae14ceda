/** What `createTracker` is given: its settings and the services it works with. */
import type { Direction } from '../domain/types.js';
import type { Logger } from '../log/logger.js';
import type { RampClient } from '../ramp/types.js';
import type { EscalationCase, Notifier } from './types.js';

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
  /**
   * With Redis: the lease a process holds on a poll it took (renewed while the poll runs); a dead
   * process's poll is taken by another once it ends. Default 30 s.
   */
  lockDurationMs?: number;
}

export interface TrackerDeps {
  ramp: RampClient;
  notifier: Notifier;
  logger: Logger;
  config: TrackerConfig;
  /** With it: Redis state and the sweep scheduler (durable, many processes). Without: in-process (local mode). */
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

/** The settings with their defaults filled in. */
export const withDefaults = (config: TrackerConfig) => ({
  maxBackoffMs: 60_000,
  claimStaleMs: 120_000,
  reconcileAttempts: 3,
  retentionMs: 30 * 24 * 3600_000,
  ...config,
});

export type ResolvedTrackerConfig = ReturnType<typeof withDefaults>;
