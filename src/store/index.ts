/** Session state store: Redis when REDIS_URL is set, memory otherwise. */
import type { Logger } from '../log/logger.js';
import { createMemoryStore } from './memory/memory.js';
import { createRedisStore } from './redis/redis.js';
import type { SessionStore, StoreTtls } from './types.js';

export { connectRedis } from './connection/connect.js';

export { createMemoryStore } from './memory/memory.js';
export { createRedisStore } from './redis/redis.js';
export { decodeSession, encodeSession } from './session-codec.js';
export type { SessionStore, StoreTtls } from './types.js';

/** Opens the store the settings ask for. */
export async function openStore(
  opts: { redisUrl?: string; prefix?: string; logger?: Logger; connectTimeoutMs?: number } & StoreTtls,
): Promise<SessionStore> {
  if (opts.redisUrl) return createRedisStore({ ...opts, url: opts.redisUrl });
  return createMemoryStore(opts);
}
