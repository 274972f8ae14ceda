/**
 * Idempotency keys in Redis: `<p>idem:<key>` holds the JSON claim/outcome of a `createOnrampOrder`
 * (`SET NX EX`); `<p>idem-pending` is the sorted set of claims with no outcome yet, scored by when
 * each may be handed to a reconciler (the claim time, then the end of each lease), and
 * `<p>idem-pending-data` the hash of their data (`{ claimedAt, data }` JSON), listed and unlisted
 * together with the claim; `<p>idem-order:<orderId>` the key a created order was recorded under.
 */
import * as z from 'zod';
import { jsonCodec } from '../keyed/keyed.js';
import { runScript } from '../script.js';
import type { IdempotencyClaim, IdempotencyOps, IdempotencyOutcome, PendingClaim } from '../types.js';
import type { RedisStoreContext } from './redis-context.js';

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

/** A listed claim's data as stored; text that is not a JSON object lists with no time and no data. */
const listedCodec = jsonCodec(z.object({ claimedAt: z.unknown().optional(), data: z.unknown().optional() }));

function listedClaim(key: string, raw: string): PendingClaim {
  const listed = listedCodec.decode(raw);
  if (!listed.ok) return { key, claimedAt: Number.NaN, data: undefined };
  return { key, claimedAt: Number(listed.value.claimedAt), data: listed.value.data };
}

const orderIdOf = (o: IdempotencyOutcome) => (o.status === 'created' ? o.orderId : '');

/** Claiming, recording and reconciling idempotency keys. */
export function claimOps(ctx: RedisStoreContext): IdempotencyOps {
  const { redis, keys } = ctx;
  const idemTtl = ctx.idempotencyTtlSeconds;
  const expiry = { expiration: { type: 'EX' as const, value: idemTtl } };
  return {
    async claimIdempotencyKey(key: string, data?: unknown): Promise<IdempotencyClaim> {
      const since = Date.now();
      const listed = data === undefined ? '' : JSON.stringify({ claimedAt: since, data });
      const r = await runScript(redis, CLAIM, {
        keys: [keys.idem(key), keys.pendingSet, keys.pendingData],
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
        .set(keys.idem(key), JSON.stringify(outcome), expiry)
        .zRem(keys.pendingSet, key)
        .hDel(keys.pendingData, key);
      const orderId = orderIdOf(outcome);
      if (orderId) tx.set(keys.order(orderId), key, expiry);
      await tx.exec();
    },

    async releaseIdempotencyKey(key: string): Promise<void> {
      await redis.multi().del(keys.idem(key)).zRem(keys.pendingSet, key).hDel(keys.pendingData, key).exec();
    },

    async takeStaleClaims(claimedBefore, { leaseMs, limit }): Promise<PendingClaim[]> {
      const flat = (await runScript(redis, TAKE_DUE, {
        keys: [keys.pendingSet, keys.pendingData],
        arguments: [String(claimedBefore), String(claimedBefore + leaseMs), String(limit)],
      })) as string[];
      const out: PendingClaim[] = [];
      for (let i = 0; i + 1 < flat.length; i += 2)
        out.push(listedClaim(flat[i] as string, flat[i + 1] as string));
      return out;
    },

    async updatePendingClaim(key: string, data: unknown): Promise<boolean> {
      const r = await runScript(redis, UPDATE_PENDING, {
        keys: [keys.pendingData],
        arguments: [key, JSON.stringify(data)],
      });
      return Number(r) === 1;
    },

    async listPendingClaims(): Promise<PendingClaim[]> {
      const all = await redis.hGetAll(keys.pendingData);
      return Object.entries(all).map(([key, raw]) => listedClaim(key, raw));
    },

    async settleStaleClaim(key, outcome): Promise<boolean> {
      const orderId = orderIdOf(outcome);
      const r = await runScript(redis, SETTLE, {
        keys: [keys.idem(key), keys.pendingSet, keys.pendingData, keys.order(orderId || '-')],
        arguments: [key, JSON.stringify(outcome), String(idemTtl), orderId],
      });
      return Number(r) === 1;
    },

    async keyOfOrder(orderId: string): Promise<string | undefined> {
      return (await redis.get(keys.order(orderId))) ?? undefined;
    },
  };
}
