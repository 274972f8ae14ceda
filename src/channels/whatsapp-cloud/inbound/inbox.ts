/**
 * Incoming messages kept in Redis until handled. A webhook post is answered 200 only once each of
 * its new messages is in the inbox (one script with its duplicate mark, so a message is never marked
 * seen and not kept). A message is taken off the inbox when handled; while a replica holds it, its
 * lease is renewed. A stopping replica hands back the messages it has not begun (their lease ends at
 * once), and a replica that died leaves its leases to run out: every replica takes up inbox messages
 * whose lease ended, each user's in the order they were sent. A message handled twice (a replica died
 * between the answer and the removal) is dropped by the engine by its id.
 */
import type { RedisClientType } from 'redis';
import { runScript } from '../../../store/script.js';
import type { CloudKeys } from '../keys.js';
import { type InboundMessage, inboundMessageSchema } from './schemas.js';

/** Redis's clock in ms, so every replica judges leases alike. */
const NOW = `local t = redis.call('TIME') local now = t[1] * 1000 + math.floor(t[2] / 1000)`;

/**
 * KEYS: inbox, leases, arrival counter, seen marks…; ARGV: seen TTL s, lease ms, then id and body per
 * message. Each body is kept behind its arrival number, so messages taken up keep their order.
 */
const KEEP = `${NOW}
local kept = {}
for i = 4, #KEYS do
  local id, body = ARGV[2 * i - 5], ARGV[2 * i - 4]
  if redis.call('SET', KEYS[i], '1', 'NX', 'EX', ARGV[1]) then
    redis.call('HSET', KEYS[1], id, redis.call('INCR', KEYS[3]) .. ' ' .. body)
    redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), id)
    kept[#kept + 1] = id
  end
end
return kept`;

/** KEYS: inbox, leases; ARGV: lease ms, how many. Leases and returns messages whose lease ended. */
const TAKE = `${NOW}
local ids = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, tonumber(ARGV[2]))
local out = {}
for _, id in ipairs(ids) do
  local body = redis.call('HGET', KEYS[1], id)
  if body then
    redis.call('ZADD', KEYS[2], now + tonumber(ARGV[1]), id)
    out[#out + 1] = body
  else
    redis.call('ZREM', KEYS[2], id)
  end
end
return out`;

/** KEYS: leases; ARGV: ms from now, ids. Moves the leases of held messages (0: hands them back). */
const LEASE = `${NOW}
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[i]) end
return 1`;

export interface Inbox {
  /** Keeps the messages never seen before; resolves with them (rejects while Redis is down). */
  keep(messages: InboundMessage[], seenTtlSeconds: number): Promise<InboundMessage[]>;
  /** Messages whose lease ended (handed back, or left by a replica that died), in arrival order. */
  take(limit: number): Promise<InboundMessage[]>;
  /** The message was handled: off the inbox. */
  done(id: string): Promise<void>;
  /** Renews the leases of messages this replica holds. */
  renew(ids: string[]): Promise<void>;
  /** Hands messages back now, or after `inMs` (a Redis outage met them). */
  handBack(ids: string[], inMs?: number): Promise<void>;
}

/** The inbox of one business number; `leaseMs` is how long a replica holds a message unrenewed. */
export function createInbox(redis: RedisClientType, keys: CloudKeys, leaseMs: number): Inbox {
  const inbox = `${keys.base}inbox`;
  const leases = `${keys.base}inbox-leases`;
  const arrivals = `${keys.base}inbox-arrivals`;
  const lease = async (ids: string[], inMs: number) => {
    if (ids.length) await runScript(redis, LEASE, { keys: [leases], arguments: [String(inMs), ...ids] });
  };
  return {
    async keep(messages, seenTtlSeconds) {
      if (!messages.length) return [];
      const kept = (await runScript(redis, KEEP, {
        keys: [inbox, leases, arrivals, ...messages.map((m) => keys.seen(m.id))],
        arguments: [
          String(seenTtlSeconds),
          String(leaseMs),
          ...messages.flatMap((m) => [m.id, JSON.stringify(m)]),
        ],
      })) as string[];
      const ids = new Set(kept);
      return messages.filter((m) => ids.has(m.id));
    },
    async take(limit) {
      const bodies = (await runScript(redis, TAKE, {
        keys: [inbox, leases],
        arguments: [String(leaseMs), String(limit)],
      })) as string[];
      const messages: Array<{ n: number; msg: InboundMessage }> = [];
      for (const kept of bodies) {
        const space = kept.indexOf(' ');
        const parsed = inboundMessageSchema.safeParse(safeJson(kept.slice(space + 1)));
        if (parsed.success) messages.push({ n: Number(kept.slice(0, space)), msg: parsed.data });
      }
      return messages.sort((a, b) => a.n - b.n).map((m) => m.msg);
    },
    async done(id) {
      await redis.multi().hDel(inbox, id).zRem(leases, id).exec();
    },
    renew: (ids) => lease(ids, leaseMs),
    handBack: (ids, inMs = 0) => lease(ids, inMs),
  };
}

/** The JSON in `raw`, or undefined when it is not JSON. */
export const safeJson = (raw: string): unknown => {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
};
