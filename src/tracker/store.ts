/**
 * Where the tracker keeps its orders and guards. Key layout (prefix `p`, default `rampchat:`):
 *
 * - `<p>order:<id>`   hash: `order` (TrackedOrder JSON), `state` (TrackingState JSON), `rev` (the
 *                      state's revision, bumped by every save; absent = 0), `posted`
 *                      (last status posted to the user), `final` (`posting|<token>|<ms>` then `done`:
 *                      the final message guard).
 * - `<p>order:<id>:events` list: the order's timeline (OrderEvent JSON, oldest first, capped).
 * - `<p>deposit:<id>` string: the deposit guard (DepositMarker JSON), written SET NX before the call.
 * - `<p>tracking`     set: ids of orders not yet final (resumed by `start()`).
 * - `<p>user-orders:<channel>:<id>` sorted set: the ids of the orders a chat user made (scored by
 *                      creation), so history and tickets answer for the owner's orders only.
 *
 * The keys of a finished order expire after the retention period; the deposit marker outlives
 * any retry, so a re-tracked order can never be released twice.
 */
import type { RedisClientType } from 'redis';
import type { TrackedOrder } from '../flows/types.js';
import type { Logger } from '../log/logger.js';
import { createResilientClient } from '../store/connect.js';
import { runScript } from '../store/script.js';
import {
  type DepositMarker,
  depositMarkerSchema,
  type TrackingState,
  trackedOrderSchema,
  trackingStateSchema,
} from './state.js';
import {
  decodeOrderEvents,
  encodeOrderEvent,
  type OrderEvent,
  TIMELINE_MAX,
  timelineKey,
} from './timeline.js';

export interface StoredOrder {
  order: TrackedOrder;
  state: TrackingState;
  /** The revision `state` was read at: a save is only taken over this same revision. */
  rev: number;
  posted?: string;
  final?: string;
}

export type FinalClaim = 'claimed' | 'done' | 'busy';

/** How long a user's list of orders is kept after their last order (a little beyond order retention). */
const USER_ORDERS_TTL_MS = 45 * 24 * 3600_000;
const ownerKey = (order: TrackedOrder) => `${order.user.channel}:${order.user.id}`;

