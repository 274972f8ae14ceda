/**
 * The alert store's Lua scripts: each change of an alert touches its record, its feed's sorted set
 * and its expiry bucket at once, so no reader ever sees half an alert, and a claim is one ZREM
 * that only one process can win.
 *
 * Keys under `<p>` (the app prefix + `al:`):
 * - `a:<id/100>`  hash id -> record line (≤100 fields: a compact listpack)
 * - `u:<user>`    hash slot -> id (the user's alerts)
 * - `z:<feed>`    armed alerts, scored by level
 * - `r:<feed>`    fired alerts waiting to re-arm, scored by the re-arm level
 * - `c`           claimed alerts being told, scored by when the claim's lease ends
 * - `x:<hour>`    ids whose expiry note or expiry falls in that hour (epoch hours)
 * - `f`           the feeds with at least one alert; `seq` the id counter
 */

/** Shared Lua: split a record line, the record's hash key, its feed and its pending expiry bucket. */
const LIB = `
local function split(s)
  local t = {}
  for part in string.gmatch(s .. '|', '([^|]*)|') do t[#t + 1] = part end
  return t
end
local function bucket(p, id) return p .. 'a:' .. math.floor(tonumber(id) / 100) end
local function feedOf(r) return r[6] .. ':' .. r[5] .. ':' .. r[4] end
local function xbucket(r)
  local exp = tonumber(r[8])
  if r[9] == '1' then return math.floor(exp / 3600) end
  return math.floor((exp - 86400) / 3600)
end
local function unindex(p, id, r)
  local feed = feedOf(r)
  redis.call('ZREM', p .. 'z:' .. feed, id)
  redis.call('ZREM', p .. 'r:' .. feed, id)
  redis.call('ZREM', p .. 'c', id)
  redis.call('SREM', p .. 'x:' .. xbucket(r), id)
end
`;

/**
 * Sets a new alert (ARGV[3] = 0) or changes the one in a slot. KEYS: the user's hash.
 * ARGV: prefix, user, slot, token, network, side (b/a), level, expiresSec, max.
 * Returns {'ok', slot, changed}, {'full'} or {'missing'}.
 */
export const SET_SCRIPT = `${LIB}
local p, user, want = ARGV[1], ARGV[2], tonumber(ARGV[3])
local tok, net, side, level, exp, max = ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8], tonumber(ARGV[9])
local slot, id, changed = want, nil, 0
if want > 0 then
  id = redis.call('HGET', KEYS[1], tostring(want))
  if not id then return {'missing'} end
  local old = redis.call('HGET', bucket(p, id), id)
  if old then unindex(p, id, split(old)) end
  changed = 1
else
  if redis.call('HLEN', KEYS[1]) >= max then return {'full'} end
  for s = 1, max do
    if redis.call('HEXISTS', KEYS[1], tostring(s)) == 0 then slot = s break end
  end
  id = tostring(redis.call('INCR', p .. 'seq'))
  redis.call('HSET', KEYS[1], tostring(slot), id)
end
local r = {'1', user, tostring(slot), tok, net, side, level, exp, '0'}
redis.call('HSET', bucket(p, id), id, table.concat(r, '|'))
redis.call('ZADD', p .. 'z:' .. feedOf(r), level, id)
redis.call('SADD', p .. 'x:' .. xbucket(r), id)
redis.call('SADD', p .. 'f', feedOf(r))
return {'ok', slot, changed}
`;

/** Deletes the alert in a slot. KEYS: the user's hash. ARGV: prefix, slot. Returns 1, or 0 when absent. */
export const DELETE_SCRIPT = `${LIB}
local p, slot = ARGV[1], ARGV[2]
local id = redis.call('HGET', KEYS[1], slot)
if not id then return 0 end
local line = redis.call('HGET', bucket(p, id), id)
if line then unindex(p, id, split(line)) end
redis.call('HDEL', bucket(p, id), id)
redis.call('HDEL', KEYS[1], slot)
return 1
`;

/**
 * Moves an alert's expiry (renew). KEYS: the user's hash. ARGV: prefix, slot, expiresSec.
 * Returns the new record line, or false when the slot is empty.
 */
