/**
 * Pictures and documents a message carries, kept by reference: the outbox stores JSON, so a message
 * names its media by a key here and the channel reads the bytes when the message's turn comes (on
 * whichever replica). In Redis with an expiry (past the outbox's 15-minute give-up), or in this
 * process without Redis.
 */
import type { RedisClientType } from 'redis';
import { BLOB_STRING } from './connection/connect.js';

export interface MediaStore {
  /** Keeps `bytes` under `ref` for `ttlMs`. */
  put(ref: string, bytes: Buffer, ttlMs: number): Promise<void>;
  get(ref: string): Promise<Buffer | undefined>;
  has(ref: string): Promise<boolean>;
}

export function redisMediaStore(redis: RedisClientType, prefix: string): MediaStore {
  const binary = redis.withTypeMapping({ [BLOB_STRING]: Buffer });
  const key = (ref: string) => `${prefix}media:${ref}`;
  return {
    async put(ref, bytes, ttlMs) {
      await redis.set(key(ref), bytes, { expiration: { type: 'PX', value: ttlMs } });
    },
    async get(ref) {
      return ((await binary.get(key(ref))) as Buffer | null) ?? undefined;
    },
    async has(ref) {
      return (await redis.exists(key(ref))) === 1;
    },
  };
}

export function memoryMediaStore(now: () => number = Date.now, limit = 200): MediaStore {
  const kept = new Map<string, { bytes: Buffer; until: number }>();
  return {
    async put(ref, bytes, ttlMs) {
      kept.delete(ref);
      kept.set(ref, { bytes, until: now() + ttlMs });
      while (kept.size > limit) kept.delete(kept.keys().next().value as string);
    },
    async get(ref) {
      const m = kept.get(ref);
      return m && m.until > now() ? m.bytes : undefined;
    },
    async has(ref) {
      return (kept.get(ref)?.until ?? 0) > now();
    },
  };
}
