/** What the parts of the in-memory session store share (./memory.ts assembles them). */
import type { MemoryKv } from '../keyed/keyed-memory.js';

export interface MemoryStoreState {
  now: () => number;
  flowMs: number;
  dedupeMs: number;
  idemMs: number;
  users: Map<string, { rev: number; base?: string }>;
  chats: Map<string, string>;
  /** Flow parts, idempotency claims and created orders' keys, each expiring like its Redis key. */
  kv: MemoryKv;
  keys: { flow(user: string): string; idem(key: string): string; order(orderId: string): string };
  /** Update ids seen, with when each is forgotten. */
  seen: Map<string, number>;
  done: Set<string>;
  /** Listed claims: `due` is when it may be handed out (the claim time, then the end of each lease). */
  pending: Map<string, { claimedAt: number; due: number; data: string }>;
}
