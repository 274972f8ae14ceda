/** The claim reconciler's public shapes (see ./reconciler.ts), and the context its parts share. */
import type { Conversation } from '../../channels/types.js';
import type { UserRef } from '../../chat/types.js';
import type { Network } from '../../domain/types.js';
import type { Logger } from '../../log/logger.js';
import type { RampClient } from '../../ramp/types.js';
import type { SessionStore } from '../../store/types.js';
import type { Notifier, OrderTracker } from '../../tracker/types.js';

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

/** What the reconciler's parts take: the dependencies with their defaults filled in. */
export interface ReconcilerContext {
  store: SessionStore;
  ramp: RampClient;
  tracker?: OrderTracker;
  conversation: Conversation & Notifier;
  onEscalate?: (c: StkEscalation) => Promise<void>;
  log: Logger;
  now: () => number;
  staleAfterMs: number;
  giveUpAfterMs: number;
  intervalMs: number;
  leaseMs: number;
  batch: number;
  clockSkewMs: number;
}
