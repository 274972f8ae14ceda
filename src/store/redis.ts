/**
 * Redis session store. Key layout (prefix defaults to `rampchat:`):
 *
 * - `<p>user:<channel>:<id>`   hash `{ rev, base, chat }`: revision, the long-lived part (version,
 *   locale, profile) and the channel's scratch for the chat. No TTL, so a saved phone and wallets
 *   outlive abandoned flows.
 * - `<p>flow:<channel>:<id>`   string: the flow part, `EX flowTtlSeconds`, restarted on every save.
 * - `<p>seen:<updateId>`       `pending` once taken, `done` once handled (`EX dedupeTtlSeconds`).
 * - `<p>chat-lock:<user>`      the per-chat lock, `PX` its lifetime, renewed while held.
 * - `<p>idem:<key>`            JSON claim/outcome of a `createOnrampOrder`, `SET NX EX`.
 * - `<p>idem-pending`          sorted set of claims with no outcome yet, scored by when each may be
 *   handed to a reconciler (the claim time, then the end of each lease); `<p>idem-pending-data` is
 *   the hash of their data (`{ claimedAt, data }` JSON). Listed and unlisted together with the claim.
 * - `<p>idem-order:<orderId>`  the key a created order was recorded under.
 *
 * Both session keys change together in one Lua compare-and-set on `rev`, so two processes never
 * lose each other's writes. An update takes three round trips: `begin` (lock, de-duplicate, load in
 * one script), the compare-and-set save, and `finish` (mark handled, release in one script).
 */
import { randomUUID } from 'node:crypto';
import type { RedisClientType } from 'redis';
import type { Logger } from '../log/logger.js';
import { connectRedis } from './connect.js';
import { runScript } from './script.js';
import {
  DEFAULT_DEDUPE_TTL_SECONDS,
  DEFAULT_IDEMPOTENCY_TTL_SECONDS,
  type IdempotencyClaim,
  type IdempotencyOutcome,
  type PendingClaim,
  type SessionParts,
  type SessionStore,
  type StoredSession,
  type StoreTtls,
} from './types.js';

/** The per-chat lock: renewed and released only by its holder. */
const RENEW_IF_OWNER = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`;
const DELETE_IF_OWNER = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/**
 * Takes the chat's lock (unless ARGV[5] = '1': going on without it), de-duplicates the update
 * (ARGV[4] = '1': there is one) and loads the session. Returns {'locked'}, {'done'} (lock released),
 * or {status, hash as a flat list, has flow 0/1, flow}.
 */
const BEGIN = `
local forced = ARGV[5] == '1'
if not forced and not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', tonumber(ARGV[2])) then
  return {'locked'}
end
local status = 'new'
if ARGV[4] == '1' then
  local seen = redis.call('GET', KEYS[2])
  if seen == 'done' then
    if not forced then redis.call('DEL', KEYS[1]) end
    return {'done'}
  end
  if seen then status = 'unfinished' else redis.call('SET', KEYS[2], 'pending', 'EX', tonumber(ARGV[3])) end
end
local flow = redis.call('GET', KEYS[4])
return {status, redis.call('HGETALL', KEYS[3]), flow and 1 or 0, flow or ''}
`;

/**
 * Marks the update handled (ARGV[2] = '1'), saves the chat's scratch (ARGV[4] unless empty) and
 * releases the lock if this holder still has it.
 */
const FINISH = `
if ARGV[2] == '1' then redis.call('SET', KEYS[2], 'done', 'EX', tonumber(ARGV[3])) end
if ARGV[4] ~= '' then redis.call('HSET', KEYS[3], 'chat', ARGV[4]) end
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`;

const SAVE_IF_REVISION = `
local current = tonumber(redis.call('HGET', KEYS[1], 'rev') or '0')
if current ~= tonumber(ARGV[1]) then return -1 end
local nextRev = current + 1
redis.call('HSET', KEYS[1], 'rev', nextRev, 'base', ARGV[2])
redis.call('SET', KEYS[2], ARGV[3], 'EX', tonumber(ARGV[4]))
return nextRev
`;

/** SET NX the claim and, when it wins and data is given, list it. '' when claimed, else the holder's JSON. */
const CLAIM = `
local ok = redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', tonumber(ARGV[2]))
if not ok then return redis.call('GET', KEYS[1]) end
if ARGV[5] ~= '' then
  redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
  redis.call('HSET', KEYS[3], ARGV[4], ARGV[5])
