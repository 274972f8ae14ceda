/**
 * In-process store for local mode (no REDIS_URL). Same semantics as the Redis store, including the
 * flow TTL and compare-and-set, but nothing survives a restart and other processes cannot see it.
 */
import {
  DEFAULT_DEDUPE_TTL_SECONDS,
  DEFAULT_IDEMPOTENCY_TTL_SECONDS,
  type IdempotencyClaim,
  type IdempotencyOutcome,
  type SessionParts,
  type SessionStore,
  type StoredSession,
  type StoreTtls,
} from './types.js';

interface Expiring<T> {
  value: T;
  expiresAt: number;
}

export interface MemoryStoreOptions extends StoreTtls {
  now?: () => number;
}

/** Creates an in-memory store. */
export function createMemoryStore(opts: MemoryStoreOptions): SessionStore {
  const now = opts.now ?? Date.now;
  const dedupeMs = (opts.dedupeTtlSeconds ?? DEFAULT_DEDUPE_TTL_SECONDS) * 1000;
  const idemMs = (opts.idempotencyTtlSeconds ?? DEFAULT_IDEMPOTENCY_TTL_SECONDS) * 1000;
  const users = new Map<string, { rev: number; base: string }>();
  const flows = new Map<string, Expiring<string>>();
  const seen = new Map<string, number>();
  const idem = new Map<string, Expiring<string>>();

  const live = <T>(map: Map<string, Expiring<T>>, key: string): T | undefined => {
    const e = map.get(key);
    if (!e) return undefined;
    if (e.expiresAt <= now()) {
      map.delete(key);
      return undefined;
    }
    return e.value;
  };
  const sweepSeen = () => {
    if (seen.size < 10_000) return;
    const t = now();
    for (const [k, exp] of seen) if (exp <= t) seen.delete(k);
  };

  return {
    kind: 'memory',

    async load(user: string): Promise<StoredSession> {
      const u = users.get(user);
      return { rev: u?.rev ?? 0, base: u?.base, flow: live(flows, user) };
    },

    async save(user: string, expectedRev: number, parts: SessionParts): Promise<number | undefined> {
      const current = users.get(user)?.rev ?? 0;
      if (current !== expectedRev) return undefined;
      users.set(user, { rev: current + 1, base: parts.base });
      flows.set(user, { value: parts.flow, expiresAt: now() + opts.flowTtlSeconds * 1000 });
      return current + 1;
    },

    async markUpdateSeen(updateId: string): Promise<boolean> {
      const exp = seen.get(updateId);
      if (exp !== undefined && exp > now()) return false;
      sweepSeen();
      seen.set(updateId, now() + dedupeMs);
      return true;
    },

    async claimIdempotencyKey(key: string): Promise<IdempotencyClaim> {
      const existing = live(idem, key);
      if (existing !== undefined) return JSON.parse(existing) as IdempotencyClaim;
      idem.set(key, {
        value: JSON.stringify({ status: 'in_flight', since: now() }),
        expiresAt: now() + idemMs,
      });
      return { status: 'claimed' };
    },

    async recordIdempotencyOutcome(key: string, outcome: IdempotencyOutcome): Promise<void> {
      idem.set(key, { value: JSON.stringify(outcome), expiresAt: now() + idemMs });
    },

    async releaseIdempotencyKey(key: string): Promise<void> {
      idem.delete(key);
    },

    async close(): Promise<void> {},
  };
}
