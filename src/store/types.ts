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
  /** The chat's scratch (JSON object of strings; see `ChatScratch`), kept beside the session. */
  chat?: string;
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

/**
 * A claim whose outcome was never recorded, as kept for reconciliation: `data` is what the claimant
 * stored with it (JSON-serialisable; the reader validates it), `claimedAt` epoch ms.
 */
export interface PendingClaim {
  key: string;
  claimedAt: number;
  data: unknown;
}

/** How `begin` found the update: first seen, seen before but never finished, or already handled. */
export type UpdateStatus = 'new' | 'unfinished' | 'done';

/** A step's session to save when the update finishes: compare-and-set from `rev`. */
export interface DeferredSave {
  rev: number;
  parts: SessionParts;
}

/** One chat's update, begun: the session as stored, and how to end it. */
export interface BegunUpdate {
  status: UpdateStatus;
  /** The stored session (absent when `status` is `done`: nothing more is to be done). */
  session: StoredSession;
  /**
   * Whether this process holds the chat's lock (false when it went on without it), so no other
   * process saves the session before `finish`: only then may a step's save wait for it.
   */
  locked: boolean;
  /**
   * Ends the update in one round trip: saves `save` with compare-and-set, marks the update handled
   * (`done`; not after a failure, so a redelivery is handled again), saves the chat's scratch when
   * given, and releases the chat's lock. False, with nothing done (the lock still held), when `save`
   * was given and someone else saved the session first.
   */
  finish(opts: { done: boolean; chat?: string; save?: DeferredSave }): Promise<boolean>;
}

export interface BeginOptions {
  /** The channel's update id (`<channel>:<id>`), for de-duplication; absent for internal inputs. */
  updateId?: string;
  /** How long to wait for the chat's lock before going on without it (default 10 s). */
  waitMs?: number;
  /** The lock's time to live, renewed while held (default 15 s). */
  ttlMs?: number;
  onTimeout?: () => void;
  /** Past `waitMs`, reject with ChatBusyError instead of going on without the lock. */
  refuseWhenBusy?: boolean;
}

/** Session state, update de-duplication and idempotency keys (Redis or memory). */
export interface SessionStore {
  readonly kind: 'redis' | 'memory';
  /**
   * Starts on one chat's update in one round trip: takes the chat's lock (waiting for it like
   * `lockChat`), de-duplicates the update (`markUpdateSeen`/`isUpdateDone` in one), and loads the
   * session. A `done` update has released the lock already.
   */
  begin(userKey: string, opts?: BeginOptions): Promise<BegunUpdate>;
  /** Saves the chat's scratch outside an update (after a notice). */
  saveChat(userKey: string, chat: string): Promise<void>;
  load(userKey: string): Promise<StoredSession>;
  /**
   * Saves both parts if the stored revision still equals `expectedRev` (compare-and-set).
   * Returns the new revision, or undefined when someone else saved first.
   */
  save(userKey: string, expectedRev: number, parts: SessionParts): Promise<number | undefined>;
  /** True the first time an update id is seen (within the de-duplication window), false after. */
  markUpdateSeen(updateId: string): Promise<boolean>;
  /**
   * Records that a seen update was fully handled. A redelivery of an update that was seen but never
   * finished (its process died mid-way) is handled again, under the chat's lock; one that finished
   * is ignored.
   */
  markUpdateDone(updateId: string): Promise<void>;
  /** True once `markUpdateDone` was called for the update (within the de-duplication window). */
  isUpdateDone(updateId: string): Promise<boolean>;
  /** Sets a mark unless it is set, for `ttlMs` (`SET NX PX`): true when this call set it. */
  markOnce(name: string, ttlMs: number): Promise<boolean>;
  /**
   * Holds a short per-chat lock shared by every process (Redis), so one chat's updates are handled
   * one at a time even when they land on different replicas; resolves with its release. The lock
   * expires on its own if the holder dies, and is renewed while held. Waits up to `waitMs` for it,
   * then goes on without it (the session's compare-and-set still keeps state consistent). The memory
   * store has one process and resolves at once.
   */
  lockChat(
    userKey: string,
    opts?: { waitMs?: number; ttlMs?: number; onTimeout?: () => void },
  ): Promise<() => Promise<void>>;
  /**
   * Claims a key atomically; only one caller ever gets `claimed` until the key is released. With
   * `pending`, a winning claim is also listed (with that data) until its outcome is recorded or it
   * is released, so `takeStaleClaims` can find it if the claimant dies first.
   */
  claimIdempotencyKey(key: string, pending?: unknown): Promise<IdempotencyClaim>;
  /** Records the outcome and unlists the pending claim; a created order is also indexed by its id. */
  recordIdempotencyOutcome(key: string, outcome: IdempotencyOutcome): Promise<void>;
  /** Forgets a claim, so the same key may be tried again (only after a failure that surely sent nothing). */
  releaseIdempotencyKey(key: string): Promise<void>;
  /**
   * Leases up to `limit` listed claims made at or before `claimedBefore`: atomically, so each one is
   * handed to one caller only; a leased claim is handed out again `leaseMs` later if still listed.
   */
  takeStaleClaims(claimedBefore: number, opts: { leaseMs: number; limit: number }): Promise<PendingClaim[]>;
  /**
   * Replaces the data listed with a claim that is still listed (e.g. to note that its call answered
   * with an error that may have reached the ramp). False when the claim is no longer listed.
   */
  updatePendingClaim(key: string, data: unknown): Promise<boolean>;
  /** Every listed claim, stale or not, without leasing any (a reconciler's view of calls that may be in flight). */
  listPendingClaims(): Promise<PendingClaim[]>;
  /**
   * Records an outcome for a listed claim only if it is still listed and no outcome was recorded
   * meanwhile. True when this call recorded it (exactly one caller wins).
   */
  settleStaleClaim(key: string, outcome: IdempotencyOutcome): Promise<boolean>;
  /** The idempotency key a created order was recorded under, if any. */
  keyOfOrder(orderId: string): Promise<string | undefined>;
  close(): Promise<void>;
}

/** The idempotency-key part of a session store. */
export type IdempotencyOps = Pick<
  SessionStore,
  | 'claimIdempotencyKey'
  | 'recordIdempotencyOutcome'
  | 'releaseIdempotencyKey'
  | 'takeStaleClaims'
  | 'updatePendingClaim'
  | 'listPendingClaims'
  | 'settleStaleClaim'
  | 'keyOfOrder'
>;

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
