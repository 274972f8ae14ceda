/**
 * The outbox in Redis, every step one Lua script (one round trip, atomic). Under `<base>`: `m:<id>`
 * (a message), `q:<chat>` (a chat's queue of ids), `ready` (chats with messages), `h:<chat>` (who holds the chat), `alive:<owner>` (an owner's heartbeat), `own:<owner>` (the chats
 * it holds), `r:<id>` (what became of a message).
 */
import { randomBytes } from 'node:crypto';
import type { RedisClientType } from 'redis';
import { runScript } from '../store/script.js';
import { OUTBOUND_CLASSES, type OutboundClass } from './line-types.js';
import {
  type OutboxAlso,
  type OutboxEntry,
  type OutboxResult,
  type OutboxStore,
  RESULT_TTL_MS,
} from './outbox-store.js';
import { subscribeWakes } from './outbox-wake.js';

type Client = Pick<RedisClientType, 'eval' | 'evalSha'> & { readonly isReady?: boolean };
/** A whole client (not a test's stand-in): it can open the wake-ups' connection. */
const isFullClient = (c: Client): c is RedisClientType =>
  typeof (c as Partial<RedisClientType>).duplicate === 'function';

/** Redis is reconnecting: the outbox says so at once rather than wait in the client's queue. */
export class OutboxUnavailable extends Error {
  override name = 'OutboxUnavailable';
  constructor() {
    super('the outbox is unavailable: Redis is not connected');
  }
}

/** Shared helpers: whether a chat is held by a live owner, taking it, reading its head. */
const LIB = `
local B = ARGV[1]
-- A slot belongs to the chat, whichever class queue its message waits in.
local function scope(q) return string.match(q, '^(.*)#%l+$') or q end
local function live(chat)
  local h = redis.call('GET', B .. 'h:' .. chat)
  if h and redis.call('EXISTS', B .. 'alive:' .. h) == 1 then return h end
  return false
end
local function take(chat, owner)
  redis.call('SET', B .. 'h:' .. chat, owner)
  redis.call('SADD', B .. 'own:' .. owner, chat)
end
local function letgo(chat, owner)
  if redis.call('GET', B .. 'h:' .. chat) == owner then redis.call('DEL', B .. 'h:' .. chat) end
  redis.call('SREM', B .. 'own:' .. owner, chat)
end
local function head(chat, owner)
  if redis.call('GET', B .. 'h:' .. chat) ~= owner then return false end
  while true do
    local id = redis.call('LINDEX', B .. 'q:' .. chat, 0)
    if not id then
      redis.call('ZREM', B .. 'ready', chat)
      letgo(chat, owner)
      return false
    end
    local m = redis.call('GET', B .. 'm:' .. id)
    if m then return {id, m} end
    redis.call('LPOP', B .. 'q:' .. chat)
  end
end
`;