end
return ''
`;

/** Hands out due listed claims, each pushed back by the lease; drops entries whose data is gone. */
const TAKE_DUE = `
local keys = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
local out = {}
for _, k in ipairs(keys) do
  local d = redis.call('HGET', KEYS[2], k)
  if d then
    redis.call('ZADD', KEYS[1], ARGV[2], k)
    out[#out + 1] = k
    out[#out + 1] = d
  else
    redis.call('ZREM', KEYS[1], k)
  end
end
return out
`;

/** Replaces a listed claim's data, keeping its claim time; 0 when it is no longer listed. */
const UPDATE_PENDING = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return 0 end
local claimedAt = string.match(current, '"claimedAt":(%d+)')
if not claimedAt then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], '{"claimedAt":' .. claimedAt .. ',"data":' .. ARGV[2] .. '}')
return 1
`;

/** Unlists the claim and records the outcome, only if it was listed and still in flight. */
const SETTLE = `
if not redis.call('ZSCORE', KEYS[2], ARGV[1]) then return 0 end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
local current = redis.call('GET', KEYS[1])
if current then
  local ok, v = pcall(cjson.decode, current)
  if ok and type(v) == 'table' and v.status ~= 'in_flight' then return 0 end
end
redis.call('SET', KEYS[1], ARGV[2], 'EX', tonumber(ARGV[3]))
if ARGV[4] ~= '' then redis.call('SET', KEYS[4], ARGV[1], 'EX', tonumber(ARGV[3])) end
return 1
`;

export interface RedisStoreOptions extends StoreTtls {
  /** A connected client the caller owns, or `url` to let the store connect (and close) its own. */
  client?: RedisClientType;
  url?: string;
  prefix?: string;
  /** Where a lost connection is reported (a store that connects its own client). */
  logger?: Logger;
}

/** Connects (when given a url) and returns a Redis-backed store. */
export async function createRedisStore(opts: RedisStoreOptions): Promise<SessionStore> {
  let client = opts.client;
  const owned = !client;
  if (!client) {
    if (!opts.url) throw new Error('createRedisStore needs a client or a url');
    client = await connectRedis({ url: opts.url, name: 'sessions', logger: opts.logger });
  }
  const redis = client;
  const p = opts.prefix ?? 'rampchat:';
  const dedupeTtl = opts.dedupeTtlSeconds ?? DEFAULT_DEDUPE_TTL_SECONDS;
  const idemTtl = opts.idempotencyTtlSeconds ?? DEFAULT_IDEMPOTENCY_TTL_SECONDS;
  const userKey = (u: string) => `${p}user:${u}`;
  const flowKey = (u: string) => `${p}flow:${u}`;
  const idemKey = (k: string) => `${p}idem:${k}`;
  const pendingSet = `${p}idem-pending`;
  const pendingData = `${p}idem-pending-data`;
  const orderKey = (orderId: string) => `${p}idem-order:${orderId}`;
  const orderIdOf = (o: IdempotencyOutcome) => (o.status === 'created' ? o.orderId : '');
  const chatLockKey = (u: string) => `${p}chat-lock:${u}`;
  /** Renews a held chat lock every third of its lifetime; returns how to stop. */
  const renewWhileHeld = (key: string, token: string, ttlMs: number) => {
    const renew = setInterval(
      () => {
        runScript(redis, RENEW_IF_OWNER, { keys: [key], arguments: [token, String(ttlMs)] }).catch(() => {});
      },
      Math.max(100, Math.floor(ttlMs / 3)),
    );
    renew.unref();
    return () => clearInterval(renew);
  };

  return {
    kind: 'redis',

    async load(user: string): Promise<StoredSession> {
      const [hash, flow] = (await redis
        .multi()
        .hGetAll(userKey(user))
        .get(flowKey(user))
        .exec()) as unknown as [Record<string, string>, string | null];
      const rev = Number(hash?.rev ?? 0);
      return {
        rev: Number.isFinite(rev) ? rev : 0,
        base: hash?.base,
        flow: flow ?? undefined,
        chat: hash?.chat,
      };
    },

    async saveChat(user: string, chat: string): Promise<void> {
      await redis.hSet(userKey(user), 'chat', chat);
    },

    async save(user: string, expectedRev: number, parts: SessionParts): Promise<number | undefined> {
      const result = await runScript(redis, SAVE_IF_REVISION, {
        keys: [userKey(user), flowKey(user)],
        arguments: [String(expectedRev), parts.base, parts.flow, String(opts.flowTtlSeconds)],
      });
      const rev = Number(result);
      return rev < 0 ? undefined : rev;
    },

    async begin(user, opts = {}) {
      const lockKey = chatLockKey(user);
      const seenKey = `${p}seen:${opts.updateId ?? '-'}`;
      const token = `${process.pid}:${randomUUID()}`;
      const ttlMs = opts.ttlMs ?? 15_000;
      const deadline = Date.now() + (opts.waitMs ?? 10_000);
      let forced = false;
      for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
        const r = (await runScript(redis, BEGIN, {
          keys: [lockKey, seenKey, userKey(user), flowKey(user)],
          arguments: [token, String(ttlMs), String(dedupeTtl), opts.updateId ? '1' : '0', forced ? '1' : '0'],
        })) as [string, string[]?, number?, string?];
        if (r[0] === 'locked') {
          if (Date.now() >= deadline) {
            opts.onTimeout?.();
            forced = true;
            continue;
          }
          await new Promise((resolve) => setTimeout(resolve, wait));
          continue;
        }
        if (r[0] === 'done') return { status: 'done', session: { rev: 0 }, finish: async () => {} };
        const flat = r[1] ?? [];
        const hash: Record<string, string> = {};
        for (let i = 0; i + 1 < flat.length; i += 2) hash[flat[i] as string] = flat[i + 1] as string;
        const rev = Number(hash.rev ?? 0);
        const stopRenewing = forced ? () => {} : renewWhileHeld(lockKey, token, ttlMs);
        return {
          status: r[0] as 'new' | 'unfinished',
          session: {
            rev: Number.isFinite(rev) ? rev : 0,
            base: hash.base,
            flow: r[2] === 1 ? r[3] : undefined,
            chat: hash.chat,
          },
          finish: async ({ done, chat }) => {
            stopRenewing();
            await runScript(redis, FINISH, {
              keys: [lockKey, seenKey, userKey(user)],
              arguments: [token, done && opts.updateId ? '1' : '0', String(dedupeTtl), chat ?? ''],
            });
          },
        };
      }
    },

    async lockChat(user, opts = {}) {
      const key = chatLockKey(user);
      const token = `${process.pid}:${randomUUID()}`;
      const ttlMs = opts.ttlMs ?? 15_000;
      const deadline = Date.now() + (opts.waitMs ?? 10_000);
      let held = false;
      for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
        held =
          (await redis.set(key, token, { condition: 'NX', expiration: { type: 'PX', value: ttlMs } })) ===
          'OK';
        if (held || Date.now() >= deadline) break;
        await new Promise((r) => setTimeout(r, wait));
      }
      if (!held) {
        opts.onTimeout?.();
        return async () => {};
      }
      const stopRenewing = renewWhileHeld(key, token, ttlMs);
      return async () => {
        stopRenewing();
        await runScript(redis, DELETE_IF_OWNER, { keys: [key], arguments: [token] }).catch(() => {});
      };
    },

    async markUpdateDone(updateId: string) {
      await redis.set(`${p}seen:${updateId}`, 'done', { expiration: { type: 'EX', value: dedupeTtl } });
    },

    async isUpdateDone(updateId: string) {
      return (await redis.get(`${p}seen:${updateId}`)) === 'done';
    },

    async markUpdateSeen(updateId: string): Promise<boolean> {
      const r = await redis.set(`${p}seen:${updateId}`, 'pending', {
        condition: 'NX',
        expiration: { type: 'EX', value: dedupeTtl },
      });
      return r === 'OK';
    },

    async claimIdempotencyKey(key: string, data?: unknown): Promise<IdempotencyClaim> {
      const since = Date.now();
      const listed = data === undefined ? '' : JSON.stringify({ claimedAt: since, data });
      const r = await runScript(redis, CLAIM, {
        keys: [idemKey(key), pendingSet, pendingData],
        arguments: [
          JSON.stringify({ status: 'in_flight', since }),
          String(idemTtl),
          String(since),
          key,
          listed,
        ],
      });
      if (r === '') return { status: 'claimed' };
      return JSON.parse(String(r)) as IdempotencyClaim;
    },

    async recordIdempotencyOutcome(key: string, outcome: IdempotencyOutcome): Promise<void> {
      const tx = redis
        .multi()
        .set(idemKey(key), JSON.stringify(outcome), { expiration: { type: 'EX', value: idemTtl } })
        .zRem(pendingSet, key)
        .hDel(pendingData, key);
      const orderId = orderIdOf(outcome);
      if (orderId) tx.set(orderKey(orderId), key, { expiration: { type: 'EX', value: idemTtl } });
      await tx.exec();
    },

    async releaseIdempotencyKey(key: string): Promise<void> {
      await redis.multi().del(idemKey(key)).zRem(pendingSet, key).hDel(pendingData, key).exec();
    },

    async takeStaleClaims(claimedBefore, { leaseMs, limit }): Promise<PendingClaim[]> {
      const flat = (await runScript(redis, TAKE_DUE, {
        keys: [pendingSet, pendingData],
        arguments: [String(claimedBefore), String(claimedBefore + leaseMs), String(limit)],
      })) as string[];
      const out: PendingClaim[] = [];
      for (let i = 0; i + 1 < flat.length; i += 2) {
        const key = flat[i] as string;
        try {
          const v = JSON.parse(flat[i + 1] as string) as { claimedAt?: unknown; data?: unknown };
          out.push({ key, claimedAt: Number(v.claimedAt), data: v.data });
        } catch {
          out.push({ key, claimedAt: Number.NaN, data: undefined });
        }
      }
      return out;
    },

    async updatePendingClaim(key: string, data: unknown): Promise<boolean> {
      const r = await runScript(redis, UPDATE_PENDING, {
        keys: [pendingData],
        arguments: [key, JSON.stringify(data)],
      });
      return Number(r) === 1;
    },

    async listPendingClaims(): Promise<PendingClaim[]> {
      const all = await redis.hGetAll(pendingData);
      return Object.entries(all).map(([key, raw]) => {
        try {
          const v = JSON.parse(raw) as { claimedAt?: unknown; data?: unknown };
          return { key, claimedAt: Number(v.claimedAt), data: v.data };
        } catch {
          return { key, claimedAt: Number.NaN, data: undefined };
        }
      });
    },

    async settleStaleClaim(key, outcome): Promise<boolean> {
      const orderId = orderIdOf(outcome);
      const r = await runScript(redis, SETTLE, {
        keys: [idemKey(key), pendingSet, pendingData, orderKey(orderId || '-')],
        arguments: [key, JSON.stringify(outcome), String(idemTtl), orderId],
      });
      return Number(r) === 1;
    },

    async keyOfOrder(orderId: string): Promise<string | undefined> {
      return (await redis.get(orderKey(orderId))) ?? undefined;
    },

    async close(): Promise<void> {
      if (owned) await redis.quit();
    },
  };
}
