/** Idempotency keys in memory, with the same semantics as ../redis/redis-claims.ts. */

import type { IdempotencyClaim, IdempotencyOps, IdempotencyOutcome, PendingClaim } from '../types.js';
import type { MemoryStoreState } from './memory-state.js';

/** Claiming, recording and reconciling idempotency keys. */
export function memoryClaimOps(state: MemoryStoreState): IdempotencyOps {
  const { kv, keys, pending, now, idemMs } = state;
  const record = (key: string, outcome: IdempotencyOutcome) => {
    kv.put(keys.idem(key), JSON.stringify(outcome), { ms: idemMs });
    pending.delete(key);
    if (outcome.status === 'created') kv.put(keys.order(outcome.orderId), key, { ms: idemMs });
  };
  return {
    async claimIdempotencyKey(key: string, data?: unknown): Promise<IdempotencyClaim> {
      const existing = kv.peek(keys.idem(key));
      if (existing !== undefined) return JSON.parse(existing) as IdempotencyClaim;
      const since = now();
      kv.put(keys.idem(key), JSON.stringify({ status: 'in_flight', since }), { ms: idemMs });
      if (data !== undefined) pending.set(key, { claimedAt: since, due: since, data: JSON.stringify(data) });
      return { status: 'claimed' };
    },

    async recordIdempotencyOutcome(key: string, outcome: IdempotencyOutcome): Promise<void> {
      record(key, outcome);
    },

    async releaseIdempotencyKey(key: string): Promise<void> {
      kv.drop(keys.idem(key));
      pending.delete(key);
    },

    async takeStaleClaims(claimedBefore, { leaseMs, limit }): Promise<PendingClaim[]> {
      const due = [...pending.entries()]
        .filter(([, p]) => p.due <= claimedBefore)
        .sort((a, b) => a[1].due - b[1].due)
        .slice(0, limit);
      return due.map(([key, p]) => {
        p.due = claimedBefore + leaseMs;
        return { key, claimedAt: p.claimedAt, data: JSON.parse(p.data) as unknown };
      });
    },

    async updatePendingClaim(key: string, data: unknown): Promise<boolean> {
      const p = pending.get(key);
      if (!p) return false;
      p.data = JSON.stringify(data);
      return true;
    },

    async listPendingClaims(): Promise<PendingClaim[]> {
      return [...pending.entries()].map(([key, p]) => ({
        key,
        claimedAt: p.claimedAt,
        data: JSON.parse(p.data) as unknown,
      }));
    },

    async settleStaleClaim(key, outcome): Promise<boolean> {
      if (!pending.has(key)) return false;
      pending.delete(key);
      const current = kv.peek(keys.idem(key));
      if (current !== undefined && (JSON.parse(current) as IdempotencyClaim).status !== 'in_flight')
        return false;
      record(key, outcome);
      return true;
    },

    async keyOfOrder(orderId: string): Promise<string | undefined> {
      return kv.peek(keys.order(orderId));
    },
  };
}
