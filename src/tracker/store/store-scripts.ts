/**
 * The Redis tracker store's Lua scripts (each runs as one round trip). An order's hash is the compact
 * record (./store-fields.ts) or, for an order stored by the previous layout, `order` and `state` JSON
 * fields with the timeline in the list `order:<id>:events`: both are read and saved in their own form.
 */
import { MARK_FIELD } from './store-fields.js';

/** Whether KEYS[1] holds an order, in either layout. */
const HAS_ORDER = `(redis.call('HEXISTS', KEYS[1], '${MARK_FIELD}') == 1 or redis.call('HEXISTS', KEYS[1], 'order') == 1)`;

/**
 * KEYS: hash, the sweep's due set, owner's set.
 * ARGV: id, createdAt, owner set's TTL, due score, then the record's fields and values.
 */
export const ADD_ORDER = `
if ${HAS_ORDER} then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 5))
redis.call('ZADD', KEYS[2], 'NX', ARGV[4], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
redis.call('PEXPIRE', KEYS[3], ARGV[3])
return 1
`;

/**
 * Compare-and-set on `rev` (ARGV[1]). A previous-layout record takes the state JSON (ARGV[2]); a
 * compact one loses the ARGV[3] state fields named next and takes the field/value pairs after them.
 */
export const SAVE_STATE = `
local legacy = redis.call('HEXISTS', KEYS[1], 'order') == 1
if not legacy and redis.call('HEXISTS', KEYS[1], '${MARK_FIELD}') == 0 then return -1 end
local rev = tonumber(redis.call('HGET', KEYS[1], 'rev') or '0') or 0
if rev ~= tonumber(ARGV[1]) then return -1 end
if legacy then
  redis.call('HSET', KEYS[1], 'state', ARGV[2], 'rev', rev + 1)
else
  local n = tonumber(ARGV[3])
  if n > 0 then redis.call('HDEL', KEYS[1], unpack(ARGV, 4, 3 + n)) end
  redis.call('HSET', KEYS[1], 'rev', rev + 1, unpack(ARGV, 4 + n))
end
return rev + 1
`;

export const CLAIM_FINAL = `
local v = redis.call('HGET', KEYS[1], 'final')
if not v then redis.call('HSET', KEYS[1], 'final', ARGV[1]) return 'claimed' end
if v == 'done' then return 'done' end
local at = tonumber(string.match(v, '|(%d+)$'))
if (not at) or (tonumber(ARGV[2]) - at > tonumber(ARGV[3])) then
  redis.call('HSET', KEYS[1], 'final', ARGV[1]) return 'claimed'
end
return 'busy'
`;

export const RELEASE_FINAL = `
if redis.call('HGET', KEYS[1], 'final') == ARGV[1] then return redis.call('HDEL', KEYS[1], 'final') end
return 0
`;

/** KEYS: hash, tracking set, deposit guard, previous-layout timeline list, due set. */
export const COMPLETE_FINAL = `
redis.call('HSET', KEYS[1], 'final', 'done')
redis.call('SREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[5], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if redis.call('EXISTS', KEYS[3]) == 1 then redis.call('PEXPIRE', KEYS[3], ARGV[2]) end
if redis.call('EXISTS', KEYS[4]) == 1 then redis.call('PEXPIRE', KEYS[4], ARGV[2]) end
return 1
`;

/**
 * Appends entry ARGV[1] as field `ev:<n>` (the newest ARGV[3] kept) unless the order is unknown or
 * (ARGV[2] set) an entry already starts with ARGV[2], in the hash or a previous-layout list (KEYS[2]).
 */
export const APPEND_EVENT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local max = tonumber(ARGV[3])
local last = tonumber(redis.call('HGET', KEYS[1], 'events') or '0') or 0
if ARGV[2] ~= '' then
  local n = string.len(ARGV[2])
  for _, v in ipairs(redis.call('LRANGE', KEYS[2], 0, -1)) do
    if string.sub(v, 1, n) == ARGV[2] then return 0 end
  end
  for i = math.max(1, last - max + 1), last do
    local v = redis.call('HGET', KEYS[1], 'ev:' .. i)
    if v and string.sub(v, 1, n) == ARGV[2] then return 0 end
  end
end
redis.call('HSET', KEYS[1], 'events', last + 1, 'ev:' .. (last + 1), ARGV[1])
if last + 1 > max then redis.call('HDEL', KEYS[1], 'ev:' .. (last + 1 - max)) end
return 1
`;

export const RELEASE_DEPOSIT = `
local v = redis.call('GET', KEYS[1])
if not v then return 0 end
local ok, m = pcall(cjson.decode, v)
if ok and m.state == 'intent' and m.token == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;
