/**
 * A sorted set of ids scored by when each is due, swept by every process: a sweep leases the due ids
 * it takes (their score moves to the lease's end), and only the lease's holder (the score it wrote)
 * may reschedule or remove an id. The tracker's polls and the standing buys' runs both sweep one.
 */

/** Leases up to ARGV[3] ids due by ARGV[1]: each moves to ARGV[2] (the lease's end). */
export const TAKE_DUE = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(ids) do redis.call('ZADD', KEYS[1], 'XX', ARGV[2], id) end
return ids
`;

/** TAKE_DUE, and the set's earliest score after it (nil when empty): when to sweep next. */
export const TAKE_DUE_AND_NEXT = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(ids) do redis.call('ZADD', KEYS[1], 'XX', ARGV[2], id) end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {ids, first[2] or false}
`;

/**
 * Moves the id's score to ARGV[2] (the next turn, or a renewed lease's end) only while this lease
 * (ARGV[3]) still holds it; 1 when it did.
 */
export const RESCHEDULE = `
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[3]) then redis.call('ZADD', KEYS[1], 'XX', ARGV[2], ARGV[1]) return 1 end
return 0
`;

/** Done: removes the id only while this lease (ARGV[2]) still holds it. */
export const REMOVE = `
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then redis.call('ZREM', KEYS[1], ARGV[1]) end
return 1
`;
