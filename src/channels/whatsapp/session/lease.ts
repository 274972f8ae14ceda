/**
 * A Redis lease so one WhatsApp number has exactly one live connection across instances:
 * SET NX PX with a random token, renewed while held, released only by its holder.
 */
import { randomBytes } from 'node:crypto';
import type { WhatsAppRedis } from '../redis.js';

const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

export interface Lease {
  readonly key: string;
  readonly token: string;
  /** Takes the lease if nobody holds it; true when this instance now holds it. */
  acquire(): Promise<boolean>;
  /** Extends the lease; false when it is no longer ours (expired or taken). */
  renew(): Promise<boolean>;
  /** Gives the lease up if it is still ours. */
  release(): Promise<void>;
}

export function createLease(redis: WhatsAppRedis, key: string, ttlMs: number): Lease {
  const token = randomBytes(16).toString('hex');
  return {
    key,
    token,
    async acquire() {
      const reply = await redis.set(key, token, {
        condition: 'NX',
        expiration: { type: 'PX', value: ttlMs },
      });
      return reply === 'OK';
    },
    async renew() {
      const reply = await redis.eval(RENEW, { keys: [key], arguments: [token, String(ttlMs)] });
      return Number(reply) === 1;
    },
    async release() {
      await redis.eval(RELEASE, { keys: [key], arguments: [token] });
    },
  };
}
