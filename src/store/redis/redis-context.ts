/** What the parts of the Redis session store share: the client, the key names and the TTLs. */
import type { RedisClientType } from 'redis';
import { keysUnder } from '../keyed/keyed.js';

/** The session store's keys under its prefix (layout in ./redis.ts). */
export function sessionKeys(prefix: string) {
  const key = keysUnder(prefix);
  return {
    user: (user: string) => key('user', user),
    flow: (user: string) => key('flow', user),
    seen: (updateId: string) => key('seen', updateId),
    chatLock: (user: string) => key('chat-lock', user),
    once: (name: string) => key('once', name),
    idem: (idemKey: string) => key('idem', idemKey),
    pendingSet: key('idem-pending'),
    pendingData: key('idem-pending-data'),
    order: (orderId: string) => key('idem-order', orderId),
  };
}

export type SessionKeys = ReturnType<typeof sessionKeys>;

export interface RedisStoreContext {
  redis: RedisClientType;
  keys: SessionKeys;
  flowTtlSeconds: number;
  dedupeTtlSeconds: number;
  idempotencyTtlSeconds: number;
}
