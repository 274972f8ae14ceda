/**
 * The tracker store in Redis (key layout in ./store.ts). Each operation is one round trip (a
 * command, or a Lua script through `runScript`), as the per-poll cost is measured on them; the
 * client connects on first use unless one is given already connected.
 */
import type { RedisClientType } from 'redis';
import type { Logger } from '../log/logger.js';
import { connectOnFirstUse, createResilientClient } from '../store/connect.js';
import { redisKv } from '../store/keyed-redis.js';
import { runScript } from '../store/script.js';
import {
  decodeOrder,
  depositOps,
  finalClaimValue,
  orderCodec,
  ownerKey,
  stateCodec,
  trackerKeys,
  USER_ORDERS_TTL_MS,
} from './store-codec.js';
import type { FinalClaim, TrackerStore } from './store-types.js';
import { decodeOrderEvents, encodeOrderEvent, TIMELINE_MAX } from './timeline.js';

const ADD_ORDER = `
if redis.call('HSETNX', KEYS[1], 'order', ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[2])
redis.call('SADD', KEYS[2], ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[3])
redis.call('PEXPIRE', KEYS[3], ARGV[5])
return 1
`;
const SAVE_STATE = `
if redis.call('HEXISTS', KEYS[1], 'order') == 0 then return -1 end
local rev = tonumber(redis.call('HGET', KEYS[1], 'rev') or '0') or 0
if rev ~= tonumber(ARGV[2]) then return -1 end
redis.call('HSET', KEYS[1], 'state', ARGV[1], 'rev', rev + 1)
return rev + 1
`;
const CLAIM_FINAL = `
local v = redis.call('HGET', KEYS[1], 'final')
if not v then redis.call('HSET', KEYS[1], 'final', ARGV[1]) return 'claimed' end
if v == 'done' then return 'done' end
local at = tonumber(string.match(v, '|(%d+)$'))
if (not at) or (tonumber(ARGV[2]) - at > tonumber(ARGV[3])) then
  redis.call('HSET', KEYS[1], 'final', ARGV[1]) return 'claimed'
end
return 'busy'
`;
const RELEASE_FINAL = `
if redis.call('HGET', KEYS[1], 'final') == ARGV[1] then return redis.call('HDEL', KEYS[1], 'final') end
return 0
`;
const COMPLETE_FINAL = `
redis.call('HSET', KEYS[1], 'final', 'done')
redis.call('SREM', KEYS[2], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if redis.call('EXISTS', KEYS[3]) == 1 then redis.call('PEXPIRE', KEYS[3], ARGV[2]) end
if redis.call('EXISTS', KEYS[4]) == 1 then redis.call('PEXPIRE', KEYS[4], ARGV[2]) end
return 1
`;
/** Appends an entry unless the order is unknown or (ARGV[2] set) an entry starts with ARGV[2]; the list takes the order's expiry. */
const APPEND_EVENT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[2] ~= '' then
  local n = string.len(ARGV[2])
  for _, v in ipairs(redis.call('LRANGE', KEYS[2], 0, -1)) do
    if string.sub(v, 1, n) == ARGV[2] then return 0 end
  end
end
redis.call('RPUSH', KEYS[2], ARGV[1])
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[3]), -1)
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
return 1
`;
const RELEASE_DEPOSIT = `
local v = redis.call('GET', KEYS[1])
if not v then return 0 end
local ok, m = pcall(cjson.decode, v)
if ok and m.state == 'intent' and m.token == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

type Redis = RedisClientType;

/** What the parts of the Redis tracker store share. */
interface RedisTrackerContext {
  redis: () => Promise<Redis>;
  keys: ReturnType<typeof trackerKeys>;
  /** Runs a Lua script (one round trip). */
  script(lua: string, keys: string[], args: string[]): Promise<unknown>;
}

/** Redis-backed store. Connects lazily on first use unless given a connected client. */
export function createRedisTrackerStore(opts: {
  url?: string;
  client?: Redis;
  prefix: string;
  logger?: Logger;
}): TrackerStore {
  const owned = !opts.client;
  const client: Redis =
    opts.client ??
    (createResilientClient({
      url: opts.url ?? '',
      name: 'tracker',
      queueWhileDown: true,
      logger: opts.logger,
    }) as Redis);
  const redis = connectOnFirstUse(client);
  const ctx: RedisTrackerContext = {
    redis,
    keys: trackerKeys(opts.prefix),
    script: async (lua, k, args) => runScript(await redis(), lua, { keys: k, arguments: args }),
  };

  return {
    kind: 'redis',
    ...orderOps(ctx),
    ...finalOps(ctx),
    ...guardOps(ctx),
    async ping() {
      await (await redis()).ping();
    },
    async close() {
      if (owned && client.isOpen) await client.close();
    },
  };
}