export interface TrackerStore {
  readonly kind: 'redis' | 'memory';
  /** Saves a new order; false when it is already stored (then nothing changes). */
  addOrder(order: TrackedOrder, state: TrackingState): Promise<boolean>;
  /** Reads an order back; throws when the stored record does not validate. */
  load(orderId: string): Promise<StoredOrder | undefined>;
  /**
   * Saves the state if the stored one is still at revision `rev` (compare-and-set): the new revision,
   * or undefined when another worker saved in between (or the order is gone) and nothing changed.
   */
  saveState(orderId: string, state: TrackingState, rev: number): Promise<number | undefined>;
  setPosted(orderId: string, key: string): Promise<void>;
  /** Takes the right to post the final message (or to take over a claim older than `staleMs`). */
  claimFinal(orderId: string, token: string, now: number, staleMs: number): Promise<FinalClaim>;
  releaseFinal(orderId: string, token: string): Promise<void>;
  /** Marks the final message posted and the order finished; keys expire after `retentionMs`. */
  completeFinal(orderId: string, retentionMs: number): Promise<void>;
  trackingIds(): Promise<string[]>;
  /** A chat user's order ids, newest first (`offset`/`limit` page them), and how many there are. */
  ordersOf(userKey: string, offset: number, limit: number): Promise<{ ids: string[]; total: number }>;
  countTracking(): Promise<number>;
  /** SET NX of the deposit marker: undefined when claimed, else the marker already there. */
  claimDeposit(orderId: string, marker: DepositMarker): Promise<DepositMarker | undefined>;
  getDeposit(orderId: string): Promise<DepositMarker | undefined>;
  setDeposit(orderId: string, marker: DepositMarker): Promise<void>;
  /** Deletes the marker only if it still holds this claim token. */
  releaseDeposit(orderId: string, token: string): Promise<boolean>;
  /** Appends to the order's timeline (nothing for an unknown order, or a repeat of a once-only event). */
  appendEvent(orderId: string, event: OrderEvent): Promise<void>;
  /** The order's timeline, oldest first. */
  timeline(orderId: string): Promise<OrderEvent[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** A stored record that does not validate: retrying cannot fix it, so it is reported, not retried. */
export class StoredStateError extends Error {
  override name = 'StoredStateError';
}

const parseJson = (what: string, text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    throw new StoredStateError(`Stored ${what} is not JSON`);
  }
};

function decodeOrder(orderId: string, fields: Record<string, string>): StoredOrder | undefined {
  if (!fields.order) return undefined;
  const order = trackedOrderSchema.safeParse(parseJson('order', fields.order));
  const state = trackingStateSchema.safeParse(parseJson('state', fields.state ?? '{}'));
  if (!order.success || !state.success) {
    const issues = [...(order.error?.issues ?? []), ...(state.error?.issues ?? [])]
      .map((i) => `${i.path.join('.')}: ${i.message}`)
      .join('; ');
    throw new StoredStateError(`Stored order ${orderId} does not validate: ${issues}`);
  }
  return {
    order: order.data,
    state: state.data,
    rev: Number(fields.rev ?? 0) || 0,
    posted: fields.posted,
    final: fields.final,
  };
}

function decodeMarker(text: string | null | undefined): DepositMarker | undefined {
  if (!text) return undefined;
  const parsed = depositMarkerSchema.safeParse(parseJson('deposit marker', text));
  if (!parsed.success)
    throw new StoredStateError(`Stored deposit marker does not validate: ${parsed.error.message}`);
  return parsed.data;
}

const finalClaimValue = (token: string, now: number) => `posting|${token}|${now}`;
const claimAge = (value: string, now: number): number => {
  const at = Number(value.split('|')[2]);
  return Number.isFinite(at) ? now - at : Number.POSITIVE_INFINITY;
};

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

/** Redis-backed store. Connects lazily on first use unless given a connected client. */
export function createRedisTrackerStore(opts: {
  url?: string;
  client?: Redis;
  prefix: string;
  logger?: Logger;
}): TrackerStore {
  const p = opts.prefix;
  const owned = !opts.client;
  const client: Redis =
    opts.client ??
    (createResilientClient({
      url: opts.url ?? '',
      name: 'tracker',
      queueWhileDown: true,
      logger: opts.logger,
    }) as Redis);
  let connecting: Promise<unknown> | undefined;
  const redis = async (): Promise<Redis> => {
    if (!client.isOpen) {
      connecting ??= client.connect();
      await connecting;
    }
    return client;
  };
  const orderKey = (id: string) => `${p}order:${id}`;
  const depositKey = (id: string) => `${p}deposit:${id}`;
  const trackingKey = `${p}tracking`;
  const userOrdersKey = (userKey: string) => `${p}user-orders:${userKey}`;

  return {
    kind: 'redis',
    async addOrder(order, state) {
      const added = await runScript(await redis(), ADD_ORDER, {
        keys: [orderKey(order.orderId), trackingKey, userOrdersKey(ownerKey(order))],
        arguments: [
          JSON.stringify(order),
          JSON.stringify(state),
          order.orderId,
          String(order.createdAt),
          String(USER_ORDERS_TTL_MS),
        ],
      });
      return Number(added) === 1;
    },
    async ordersOf(userKey, offset, limit) {
      const r = await redis();
      const key = userOrdersKey(userKey);
      const [ids, total] = await Promise.all([
        r.zRange(key, offset, offset + limit - 1, { REV: true }),
        r.zCard(key),
      ]);
      return { ids, total };
    },
    async load(orderId) {
      const fields = await (await redis()).hGetAll(orderKey(orderId));
      return decodeOrder(orderId, fields as Record<string, string>);
    },
    async saveState(orderId, state, rev) {
      const saved = Number(
        await runScript(await redis(), SAVE_STATE, {
          keys: [orderKey(orderId)],
          arguments: [JSON.stringify(state), String(rev)],
        }),
      );
      return saved > 0 ? saved : undefined;
    },
    async setPosted(orderId, key) {
      await (await redis()).hSet(orderKey(orderId), 'posted', key);
    },
    async claimFinal(orderId, token, now, staleMs) {
      const r = await redis();
      const result = await runScript(r, CLAIM_FINAL, {
        keys: [orderKey(orderId)],
        arguments: [finalClaimValue(token, now), String(now), String(staleMs)],
      });
      return String(result) as FinalClaim;
    },
    async releaseFinal(orderId, token) {
      const r = await redis();
      const claims = await r.hGet(orderKey(orderId), 'final');
      if (!claims?.startsWith(`posting|${token}|`)) return;
      await runScript(r, RELEASE_FINAL, { keys: [orderKey(orderId)], arguments: [claims] });
    },
    async completeFinal(orderId, retentionMs) {
      await runScript(await redis(), COMPLETE_FINAL, {
        keys: [orderKey(orderId), trackingKey, depositKey(orderId), timelineKey(p, orderId)],
        arguments: [orderId, String(Math.max(1, Math.round(retentionMs)))],
      });
    },
    async trackingIds() {
      const r = await redis();
      const ids: string[] = [];
      for await (const batch of r.sScanIterator(trackingKey, { COUNT: 1000 })) {
        ids.push(...(Array.isArray(batch) ? batch : [batch]).map(String));
      }
      return ids;
    },
    async countTracking() {
      return (await redis()).sCard(trackingKey);
    },
    async claimDeposit(orderId, marker) {
      const r = await redis();
      const ok = await r.set(depositKey(orderId), JSON.stringify(marker), { condition: 'NX' });
      if (ok) return undefined;
      const existing = decodeMarker(await r.get(depositKey(orderId)));
      if (!existing) throw new Error(`Deposit marker of ${orderId} vanished while claiming it`);
      return existing;
    },
    async getDeposit(orderId) {
      return decodeMarker(await (await redis()).get(depositKey(orderId)));
    },
    async setDeposit(orderId, marker) {
      await (await redis()).set(depositKey(orderId), JSON.stringify(marker));
    },
    async releaseDeposit(orderId, token) {
      const n = await runScript(await redis(), RELEASE_DEPOSIT, {
        keys: [depositKey(orderId)],
        arguments: [token],
      });
      return Number(n) === 1;
    },
    async appendEvent(orderId, event) {
      const { json, once } = encodeOrderEvent(event);
      await runScript(await redis(), APPEND_EVENT, {
        keys: [orderKey(orderId), timelineKey(p, orderId)],
        arguments: [json, once ?? '', String(TIMELINE_MAX)],
      });
    },
    async timeline(orderId) {
      return decodeOrderEvents(await (await redis()).lRange(timelineKey(p, orderId), 0, -1));
    },
    async ping() {
      await (await redis()).ping();
    },
    async close() {
      if (owned && client.isOpen) await client.close();
    },
  };
}

/** In-memory store for local mode (one process, nothing survives a restart). */
export function createMemoryTrackerStore(): TrackerStore {
  const orders = new Map<string, Record<string, string>>();
  const deposits = new Map<string, string>();
  const timelines = new Map<string, string[]>();
  const tracking = new Set<string>();
  const byUser = new Map<string, Array<{ id: string; at: number }>>();
  const fieldsOf = (id: string) => orders.get(id);

  return {
    kind: 'memory',
    async addOrder(order, state) {
      const existing = orders.get(order.orderId);
      if (existing?.order) return false;
      orders.set(order.orderId, { ...existing, order: JSON.stringify(order), state: JSON.stringify(state) });
      tracking.add(order.orderId);
      const mine = byUser.get(ownerKey(order)) ?? [];
      mine.push({ id: order.orderId, at: order.createdAt });
      byUser.set(ownerKey(order), mine);
      return true;
    },
    async ordersOf(userKey, offset, limit) {
      const mine = [...(byUser.get(userKey) ?? [])].sort((a, b) => b.at - a.at);
      return { ids: mine.slice(offset, offset + limit).map((o) => o.id), total: mine.length };
    },
    async load(orderId) {
      const f = fieldsOf(orderId);
      return f ? decodeOrder(orderId, f) : undefined;
    },
    async saveState(orderId, state, rev) {
      const f = fieldsOf(orderId);
      if (!f?.order || (Number(f.rev ?? 0) || 0) !== rev) return undefined;
      f.state = JSON.stringify(state);
      f.rev = String(rev + 1);
      return rev + 1;
    },
    async setPosted(orderId, key) {
      const f = fieldsOf(orderId);
      if (f) f.posted = key;
    },
    async claimFinal(orderId, token, now, staleMs) {
      const f = fieldsOf(orderId);
      if (!f) return 'busy';
      if (f.final === 'done') return 'done';
      if (f.final && claimAge(f.final, now) <= staleMs) return 'busy';
      f.final = finalClaimValue(token, now);
      return 'claimed';
    },
    async releaseFinal(orderId, token) {
      const f = fieldsOf(orderId);
      if (f?.final?.startsWith(`posting|${token}|`)) delete f.final;
    },
    async completeFinal(orderId) {
      const f = fieldsOf(orderId);
      if (f) f.final = 'done';
      tracking.delete(orderId);
    },
    async trackingIds() {
      return [...tracking];
    },
    async countTracking() {
      return tracking.size;
    },
    async claimDeposit(orderId, marker) {
      const existing = deposits.get(orderId);
      if (existing) return decodeMarker(existing);
      deposits.set(orderId, JSON.stringify(marker));
      return undefined;
    },
    async getDeposit(orderId) {
      return decodeMarker(deposits.get(orderId));
    },
    async setDeposit(orderId, marker) {
      deposits.set(orderId, JSON.stringify(marker));
    },
    async releaseDeposit(orderId, token) {
      const m = decodeMarker(deposits.get(orderId));
      if (m?.state !== 'intent' || m.token !== token) return false;
      deposits.delete(orderId);
      return true;
    },
    async appendEvent(orderId, event) {
      if (!orders.get(orderId)?.order) return;
      const { json, once } = encodeOrderEvent(event);
      const list = timelines.get(orderId) ?? [];
      if (once && list.some((e) => e.startsWith(once))) return;
      list.push(json);
      timelines.set(orderId, list.slice(-TIMELINE_MAX));
    },
    async timeline(orderId) {
      return decodeOrderEvents(timelines.get(orderId) ?? []);
    },
    async ping() {},
    async close() {},
  };
}
