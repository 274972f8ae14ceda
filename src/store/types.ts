import type { EffectError } from '../flows/types.js';

/**
 * A user's persisted session as stored: the long-lived part (`base`: version, locale, profile)
 * and the flow part (`flow`: everything else, which expires when abandoned), both JSON text, and
 * the revision every save increments. `rev` is 0 for a user never saved.
 */
export interface StoredSession {
  rev: number;
  base?: string;
  flow?: string;
}

export interface SessionParts {
  base: string;
  flow: string;
}

/** What became of a `createOnrampOrder` call made under an idempotency key. */
export type IdempotencyOutcome =
  | { status: 'created'; orderId: string; createdAt: number }
  | { status: 'failed'; error: EffectError };

/**
 * The answer to a claim: `claimed` (the caller may call the ramp), `in_flight` (another attempt
 * claimed it and has not recorded an outcome: it may be running or may have crashed mid-way), or the
 * recorded outcome.
 */
export type IdempotencyClaim =
  | { status: 'claimed' }
  | { status: 'in_flight'; since: number }
  | IdempotencyOutcome;

/** Session state, update de-duplication and idempotency keys (Redis or memory). */
export interface SessionStore {
  readonly kind: 'redis' | 'memory';
  load(userKey: string): Promise<StoredSession>;
  /**
   * Saves both parts if the stored revision still equals `expectedRev` (compare-and-set).
   * Returns the new revision, or undefined when someone else saved first.
   */
  save(userKey: string, expectedRev: number, parts: SessionParts): Promise<number | undefined>;
  /** True the first time an update id is seen (within the de-duplication window), false after. */
  markUpdateSeen(updateId: string): Promise<boolean>;
  /** Claims a key atomically; only one caller ever gets `claimed` until the key is released. */
  claimIdempotencyKey(key: string): Promise<IdempotencyClaim>;
  recordIdempotencyOutcome(key: string, outcome: IdempotencyOutcome): Promise<void>;
  /** Forgets a claim, so the same key may be tried again (only after a failure that surely sent nothing). */
  releaseIdempotencyKey(key: string): Promise<void>;
  close(): Promise<void>;
}

export interface StoreTtls {
  /** Lifetime of an untouched flow part; each save restarts it. */
  flowTtlSeconds: number;
  /** How long a seen update id is remembered. */
  dedupeTtlSeconds?: number;
  /** How long an idempotency key and its outcome are kept. */
  idempotencyTtlSeconds?: number;
}

export const DEFAULT_DEDUPE_TTL_SECONDS = 2 * 24 * 3600;
export const DEFAULT_IDEMPOTENCY_TTL_SECONDS = 30 * 24 * 3600;