export const RENEW_SCRIPT = `${LIB}
local p, slot, exp = ARGV[1], ARGV[2], ARGV[3]
local id = redis.call('HGET', KEYS[1], slot)
if not id then return false end
local line = redis.call('HGET', bucket(p, id), id)
if not line then return false end
local r = split(line)
redis.call('SREM', p .. 'x:' .. xbucket(r), id)
r[8] = exp
r[9] = '0'
line = table.concat(r, '|')
redis.call('HSET', bucket(p, id), id, line)
redis.call('SADD', p .. 'x:' .. xbucket(r), id)
return line
`;

/**
 * Claims the armed alerts a rate crossed: each leaves the armed set for the claims set, leased until
 * ARGV[4]. Only the process whose ZREM removed an id gets it. KEYS: armed set, claims set.
 * ARGV: side (b/a), rate, limit, lease end (ms). Returns the ids claimed.
 */
export const CLAIM_SCRIPT = `
local ids
if ARGV[1] == 'b' then
  ids = redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[2], '+inf', 'LIMIT', 0, ARGV[3])
else
  ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[2], 'LIMIT', 0, ARGV[3])
end
local won = {}
for _, id in ipairs(ids) do
  if redis.call('ZREM', KEYS[1], id) == 1 then
    redis.call('ZADD', KEYS[2], ARGV[4], id)
    won[#won + 1] = id
  end
end
return won
`;

/**
 * Takes claims whose lease ended (their process died before telling) for another try, leased again.
 * KEYS: claims set. ARGV: now (ms), new lease end, limit. Returns the ids.
 */
export const RECLAIM_SCRIPT = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])
for _, id in ipairs(ids) do redis.call('ZADD', KEYS[1], ARGV[2], id) end
return ids
`;

/**
 * The user was told: the claim becomes "fired", waiting to re-arm at ARGV[2]. A claim no longer
 * held (the alert was deleted or changed meanwhile) is left alone. KEYS: claims set, re-arm set.
 * ARGV: id, re-arm score. Returns 1 when the claim was held.
 */
export const FIRED_SCRIPT = `
if redis.call('ZREM', KEYS[1], ARGV[1]) == 1 then
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
  return 1
end
return 0
`;

/**
 * Re-arms fired alerts the rate moved back past by the margin. KEYS: re-arm set, armed set.
 * ARGV: prefix, side (b/a), rate, limit. Returns how many re-armed.
 */
export const REARM_SCRIPT = `${LIB}
local p = ARGV[1]
local ids
if ARGV[2] == 'b' then
  ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[3], 'LIMIT', 0, ARGV[4])
else
  ids = redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[3], '+inf', 'LIMIT', 0, ARGV[4])
end
for _, id in ipairs(ids) do
  redis.call('ZREM', KEYS[1], id)
  local line = redis.call('HGET', bucket(p, id), id)
  if line then redis.call('ZADD', KEYS[2], split(line)[7], id) end
end
return #ids
`;

/** Drops a feed nobody watches any more. KEYS: armed, re-arm, feeds. ARGV: feed. Returns 1 if dropped. */
export const DROP_FEED_SCRIPT = `
if redis.call('ZCARD', KEYS[1]) + redis.call('ZCARD', KEYS[2]) == 0 then
  return redis.call('SREM', KEYS[3], ARGV[1])
end
return 0
`;

/**
 * Expires one alert whose time came, or marks its day-before note as sent (moving it to its expiry
 * bucket). Run for a bucket's hour once that hour is over. ARGV: prefix, id, now (s), the bucket's hour.
 * Returns {'expired', line}, {'warn', line}, or {'skip'} (renewed or gone meanwhile).
 */
export const EXPIRE_SCRIPT = `${LIB}
local p, id, now = ARGV[1], ARGV[2], tonumber(ARGV[3])
local line = redis.call('HGET', bucket(p, id), id)
if not line then return {'skip'} end
local r = split(line)
if xbucket(r) ~= tonumber(ARGV[4]) then return {'skip'} end
if tonumber(r[8]) <= now then
  unindex(p, id, r)
  redis.call('HDEL', bucket(p, id), id)
  local ukey = p .. 'u:' .. r[2]
  if redis.call('HGET', ukey, r[3]) == id then redis.call('HDEL', ukey, r[3]) end
  return {'expired', line}
end
if r[9] == '1' then return {'skip'} end
redis.call('SREM', p .. 'x:' .. xbucket(r), id)
r[9] = '1'
line = table.concat(r, '|')
redis.call('HSET', bucket(p, id), id, line)
redis.call('SADD', p .. 'x:' .. xbucket(r), id)
return {'warn', line}
`;
