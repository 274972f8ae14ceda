/**
 * The alert store's Lua scripts: each change of an alert touches its record, its feed's sorted set
 * and its expiry bucket at once, so no reader ever sees half an alert, and a claim is one ZREM
 * that only one process can win.
 *
 * Keys under `<p>` (the app prefix + `al:`):
 * - `a:<id/100>`  hash id -> record line (≤100 fields: a compact listpack)
 * - `u:<n>`       hash user -> "slot=id,slot=id" (the user's alerts), users spread over 4096 hashes
 *                 by a hash of their key (`userBucket`), so a user with one alert costs no key of its own
 * - `z:<feed>`    armed alerts, scored by level
 * - `r:<feed>`    fired alerts waiting to re-arm, scored by the re-arm level
 * - `c`           claimed alerts being told, scored by when the claim's lease ends
 * - `x:<hour>:<k>` ids whose expiry note or expiry falls in that hour (epoch hours), sharded by
 *                 id % 32 so each shard stays a compact intset (≤ 512 ids)
 * - `f`           the feeds with at least one alert; `seq` the id counter
 */

/** Shared Lua: split a record line, the record's hash key, its feed and its pending expiry bucket. */
export const LIB = `
local function split(s)
  local t = {}
  for part in string.gmatch(s .. '|', '([^|]*)|') do t[#t + 1] = part end
  return t
end
local function bucket(p, id) return p .. 'a:' .. math.floor(tonumber(id) / 100) end
local function ubucket(p, user)
  local h = 0
  for i = 1, #user do h = (h * 31 + string.byte(user, i)) % 4096 end
  return p .. 'u:' .. h
end
local function slotsOf(key, user)
  local t = {}
  local v = redis.call('HGET', key, user)
  if v then for s, id in string.gmatch(v, '(%d+)=(%d+)') do t[tonumber(s)] = id end end
  return t
end
local function saveSlots(key, user, t)
  local parts = {}
  for s = 1, 99 do if t[s] then parts[#parts + 1] = s .. '=' .. t[s] end end
  if #parts == 0 then redis.call('HDEL', key, user) else redis.call('HSET', key, user, table.concat(parts, ',')) end
end
local function feedOf(r) return r[6] .. ':' .. r[5] .. ':' .. r[4] end
local function xbucket(r)
  local exp = tonumber(r[8])
  if r[9] == '1' then return math.floor(exp / 3600) end
  return math.floor((exp - 86400) / 3600)
end
local function xkey(p, id, r) return p .. 'x:' .. xbucket(r) .. ':' .. (tonumber(id) % 32) end
local function unindex(p, id, r)
  local feed = feedOf(r)
  redis.call('ZREM', p .. 'z:' .. feed, id)
  redis.call('ZREM', p .. 'r:' .. feed, id)
  redis.call('ZREM', p .. 'c', id)
  redis.call('SREM', xkey(p, id, r), id)
end
`;

/**
 * Sets a new alert (ARGV[3] = 0) or changes the one in a slot. KEYS: the user's bucket (userBucket).
 * ARGV: prefix, user, slot, token, network, side (b/a), level, expiresSec, max.
 * Returns {'ok', slot, changed}, {'same', slot, 0, expiresSec} (that alert exists), {'full'} or {'missing'}.
 */
export const SET_SCRIPT = `${LIB}
local p, user, want = ARGV[1], ARGV[2], tonumber(ARGV[3])
local tok, net, side, level, exp, max = ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8], tonumber(ARGV[9])
local slot, id, changed = want, nil, 0
local slots = slotsOf(KEYS[1], user)
if want > 0 then
  id = slots[want]
  if not id then return {'missing'} end
  local old = redis.call('HGET', bucket(p, id), id)
  if old then unindex(p, id, split(old)) end
  changed = 1
else
  local n = 0
  for s, sid in pairs(slots) do
    n = n + 1
    -- The same alert again (a repeated command): the one the user has is the answer.
    local line = redis.call('HGET', bucket(p, sid), sid)
    if line then
      local r = split(line)
      if r[4] == tok and r[5] == net and r[6] == side and tonumber(r[7]) == tonumber(level) then
        return {'same', s, 0, r[8]}
      end
    end
  end
  if n >= max then return {'full'} end
  for s = 1, max do
    if not slots[s] then slot = s break end
  end
  id = tostring(redis.call('INCR', p .. 'seq'))
  slots[slot] = id
  saveSlots(KEYS[1], user, slots)
end
local r = {'1', user, tostring(slot), tok, net, side, level, exp, '0'}
redis.call('HSET', bucket(p, id), id, table.concat(r, '|'))
redis.call('ZADD', p .. 'z:' .. feedOf(r), level, id)
redis.call('SADD', xkey(p, id, r), id)
redis.call('SADD', p .. 'f', feedOf(r))
return {'ok', slot, changed}
`;

/** Deletes the alert in a slot. KEYS: the user's bucket. ARGV: prefix, slot, user. Returns 1, or 0 when absent. */
export const DELETE_SCRIPT = `${LIB}
local p, slot, user = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local slots = slotsOf(KEYS[1], user)
local id = slots[slot]
if not id then return 0 end
local line = redis.call('HGET', bucket(p, id), id)
if line then unindex(p, id, split(line)) end
redis.call('HDEL', bucket(p, id), id)
slots[slot] = nil
saveSlots(KEYS[1], user, slots)
return 1
`;

/**
 * Moves an alert's expiry (renew). KEYS: the user's bucket. ARGV: prefix, slot, expiresSec, user.
 * Returns the new record line, or false when the slot is empty.
 */
export const RENEW_SCRIPT = `${LIB}
local p, slot, exp = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local id = slotsOf(KEYS[1], ARGV[4])[slot]
if not id then return false end
local line = redis.call('HGET', bucket(p, id), id)
if not line then return false end
local r = split(line)
redis.call('SREM', xkey(p, id, r), id)
r[8] = exp
r[9] = '0'
line = table.concat(r, '|')
redis.call('HSET', bucket(p, id), id, line)
redis.call('SADD', xkey(p, id, r), id)
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
 * held (the alert was deleted or changed meanwhile) is left alone. The feed is listed again, in case
 * a tick dropped it while its only alert was claimed (it must be fetched for the alert to re-arm).
 * KEYS: claims set, re-arm set, feeds set. ARGV: id, re-arm score, feed. Returns 1 when the claim was held.
 */
export const FIRED_SCRIPT = `
if redis.call('ZREM', KEYS[1], ARGV[1]) == 1 then
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
  redis.call('SADD', KEYS[3], ARGV[3])
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
  local ukey = ubucket(p, r[2])
  local slots = slotsOf(ukey, r[2])
  if slots[tonumber(r[3])] == id then
    slots[tonumber(r[3])] = nil
    saveSlots(ukey, r[2], slots)
  end
  return {'expired', line}
end
if r[9] == '1' then return {'skip'} end
redis.call('SREM', xkey(p, id, r), id)
r[9] = '1'
line = table.concat(r, '|')
redis.call('HSET', bucket(p, id), id, line)
redis.call('SADD', xkey(p, id, r), id)
return {'warn', line}
`;
