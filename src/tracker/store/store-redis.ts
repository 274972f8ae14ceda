/**
 * The tracker store in Redis (key layout in ./store.ts). Each operation is one round trip (a
 * command, or a Lua script through `runScript`), as the per-poll cost is measured on them; the
 * client connects on first use unless one is given already connected.
 */
import type { RedisClientType } from 'redis';
import type { Logger } from '../../log/logger.js';
import { connectOnFirstUse, createResilientClient } from '../../store/connection/connect.js';
import { redisKv } from '../../store/keyed/keyed-redis.js';
import { runScript } from '../../store/script.js';
import {
  decodeOrder,
  depositOps,
  finalClaimValue,
  ownerKey,
  trackerKeys,
  USER_ORDERS_TTL_MS,
} from './store-codec.js';
import { flatPairs, orderFields, STATE_FIELDS, stateFields } from './store-fields.js';
import {
  ADD_ORDER,
  APPEND_EVENT,
  CLAIM_FINAL,
  COMPLETE_FINAL,
  RELEASE_DEPOSIT,
  RELEASE_FINAL,
  SAVE_STATE,
} from './store-scripts.js';
import type { FinalClaim, TrackerStore } from './store-types.js';
import { encodeOrderEvent, storedTimeline, TIMELINE_MAX } from './timeline.js';

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
      const id = order.orderId;
      // The sweep's due set lists the pending orders: a new order goes there, due at its first poll.
      const due = String(state.nextDueAt ?? Date.now());
      const added = await script(
        ADD_ORDER,
        [keys.order(id), keys.due, keys.userOrders(ownerKey(order))],
        [
          id,
          String(order.createdAt),
          String(USER_ORDERS_TTL_MS),
          due,
          ...flatPairs({ ...orderFields(order), ...stateFields(state) }),
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
      const fields = stateFields(state);
      const clear = STATE_FIELDS.filter((f) => !(f in fields));
      const saved = Number(
        await script(
          SAVE_STATE,
          [keys.order(orderId)],
          [String(rev), JSON.stringify(state), String(clear.length), ...clear, ...flatPairs(fields)],
        ),
      );
      return saved > 0 ? saved : undefined;
    },
    async setPosted(orderId, key) {
      await (await redis()).hSet(keys.order(orderId), 'posted', key);
    },
    async trackingIds() {
      const r = await redis();
      const ids = new Set<string>();
      for await (const batch of r.sScanIterator(keys.tracking, { COUNT: 1000 })) {
        for (const id of Array.isArray(batch) ? batch : [batch]) ids.add(String(id));
      }
      for (const id of await r.zRange(keys.due, 0, -1)) ids.add(id);
      return [...ids];
    },
    async countTracking() {
      const r = await redis();
      const [inSet, due] = await Promise.all([r.sCard(keys.tracking), r.zCard(keys.due)]);
      return inSet + due;
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
        [keys.order(orderId), keys.tracking, keys.deposit(orderId), keys.timeline(orderId), keys.due],
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
      const r = await redis();
      const [fields, legacy] = await Promise.all([
        r.hGetAll(keys.order(orderId)),
        r.lRange(keys.timeline(orderId), 0, -1),
      ]);
      return storedTimeline(fields as Record<string, string>, legacy);
    },
  };
}
