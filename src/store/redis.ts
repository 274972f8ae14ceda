/**
 * Redis session store. Key layout (prefix defaults to `rampchat:`):
 *
 * - `<p>user:<channel>:<id>`   hash `{ rev, base }`: revision and the long-lived part (version,
 *   locale, profile). No TTL, so a saved phone and wallets outlive abandoned flows.
 * - `<p>flow:<channel>:<id>`   string: the flow part, `EX flowTtlSeconds`, restarted on every save.
 * - `<p>seen:<updateId>`       `SET NX EX`: channel updates already handled.
 * - `<p>idem:<key>`            JSON claim/outcome of a `createOnrampOrder`, `SET NX EX`.
 *
 * Both session keys change together in one Lua compare-and-set on `rev`, so two processes never
 * lose each other's writes.
 */
import { createClient, type RedisClientType } from 'redis';
import {
  DEFAULT_DEDUPE_TTL_SECONDS,
  DEFAULT_IDEMPOTENCY_TTL_SECONDS,
  type IdempotencyClaim,
  type IdempotencyOutcome,
  type SessionParts,
  type SessionStore,
  type StoredSession,
  type StoreTtls,
} from './types.js';

const SAVE_IF_REVISION = `
local current = tonumber(redis.call('HGET', KEYS[1], 'rev') or '0')
if current ~= tonumber(ARGV[1]) then return -1 end
local nextRev = current + 1
redis.call('HSET', KEYS[1], 'rev', nextRev, 'base', ARGV[2])
redis.call('SET', KEYS[2], ARGV[3], 'EX', tonumber(ARGV[4]))
return nextRev
`;

export interface RedisStoreOptions extends StoreTtls {
  /** A connected client the caller owns, or `url` to let the store connect (and close) its own. */
  client?: RedisClientType;
  url?: string;
  prefix?: string;
}

/** Connects (when given a url) and returns a Redis-backed store. */
export async function createRedisStore(opts: RedisStoreOptions): Promise<SessionStore> {
  let client = opts.client;
  const owned = !client;
  if (!client) {
    if (!opts.url) throw new Error('createRedisStore needs a client or a url');
    client = createClient({ url: opts.url }) as RedisClientType;
    await client.connect();
  }
  const redis = client;
  const p = opts.prefix ?? 'rampchat:';
  const dedupeTtl = opts.dedupeTtlSeconds ?? DEFAULT_DEDUPE_TTL_SECONDS;
  const idemTtl = opts.idempotencyTtlSeconds ?? DEFAULT_IDEMPOTENCY_TTL_SECONDS;
  const userKey = (u: string) => `${p}user:${u}`;
  const flowKey = (u: string) => `${p}flow:${u}`;
  const idemKey = (k: string) => `${p}idem:${k}`;

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
      };
    },

    async save(user: string, expectedRev: number, parts: SessionParts): Promise<number | undefined> {
      const result = await redis.eval(SAVE_IF_REVISION, {
        keys: [userKey(user), flowKey(user)],
        arguments: [String(expectedRev), parts.base, parts.flow, String(opts.flowTtlSeconds)],
      });
      const rev = Number(result);
      return rev < 0 ? undefined : rev;
    },

    async markUpdateSeen(updateId: string): Promise<boolean> {
      const r = await redis.set(`${p}seen:${updateId}`, '1', {
        condition: 'NX',
        expiration: { type: 'EX', value: dedupeTtl },
      });
      return r === 'OK';
    },

    async claimIdempotencyKey(key: string): Promise<IdempotencyClaim> {
      const claim = JSON.stringify({ status: 'in_flight', since: Date.now() });
      for (;;) {
        const r = await redis.set(idemKey(key), claim, {
          condition: 'NX',
          expiration: { type: 'EX', value: idemTtl },
        });
        if (r === 'OK') return { status: 'claimed' };
        const existing = await redis.get(idemKey(key));
        // Released between our SET and GET: try to claim again.
        if (existing !== null) return JSON.parse(existing) as IdempotencyClaim;
      }
    },

    async recordIdempotencyOutcome(key: string, outcome: IdempotencyOutcome): Promise<void> {
      await redis.set(idemKey(key), JSON.stringify(outcome), { expiration: { type: 'EX', value: idemTtl } });
    },

    async releaseIdempotencyKey(key: string): Promise<void> {
      await redis.del(idemKey(key));
    },

    async close(): Promise<void> {
      if (owned) await redis.quit();
    },
  };
}
