/**
 * One chat's updates in Redis: the per-chat lock (`<p>chat-lock:<user>`, `PX` its lifetime, renewed
 * while held, released only by its holder) and update de-duplication (`<p>seen:<updateId>`:
 * `pending` once taken, `done` once handled). `begin` and `finish` each do their part in one Lua
 * script; a step whose save can wait (see src/engine/apply.ts) is saved by `finish`'s script, so such
 * an update costs two round trips, and three with the session's own save between them otherwise.
 */
import { randomUUID } from 'node:crypto';
import { ChatBusyError } from '../errors.js';
import { runScript } from '../script.js';
import type { BegunUpdate, SessionStore } from '../types.js';
import type { RedisStoreContext } from './redis-context.js';
import { storedSession } from './redis-sessions.js';

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
 * Takes the chat's lock (unless ARGV[5] = '1': going on without it; a lock that already holds this
 * token, ARGV[1], is this process's own, left by a finish Redis did not answer, and taken back at
 * once), de-duplicates the update
 * (ARGV[4] = '1': there is one) and loads the session. Returns {'locked'}, {'done'} (lock released),
 * or {status, hash as a flat list, has flow 0/1, flow}.
 */
const BEGIN = `
local forced = ARGV[5] == '1'
if not forced and not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', tonumber(ARGV[2])) then
  if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {'locked'} end
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
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
 * With ARGV[5] = '1', first saves the session with compare-and-set (as SAVE_IF_REVISION: from
 * revision ARGV[6], base ARGV[7], flow ARGV[8] for ARGV[9] s) and returns -1 with nothing done when
 * the revision moved. Then marks the update handled (ARGV[2] = '1'), saves the chat's scratch
 * (ARGV[4] unless empty) and releases the lock if this holder still has it.
 */
const FINISH = `
local chat = ARGV[4]
if ARGV[5] == '1' then
  local current = tonumber(redis.call('HGET', KEYS[3], 'rev') or '0')
  if current ~= tonumber(ARGV[6]) then return -1 end
  if chat ~= '' then redis.call('HSET', KEYS[3], 'rev', current + 1, 'base', ARGV[7], 'chat', chat)
  else redis.call('HSET', KEYS[3], 'rev', current + 1, 'base', ARGV[7]) end
  redis.call('SET', KEYS[4], ARGV[8], 'EX', tonumber(ARGV[9]))
