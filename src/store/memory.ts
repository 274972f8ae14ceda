/**
 * In-process store for local mode (no REDIS_URL). Same semantics as the Redis store, including the
 * flow TTL and compare-and-set, but nothing survives a restart and other processes cannot see it.
 */
import { memoryKv } from './keyed-memory.js';
import {
  DEFAULT_DEDUPE_TTL_SECONDS,
  DEFAULT_IDEMPOTENCY_TTL_SECONDS,
  type IdempotencyClaim,
  type IdempotencyOutcome,
  type PendingClaim,
  type SessionParts,
  type SessionStore,
  type StoredSession,
  type StoreTtls,
} from './types.js';

export interface MemoryStoreOptions extends StoreTtls {
  now?: () => number;
}

/** Creates an in-memory store. */
export function createMemoryStore(opts: MemoryStoreOptions): SessionStore {
  const now = opts.now ?? Date.now;
  const dedupeMs = (opts.dedupeTtlSeconds ?? DEFAULT_DEDUPE_TTL_SECONDS) * 1000;
  const idemMs = (opts.idempotencyTtlSeconds ?? DEFAULT_IDEMPOTENCY_TTL_SECONDS) * 1000;
  const users = new Map<string, { rev: number; base?: string }>();
  const chats = new Map<string, string>();
  /** Flow parts, idempotency claims and created orders' keys, each expiring like its Redis key. */
  const kv = memoryKv(now);
  const flowKey = (user: string) => `flow:${user}`;
  const idemKey = (key: string) => `idem:${key}`;
  const orderKey = (orderId: string) => `idem-order:${orderId}`;
  const seen = new Map<string, number>();
  const done = new Set<string>();
  /** Listed claims: `due` is when it may be handed out (the claim time, then the end of each lease). */
  const pending = new Map<string, { claimedAt: number; due: number; data: string }>();

  const record = (key: string, outcome: IdempotencyOutcome) => {
    kv.put(idemKey(key), JSON.stringify(outcome), { ms: idemMs });
    pending.delete(key);
    if (outcome.status === 'created') kv.put(orderKey(outcome.orderId), key, { ms: idemMs });
  };
  const markDone = (updateId: string) => {
    done.add(updateId);
    if (done.size > 100_000) done.delete(done.values().next().value as string);
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
      return { rev: u?.rev ?? 0, base: u?.base, flow: kv.peek(flowKey(user)), chat: chats.get(user) };
    },

    async saveChat(user: string, chat: string): Promise<void> {
      chats.set(user, chat);
    },

    async save(user: string, expectedRev: number, parts: SessionParts): Promise<number | undefined> {
      const current = users.get(user)?.rev ?? 0;
      if (current !== expectedRev) return undefined;
      users.set(user, { rev: current + 1, base: parts.base });
      kv.put(flowKey(user), parts.flow, { ms: opts.flowTtlSeconds * 1000 });
      return current + 1;
    },

    async begin(user, opts = {}) {
      const id = opts.updateId;
      let status: 'new' | 'unfinished' = 'new';
      if (id !== undefined) {
        if (done.has(id)) return { status: 'done', session: { rev: 0 }, finish: async () => {} };
        const exp = seen.get(id);
        if (exp !== undefined && exp > now()) status = 'unfinished';
        else {
          sweepSeen();
          seen.set(id, now() + dedupeMs);
        }
      }
      const u = users.get(user);
      return {
        status,
        session: { rev: u?.rev ?? 0, base: u?.base, flow: kv.peek(flowKey(user)), chat: chats.get(user) },
        finish: async ({ done: handled, chat }) => {
          if (handled && id !== undefined) markDone(id);
          if (chat !== undefined) chats.set(user, chat);
        },
      };
    },

    async lockChat() {
      return async () => {};
    },

    async markUpdateDone(updateId: string) {
      markDone(updateId);
    },

    async isUpdateDone(updateId: string) {
      return done.has(updateId);
    },

    async markUpdateSeen(updateId: string): Promise<boolean> {
      const exp = seen.get(updateId);
      if (exp !== undefined && exp > now()) return false;
      sweepSeen();
      seen.set(updateId, now() + dedupeMs);
      return true;
    },

    async claimIdempotencyKey(key: string, data?: unknown): Promise<IdempotencyClaim> {
      const existing = kv.peek(idemKey(key));
      if (existing !== undefined) return JSON.parse(existing) as IdempotencyClaim;
      const since = now();
      kv.put(idemKey(key), JSON.stringify({ status: 'in_flight', since }), { ms: idemMs });
      if (data !== undefined) pending.set(key, { claimedAt: since, due: since, data: JSON.stringify(data) });
      return { status: 'claimed' };
    },

    async recordIdempotencyOutcome(key: string, outcome: IdempotencyOutcome): Promise<void> {
      record(key, outcome);
    },

    async releaseIdempotencyKey(key: string): Promise<void> {
      kv.drop(idemKey(key));
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
      const current = kv.peek(idemKey(key));
      if (current !== undefined && (JSON.parse(current) as IdempotencyClaim).status !== 'in_flight')
        return false;
      record(key, outcome);
      return true;
    },

    async keyOfOrder(orderId: string): Promise<string | undefined> {
      return kv.peek(orderKey(orderId));
    },

    async close(): Promise<void> {},
  };
}