/** Orders, their state (compare-and-set on `rev`) and the lists of them. */
function orderOps(
  ctx: RedisTrackerContext,
): Pick<
  TrackerStore,
  'addOrder' | 'ordersOf' | 'load' | 'saveState' | 'setPosted' | 'trackingIds' | 'countTracking'
> {
  const { redis, keys, script } = ctx;
  return {
    async addOrder(order, state) {
      const added = await script(
        ADD_ORDER,
        [keys.order(order.orderId), keys.tracking, keys.userOrders(ownerKey(order))],
        [
          orderCodec.encode(order),
          stateCodec.encode(state),
          order.orderId,
          String(order.createdAt),
          String(USER_ORDERS_TTL_MS),
        ],
      );
      return Number(added) === 1;
    },
    async ordersOf(userKey, offset, limit) {
      const r = await redis();
      const key = keys.userOrders(userKey);
      const [ids, total] = await Promise.all([
        r.zRange(key, offset, offset + limit - 1, { REV: true }),
        r.zCard(key),
      ]);
      return { ids, total };
    },
    async load(orderId) {
      const fields = await (await redis()).hGetAll(keys.order(orderId));
      return decodeOrder(orderId, fields as Record<string, string>);
    },
    async saveState(orderId, state, rev) {
      const saved = Number(
        await script(SAVE_STATE, [keys.order(orderId)], [stateCodec.encode(state), String(rev)]),
      );
      return saved > 0 ? saved : undefined;
    },
    async setPosted(orderId, key) {
      await (await redis()).hSet(keys.order(orderId), 'posted', key);
    },
    async trackingIds() {
      const ids: string[] = [];
      for await (const batch of (await redis()).sScanIterator(keys.tracking, { COUNT: 1000 })) {
        ids.push(...(Array.isArray(batch) ? batch : [batch]).map(String));
      }
      return ids;
    },
    async countTracking() {
      return (await redis()).sCard(keys.tracking);
    },
  };
}

/** The final message guard (the hash's `final` field). */
function finalOps(
  ctx: RedisTrackerContext,
): Pick<TrackerStore, 'claimFinal' | 'releaseFinal' | 'completeFinal'> {
  const { redis, keys, script } = ctx;
  return {
    async claimFinal(orderId, token, now, staleMs) {
      const result = await script(
        CLAIM_FINAL,
        [keys.order(orderId)],
        [finalClaimValue(token, now), String(now), String(staleMs)],
      );
      return String(result) as FinalClaim;
    },
    async releaseFinal(orderId, token) {
      const claims = await (await redis()).hGet(keys.order(orderId), 'final');
      if (!claims?.startsWith(`posting|${token}|`)) return;
      await script(RELEASE_FINAL, [keys.order(orderId)], [claims]);
    },
    async completeFinal(orderId, retentionMs) {
      await script(
        COMPLETE_FINAL,
        [keys.order(orderId), keys.tracking, keys.deposit(orderId), keys.timeline(orderId)],
        [orderId, String(Math.max(1, Math.round(retentionMs)))],
      );
    },
  };
}

/** The deposit guard and the order's timeline. */
function guardOps(
  ctx: RedisTrackerContext,
): Pick<
  TrackerStore,
  'claimDeposit' | 'getDeposit' | 'setDeposit' | 'releaseDeposit' | 'appendEvent' | 'timeline'
> {
  const { redis, keys, script } = ctx;
  return {
    ...depositOps(redisKv(redis), keys.deposit),
    async releaseDeposit(orderId, token) {
      return Number(await script(RELEASE_DEPOSIT, [keys.deposit(orderId)], [token])) === 1;
    },
    async appendEvent(orderId, event) {
      const { json, once } = encodeOrderEvent(event);
      await script(
        APPEND_EVENT,
        [keys.order(orderId), keys.timeline(orderId)],
        [json, once ?? '', String(TIMELINE_MAX)],
      );
    },
    async timeline(orderId) {
      return decodeOrderEvents(await (await redis()).lRange(keys.timeline(orderId), 0, -1));
    },
  };
}