elseif chat ~= '' then redis.call('HSET', KEYS[3], 'chat', chat) end
if ARGV[2] == '1' then redis.call('SET', KEYS[2], 'done', 'EX', tonumber(ARGV[3])) end
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`;

type BeginReply = [string, string[]?, number?, string?];

const lockToken = () => `${process.pid}:${randomUUID()}`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts renewing a held lock; returns how to stop. */
type Renewing = (key: string, token: string, ttlMs: number) => () => void;

/**
 * Renews held chat locks every third of their lifetime, those of one lifetime together on one timer
 * (a timer of each update's own was armed and cleared on every update); the timer stops at a tick
 * that finds none held.
 */
function lockRenewer(ctx: RedisStoreContext): Renewing {
  const byTtl = new Map<number, { held: Set<[string, string]>; timer: NodeJS.Timeout }>();
  return (key, token, ttlMs) => {
    let group = byTtl.get(ttlMs);
    if (!group) {
      const held = new Set<[string, string]>();
      const timer = setInterval(
        () => {
          if (held.size === 0) {
            clearInterval(timer);
            byTtl.delete(ttlMs);
            return;
          }
          for (const [k, t] of held)
            runScript(ctx.redis, RENEW_IF_OWNER, { keys: [k], arguments: [t, String(ttlMs)] }).catch(
              () => {},
            );
        },
        Math.max(100, Math.floor(ttlMs / 3)),
      );
      timer.unref();
      group = { held, timer };
      byTtl.set(ttlMs, group);
    }
    const entry: [string, string] = [key, token];
    const { held } = group;
    held.add(entry);
    return () => held.delete(entry);
  };
}

/**
 * The chat's lock, de-duplication and session in one script, waiting for the lock (then forcing it,
 * or refusing with ChatBusyError when asked to).
 */
const begin =
  (ctx: RedisStoreContext, orphans: Map<string, string>, renewWhileHeld: Renewing): SessionStore['begin'] =>
  async (user, opts = {}) => {
    const { keys } = ctx;
    const lockKey = keys.chatLock(user);
    const seenKey = keys.seen(opts.updateId ?? '-');
    // The engine runs one update of a chat at a time in this process, so a lock this process could
    // not release is free for its next update of that chat (another process waits for its expiry).
    const token = orphans.get(lockKey) ?? lockToken();
    orphans.delete(lockKey);
    const ttlMs = opts.ttlMs ?? 15_000;
    const deadline = Date.now() + (opts.waitMs ?? 10_000);
    let forced = false;
    for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
      const r = (await runScript(ctx.redis, BEGIN, {
        keys: [lockKey, seenKey, keys.user(user), keys.flow(user)],
        arguments: [
          token,
          String(ttlMs),
          String(ctx.dedupeTtlSeconds),
          opts.updateId ? '1' : '0',
          forced ? '1' : '0',
        ],
      })) as BeginReply;
      if (r[0] === 'locked') {
        if (Date.now() >= deadline) {
          opts.onTimeout?.();
          if (opts.refuseWhenBusy) throw new ChatBusyError();
          forced = true;
          continue;
        }
        await pause(wait);
        continue;
      }
      if (r[0] === 'done')
        return { status: 'done', session: { rev: 0 }, locked: false, finish: async () => true };
      const stopRenewing = forced ? () => {} : renewWhileHeld(lockKey, token, ttlMs);
      const finish: BegunUpdate['finish'] = async ({ done, chat, save }) => {
        const args = [token, done && opts.updateId ? '1' : '0', String(ctx.dedupeTtlSeconds), chat ?? ''];
        if (save)
          args.push('1', String(save.rev), save.parts.base, save.parts.flow, String(ctx.flowTtlSeconds));
        try {
          const reply = await runScript(ctx.redis, FINISH, {
            keys: [lockKey, seenKey, keys.user(user), keys.flow(user)],
            arguments: args,
          });
          // A lost compare-and-set did nothing: the lock stays held (and renewed) for the redo.
          if (Number(reply) < 0) return false;
        } catch (err) {
          stopRenewing();
          if (!forced) remember(orphans, lockKey, token);
          throw err;
        }
        stopRenewing();
        return true;
      };
      return { status: r[0] as 'new' | 'unfinished', session: sessionOf(r), locked: !forced, finish };
    }
  };

/** Keeps an unreleased lock's token for the chat's next update here; a bounded list. */
function remember(orphans: Map<string, string>, key: string, token: string): void {
  if (orphans.size >= 10_000) orphans.delete(orphans.keys().next().value as string);
  orphans.set(key, token);
}

/** The stored session in a BEGIN reply. */
function sessionOf(r: BeginReply) {
  const flat = r[1] ?? [];
  const hash: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) hash[flat[i] as string] = flat[i + 1] as string;
  return storedSession(hash, r[2] === 1 ? r[3] : undefined);
}

/** Takes the chat's lock alone, waiting up to `waitMs` for it (then going on without it). */
const lockChat =
  (ctx: RedisStoreContext, renewWhileHeld: Renewing): SessionStore['lockChat'] =>
  async (user, opts = {}) => {
    const key = ctx.keys.chatLock(user);
    const token = lockToken();
    const ttlMs = opts.ttlMs ?? 15_000;
    const deadline = Date.now() + (opts.waitMs ?? 10_000);
    let held = false;
    for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
      held =
        (await ctx.redis.set(key, token, { condition: 'NX', expiration: { type: 'PX', value: ttlMs } })) ===
        'OK';
      if (held || Date.now() >= deadline) break;
      await pause(wait);
    }
    if (!held) {
      opts.onTimeout?.();
      return async () => {};
    }
    const stopRenewing = renewWhileHeld(key, token, ttlMs);
    return async () => {
      stopRenewing();
      await runScript(ctx.redis, DELETE_IF_OWNER, { keys: [key], arguments: [token] }).catch(() => {});
    };
  };

/** Beginning, locking and de-duplicating updates. */
export function updateOps(
  ctx: RedisStoreContext,
): Pick<
  SessionStore,
  'begin' | 'lockChat' | 'markUpdateDone' | 'isUpdateDone' | 'markUpdateSeen' | 'markOnce'
> {
  const { redis, keys } = ctx;
  const ttl = { expiration: { type: 'EX' as const, value: ctx.dedupeTtlSeconds } };
  const renewing = lockRenewer(ctx);
  return {
    begin: begin(ctx, new Map(), renewing),
    lockChat: lockChat(ctx, renewing),
    async markUpdateDone(updateId: string) {
      await redis.set(keys.seen(updateId), 'done', ttl);
    },
    async isUpdateDone(updateId: string) {
      return (await redis.get(keys.seen(updateId))) === 'done';
    },
    async markUpdateSeen(updateId: string): Promise<boolean> {
      return (await redis.set(keys.seen(updateId), 'pending', { condition: 'NX', ...ttl })) === 'OK';
    },
    async markOnce(name: string, ttlMs: number): Promise<boolean> {
      const px = { expiration: { type: 'PX' as const, value: ttlMs } };
      return (await redis.set(keys.once(name), '1', { condition: 'NX', ...px })) === 'OK';
    },
  };
}
