/**
 * Sessions in Redis: the user hash `{ rev, base, chat }` and the flow part beside it. Both parts
 * change together in one Lua compare-and-set on `rev`, so two processes never lose each other's
 * writes.
 */

import { runScript } from '../script.js';
import type { SessionParts, SessionStore, StoredSession } from '../types.js';
import type { RedisStoreContext } from './redis-context.js';

const SAVE_IF_REVISION = `
local current = tonumber(redis.call('HGET', KEYS[1], 'rev') or '0')
if current ~= tonumber(ARGV[1]) then return -1 end
local nextRev = current + 1
redis.call('HSET', KEYS[1], 'rev', nextRev, 'base', ARGV[2])
redis.call('SET', KEYS[2], ARGV[3], 'EX', tonumber(ARGV[4]))
return nextRev
`;

/** A stored session from the user hash and the flow part (absent when expired). */
export function storedSession(
  hash: Record<string, string> | undefined,
  flow: string | undefined,
): StoredSession {
  const rev = Number(hash?.rev ?? 0);
  return { rev: Number.isFinite(rev) ? rev : 0, base: hash?.base, flow, chat: hash?.chat };
}

/** Loading and saving sessions and the chat's scratch. */
export function sessionOps(ctx: RedisStoreContext): Pick<SessionStore, 'load' | 'saveChat' | 'save'> {
  const { redis, keys } = ctx;
  return {
    async load(user: string): Promise<StoredSession> {
      const [hash, flow] = (await redis
        .multi()
        .hGetAll(keys.user(user))
        .get(keys.flow(user))
        .exec()) as unknown as [Record<string, string>, string | null];
      return storedSession(hash, flow ?? undefined);
    },

    async saveChat(user: string, chat: string): Promise<void> {
      await redis.hSet(keys.user(user), 'chat', chat);
    },

    async save(user: string, expectedRev: number, parts: SessionParts): Promise<number | undefined> {
      const result = await runScript(redis, SAVE_IF_REVISION, {
        keys: [keys.user(user), keys.flow(user)],
        arguments: [String(expectedRev), parts.base, parts.flow, String(ctx.flowTtlSeconds)],
      });
      const rev = Number(result);
      return rev < 0 ? undefined : rev;
    },
  };
}
