/**
 * In-process store for local mode (no REDIS_URL). Same semantics as the Redis store, including the
 * flow TTL and compare-and-set, but nothing survives a restart and other processes cannot see it.
 */
import { memoryKv } from '../keyed/keyed-memory.js';
import {
  DEFAULT_DEDUPE_TTL_SECONDS,
  DEFAULT_IDEMPOTENCY_TTL_SECONDS,
  type SessionParts,
  type SessionStore,
  type StoredSession,
  type StoreTtls,
} from '../types.js';
import { memoryClaimOps } from './memory-claims.js';
import type { MemoryStoreState } from './memory-state.js';

export interface MemoryStoreOptions extends StoreTtls {
  now?: () => number;
}

export function createMemoryStore(opts: MemoryStoreOptions): SessionStore {
  const now = opts.now ?? Date.now;
  const state: MemoryStoreState = {
    now,
    flowMs: opts.flowTtlSeconds * 1000,
    dedupeMs: (opts.dedupeTtlSeconds ?? DEFAULT_DEDUPE_TTL_SECONDS) * 1000,
    idemMs: (opts.idempotencyTtlSeconds ?? DEFAULT_IDEMPOTENCY_TTL_SECONDS) * 1000,
    users: new Map(),
    chats: new Map(),
    kv: memoryKv(now),
    keys: {
      flow: (user) => `flow:${user}`,
      idem: (key) => `idem:${key}`,
      order: (orderId) => `idem-order:${orderId}`,
    },
    seen: new Map(),
    done: new Set(),
    pending: new Map(),
  };
  return {
    kind: 'memory',
    ...sessionOps(state),
    ...updateOps(state),
    ...memoryClaimOps(state),
    async close(): Promise<void> {},
  };
}

/** Loading and saving sessions and the chat's scratch. */
function sessionOps(state: MemoryStoreState): Pick<SessionStore, 'load' | 'saveChat' | 'save'> {
  const { users, chats, kv, keys } = state;
  return {
    async load(user: string): Promise<StoredSession> {
      const u = users.get(user);
      return { rev: u?.rev ?? 0, base: u?.base, flow: kv.peek(keys.flow(user)), chat: chats.get(user) };
    },

    async saveChat(user: string, chat: string): Promise<void> {
      chats.set(user, chat);
    },

    save: async (user, expectedRev, parts) => saveIfRevision(state, user, expectedRev, parts),
  };
}

/** Saves both parts if the revision is still `expectedRev`; the new revision, or undefined. */
function saveIfRevision(
  state: MemoryStoreState,
  user: string,
  expectedRev: number,
  parts: SessionParts,
): number | undefined {
  const current = state.users.get(user)?.rev ?? 0;
  if (current !== expectedRev) return undefined;
  state.users.set(user, { rev: current + 1, base: parts.base });
  state.kv.put(state.keys.flow(user), parts.flow, { ms: state.flowMs });
  return current + 1;
}

/** Beginning and de-duplicating updates (one process: the chat lock is always free). */
function updateOps(
  state: MemoryStoreState,
): Pick<
  SessionStore,
  'begin' | 'lockChat' | 'markUpdateDone' | 'isUpdateDone' | 'markUpdateSeen' | 'markOnce'
> {
  const { users, chats, kv, keys, seen, done, now, dedupeMs } = state;
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
    async begin(user, opts = {}) {
      const id = opts.updateId;
      let status: 'new' | 'unfinished' = 'new';
      if (id !== undefined) {
        if (done.has(id))
          return { status: 'done', session: { rev: 0 }, locked: false, finish: async () => true };
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
        session: { rev: u?.rev ?? 0, base: u?.base, flow: kv.peek(keys.flow(user)), chat: chats.get(user) },
        locked: true,
        finish: async ({ done: handled, chat, save }) => {
          if (save && !saveIfRevision(state, user, save.rev, save.parts)) return false;
          if (handled && id !== undefined) markDone(id);
          if (chat !== undefined) chats.set(user, chat);
          return true;
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

    markOnce: (name, ttlMs) => state.kv.set(`once:${name}`, '1', { nx: true, ttl: { ms: ttlMs } }),
  };
}
