/**
 * The keyed-storage port in this process's memory (local mode): the same semantics as Redis,
 * TTLs included, but nothing survives a restart and other processes cannot see it. Its synchronous
 * `peek`/`put` let a store do, in one step, what its Redis twin does in one Lua script.
 */
import type { TextKv, Ttl } from './keyed.js';

/** The memory port, with synchronous access for store-specific atomic steps. */
export interface MemoryKv extends TextKv {
  /** The live value of a key. */
  peek(key: string): string | undefined;
  /** Writes a value at once. */
  put(key: string, value: string, ttl?: Ttl): void;
  /** Deletes a key at once. */
  drop(key: string): void;
}

/** An empty memory port; `now` is the clock TTLs are measured on. */
export function memoryKv(now: () => number = Date.now): MemoryKv {
  const entries = new Map<string, { value: string; expiresAt: number }>();
  const live = (key: string) => {
    const e = entries.get(key);
    if (e && e.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return e;
  };
  const expiryOf = (key: string, ttl: Ttl): number => {
    if (ttl === undefined) return Number.POSITIVE_INFINITY;
    if (ttl === 'keep') return live(key)?.expiresAt ?? Number.POSITIVE_INFINITY;
    return now() + ttl.ms;
  };
  const put = (key: string, value: string, ttl?: Ttl) => {
    entries.set(key, { value, expiresAt: expiryOf(key, ttl) });
  };
  const peek = (key: string) => live(key)?.value;

  return {
    peek,
    put,
    drop: (key) => void entries.delete(key),
    async get(key) {
      return peek(key);
    },
    async set(key, value, opts = {}) {
      if (opts.nx && peek(key) !== undefined) return false;
      put(key, value, opts.ttl);
      return true;
    },
    async setAll(list, ttl) {
      for (const [key, value] of list) put(key, value, ttl);
    },
    async compareAndSet(key, expected, next, ttl) {
      if (peek(key) !== expected) return false;
      put(key, next, ttl);
      return true;
    },
    async compareAndDelete(key, expected) {
      if (peek(key) !== expected) return false;
      entries.delete(key);
      return true;
    },
    async del(key) {
      entries.delete(key);
    },
  };
}
