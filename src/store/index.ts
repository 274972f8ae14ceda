/** Session state store: Redis when REDIS_URL is set, memory otherwise. */
import type { Logger } from '../log/logger.js';
import { createMemoryStore } from './memory/memory.js';
import { createRedisStore } from './redis/redis.js';
import type { SessionStore, StoreTtls } from './types.js';

export { connectRedis, createResilientClient, watchRedisClient } from './connection/connect.js';
export { isStoreUnavailable, StoreUnavailableError } from './errors.js';
export { createMemoryStore, type MemoryStoreOptions } from './memory/memory.js';
export { createRedisStore, type RedisStoreOptions } from './redis/redis.js';
export {
  type DecodedSession,
  decodeSession,
  encodeSession,
  type SessionHints,
  type SessionModel,
} from './session-codec.js';
export type {
  IdempotencyClaim,
  IdempotencyOutcome,
  SessionParts,
  SessionStore,
  StoredSession,
  StoreTtls,
} from './types.js';

/** Opens the store the settings ask for. */
export async function openStore(
  opts: { redisUrl?: string; prefix?: string; logger?: Logger; connectTimeoutMs?: number } & StoreTtls,
): Promise<SessionStore> {
  if (opts.redisUrl) return createRedisStore({ ...opts, url: opts.redisUrl });
  return createMemoryStore(opts);
}