// ARGV: base, chat, message, owner, now, also (JSON), slot, class rank, once, new id
const PUT = `${LIB}
local chat, owner, slot = ARGV[2], ARGV[4], ARGV[7]
if ARGV[9] ~= '' then
  local was = redis.call('GET', B .. 'd:' .. ARGV[9])
  -- Put before under this name: that one stands, unless its send failed (then it goes again).
  local r = was and redis.call('GET', B .. 'r:' .. was)
  if was and not (r and string.sub(r, 1, 11) == '{"ok":false') then
    local h = live(chat)
    return {was, h == owner and 1 or 0, 0, 0, 1}
  end
end
local m = ARGV[3]
local id = false
local replaced = 0
if slot ~= '' then
  id = redis.call('GET', B .. 's:' .. scope(chat) .. ':' .. slot)
  local old = id and redis.call('GET', B .. 'm:' .. id)
  if old then
    -- The waiting one keeps its place and the more urgent class; the newest body wins.
    local was = cjson.decode(old)
    if tonumber(was.r) < tonumber(ARGV[8]) then
      -- The body is left as written (cjson would turn its empty lists into objects).
      m = '{"cls":' .. cjson.encode(was.cls) .. ',"r":' .. was.r .. string.sub(m, string.find(m, ',"key":', 1, true))
    end
    replaced = 1
  else
    id = false
  end
end
if not id then
  id = ARGV[10]
  redis.call('RPUSH', B .. 'q:' .. chat, id)
  if slot ~= '' then redis.call('SET', B .. 's:' .. scope(chat) .. ':' .. slot, id, 'PX', 86400000) end
  if ARGV[9] ~= '' then redis.call('SET', B .. 'd:' .. ARGV[9], id, 'PX', 86400000) end
end
redis.call('SET', B .. 'm:' .. id, m)
redis.call('ZADD', B .. 'ready', 'NX', ARGV[5], chat)
local also = cjson.decode(ARGV[6])
if also.guard and redis.call('ZREM', also.guard.key, also.guard.member) == 0 then also = {} end
for _, w in ipairs(also.zadd or {}) do redis.call('ZADD', w.key, w.score, w.member) end
for _, w in ipairs(also.sadd or {}) do redis.call('SADD', w.key, w.member) end
for _, w in ipairs(also.set or {}) do
  if w.ttlMs then redis.call('SET', w.key, w.value, 'PX', w.ttlMs) else redis.call('SET', w.key, w.value) end
end
for _, w in ipairs(also.hset or {}) do redis.call('HSET', w.key, w.field, w.value) end
for _, w in ipairs(also.zrem or {}) do redis.call('ZREM', w.key, w.member) end
local first = redis.call('LINDEX', B .. 'q:' .. chat, 0) == id and 1 or 0
local h = live(chat)
if h == owner then return {id, 1, replaced, first, 0} end
if h then return {id, 0, replaced, first, 0} end
take(chat, owner)
-- A putter that is not (or no longer) alive will not send it: the others are woken to take it.
if redis.call('EXISTS', B .. 'alive:' .. owner) == 0 then redis.call('PUBLISH', B .. 'wake', owner) end
return {id, 1, replaced, first, 0}
`;

// ARGV: base, chat, id
const BEGIN = `${LIB}
local chat, id = scope(ARGV[2]), ARGV[3]
local m = redis.call('GET', B .. 'm:' .. id)
if not m then return false end
local slot = cjson.decode(m).slot
if slot and redis.call('GET', B .. 's:' .. chat .. ':' .. slot) == id then
  redis.call('DEL', B .. 's:' .. chat .. ':' .. slot)
end
return {id, m}
`;

// ARGV: base, owner, max
const CLAIM = `${LIB}
local owner, max = ARGV[2], tonumber(ARGV[3])
local got = {}
for _, chat in ipairs(redis.call('ZRANGE', B .. 'ready', 0, 999)) do
  if #got >= max then break end
  local h = live(chat)
  if not h or h == owner then
    take(chat, owner)
    table.insert(got, chat)
  end
end
return got
`;

// ARGV: base, chat, owner
const HEAD = `${LIB}
return head(ARGV[2], ARGV[3])
`;

// ARGV: base, chat, owner, id, result, ttl
const FINISH = `${LIB}
local chat, owner, id = ARGV[2], ARGV[3], ARGV[4]
redis.call('SET', B .. 'r:' .. id, ARGV[5], 'PX', ARGV[6])
redis.call('DEL', B .. 'm:' .. id)
redis.call('LREM', B .. 'q:' .. chat, 1, id)
return head(chat, owner)
`;

// ARGV: base, owner, ttl
const BEAT = `redis.call('SET', ARGV[1] .. 'alive:' .. ARGV[2], '1', 'PX', ARGV[3])`;

