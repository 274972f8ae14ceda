/**
 * The keyed-storage port over node-redis: each call is one command, one MULTI or one Lua script
 * (through `runScript`, by SHA-1), so a store built on it makes the round trips it made before.
 */
import type { RedisClientType } from 'redis';
import { runScript } from '../script.js';
import type { TextKv, Ttl } from './keyed.js';

/** A connected client, or how to get one (e.g. `connectOnFirstUse`). */
export type RedisSource = RedisClientType | (() => Promise<RedisClientType>);

/**
 * Writes ARGV[3] if the key holds ARGV[2] (ARGV[1] = '1') or is absent (ARGV[1] = '0'); ARGV[4] is
 * the TTL in ms, 'keep' (KEEPTTL) or '' (none).
 */
const COMPARE_AND_SET = `
local cur = redis.call('GET', KEYS[1])
if ARGV[1] == '1' then
  if cur ~= ARGV[2] then return 0 end
elseif cur then
  return 0
end
if ARGV[4] == 'keep' then redis.call('SET', KEYS[1], ARGV[3], 'KEEPTTL')
elseif ARGV[4] == '' then redis.call('SET', KEYS[1], ARGV[3])
else redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4]) end
return 1
`;

const COMPARE_AND_DELETE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

const ttlArgument = (ttl: Ttl): string => (ttl === undefined ? '' : ttl === 'keep' ? 'keep' : String(ttl.ms));

/** The node-redis SET options of a TTL. */
export function setOptions(ttl: Ttl, nx = false) {
  return {
    ...(nx ? { condition: 'NX' as const } : {}),
    ...(ttl === undefined
      ? {}
      : ttl === 'keep'
        ? { expiration: 'KEEPTTL' as const }
        : { expiration: { type: 'PX' as const, value: ttl.ms } }),
  };
}

/** The keyed-storage port over a node-redis client. */
export function redisKv(source: RedisSource): TextKv {
  const redis = typeof source === 'function' ? source : async () => source;
  return {
    async get(key) {
      return (await (await redis()).get(key)) ?? undefined;
    },
    async set(key, value, opts = {}) {
      return (await (await redis()).set(key, value, setOptions(opts.ttl, opts.nx))) === 'OK';
    },
    async setAll(entries, ttl) {
      const tx = (await redis()).multi();
      for (const [key, value] of entries) tx.set(key, value, setOptions(ttl));
      await tx.exec();
    },
    async compareAndSet(key, expected, next, ttl) {
      const done = await runScript(await redis(), COMPARE_AND_SET, {
        keys: [key],
        arguments: [expected === undefined ? '0' : '1', expected ?? '', next, ttlArgument(ttl)],
      });
      return Number(done) === 1;
    },
    async compareAndDelete(key, expected) {
      const n = await runScript(await redis(), COMPARE_AND_DELETE, { keys: [key], arguments: [expected] });
      return Number(n) === 1;
    },
    async del(key) {
      await (await redis()).del(key);
    },
  };
}