// ARGV: base, owner
const RELEASE = `${LIB}
local owner = ARGV[2]
for _, chat in ipairs(redis.call('SMEMBERS', B .. 'own:' .. owner)) do letgo(chat, owner) end
redis.call('DEL', B .. 'own:' .. owner, B .. 'alive:' .. owner)
if redis.call('ZCARD', B .. 'ready') > 0 then redis.call('PUBLISH', B .. 'wake', owner) end
`;

const DEPTH = `
local n = 0
for _, chat in ipairs(redis.call('ZRANGE', ARGV[1] .. 'ready', 0, -1)) do
  n = n + redis.call('LLEN', ARGV[1] .. 'q:' .. chat)
end
return n
`;

const rank = (cls: OutboundClass) => OUTBOUND_CLASSES.indexOf(cls);

const entryOf = (raw: unknown): OutboxEntry | undefined => {
  if (!Array.isArray(raw)) return undefined;
  const [id, m] = raw as [string, string];
  const { key, cls, body, slot } = JSON.parse(m) as Omit<OutboxEntry, 'id'>;
  return { id, key, cls, body, ...(slot !== undefined ? { slot } : {}) };
};

/**
 * A message's id: never a count kept in Redis (one that starts again after Redis came back empty
 * reuses the ids of messages a replica is still recording, and their answers would settle the new
 * ones). This process's random part and its own count: unique across processes and restarts, and
 * no call into the system's random source per message.
 */
const idPrefix = randomBytes(9).toString('base64url');
let idCount = 0;
export const newOutboxId = () => `${idPrefix}${(idCount++).toString(36)}`;

/** The outbox of one transport under `base` (e.g. `rampchat:outbox:tg:`). */
export function redisOutboxStore(redis: Client, base: string): OutboxStore {
  const run = async (script: string, args: Array<string | number>) => {
    if (redis.isReady === false) throw new OutboxUnavailable();
    return runScript(redis, script, { keys: [], arguments: [base, ...args.map(String)] });
  };
  return {
    async put(m, owner, also?: OutboxAlso) {
      const r = rank(m.cls);
      // In this order: the script swaps the class at the front of the text.
      const text = JSON.stringify({ cls: m.cls, r, key: m.key, slot: m.slot, body: m.body });
      const args = [
        m.key,
        text,
        owner,
        Date.now(),
        JSON.stringify(also ?? {}),
        m.slot ?? '',
        r,
        m.once ?? '',
        m.id ?? newOutboxId(),
      ];
      const raw = (await run(PUT, args)) as [string, number, number, number, number];
      return {
        id: raw[0],
        held: raw[1] === 1,
        replaced: raw[2] === 1,
        first: raw[3] === 1,
        again: raw[4] === 1,
      };
    },
    guard: (queue, owner, id) => ({
      list: `${base}q:${queue}`,
      head: id,
      key: `${base}h:${queue}`,
      value: owner,
    }),
    begin: async (key, id) => entryOf(await run(BEGIN, [key, id])),
    claim: async (owner, max) => (await run(CLAIM, [owner, max])) as string[],
    head: async (key, owner) => entryOf(await run(HEAD, [key, owner])),
    finish: async (key, owner, id, result) =>
      entryOf(await run(FINISH, [key, owner, id, JSON.stringify(result), RESULT_TTL_MS])),
    async result(id) {
      const raw = (await runScript(redis, `return redis.call('GET', KEYS[1])`, {
        keys: [`${base}r:${id}`],
        arguments: [],
      })) as string | null;
      return raw ? (JSON.parse(raw) as OutboxResult) : undefined;
    },
    beat: async (owner, ttlMs) => void (await run(BEAT, [owner, Math.max(1, Math.round(ttlMs))])),
    release: async (owner) => void (await run(RELEASE, [owner])),
    ...(isFullClient(redis)
      ? { wakes: (onWake, log) => subscribeWakes(redis, `${base}wake`, onWake, log) }
      : {}),
    depth: async () => Number(await run(DEPTH, [])),
    writesAlso: true,
  };
}
