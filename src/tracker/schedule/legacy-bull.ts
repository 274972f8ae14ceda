/**
 * Jobs a previous version queued in BullMQ, moved once into the sweep's due set when a process of
 * this version first sweeps: the versions before the sweep became the only scheduler kept one BullMQ
 * job per pending tracker order (queue `tracker`) and per sell intent and purpose (queue `sell`),
 * under `<prefix>bull:<queue>:`. Tracker orders are also listed in the `tracking` set, which
 * `start()` resumes from; sell intents are listed nowhere else, so without this they would not be
 * looked at again.
 *
 * One script, so the move happens once whichever process comes first: every job waiting, paused,
 * running (its worker is gone), prioritized or failed (the old `enqueue` retried a failed job) is due
 * now, a delayed one at its time (BullMQ scores it `time * 0x1000 + counter`); an id already in the
 * due set keeps its turn. Then the queue's keys and the jobs' hashes are deleted.
 */
import type { RedisClientType } from 'redis';
import { runScript } from '../../store/script.js';

/** KEYS[1] the due set; ARGV[1] the queue's key base (`<prefix>bull:<queue>:`), ARGV[2] now. */
const TAKE_OVER = `
local base, now = ARGV[1], ARGV[2]
if redis.call('EXISTS', base .. 'meta', base .. 'id', base .. 'wait', base .. 'delayed') == 0 then return -1 end
local ids, moved = {}, 0
local function add(id, at)
  -- '0' and '0:<n>' are markers older BullMQ versions kept in the wait list, not jobs.
  if id == '0' or string.sub(id, 1, 2) == '0:' then return end
  ids[#ids + 1] = id
  moved = moved + redis.call('ZADD', KEYS[1], 'NX', at, id)
end
for _, list in ipairs({ 'wait', 'paused', 'active' }) do
  for _, id in ipairs(redis.call('LRANGE', base .. list, 0, -1)) do add(id, now) end
end
for _, set in ipairs({ 'prioritized', 'failed' }) do
  for _, id in ipairs(redis.call('ZRANGE', base .. set, 0, -1)) do add(id, now) end
end
local delayed = redis.call('ZRANGE', base .. 'delayed', 0, -1, 'WITHSCORES')
for i = 1, #delayed, 2 do add(delayed[i], string.format('%d', math.floor(tonumber(delayed[i + 1]) / 4096))) end
for _, id in ipairs(redis.call('ZRANGE', base .. 'completed', 0, -1)) do ids[#ids + 1] = id end
for _, id in ipairs(ids) do redis.call('DEL', base .. id, base .. id .. ':lock', base .. id .. ':logs') end
for _, k in ipairs({ 'wait', 'paused', 'active', 'prioritized', 'failed', 'delayed', 'completed',
  'waiting-children', 'meta', 'id', 'events', 'stalled', 'stalled-check', 'marker', 'pc', 'limiter',
  'metrics:completed', 'metrics:failed', 'metrics:completed:data', 'metrics:failed:data' }) do
  redis.call('DEL', base .. k)
end
return moved
`;

/** Where a previous version's BullMQ queue was: its key prefix (`<prefix>bull`) and name. */
export interface LegacyBullQueue {
  prefix: string;
  queue: string;
}

/**
 * Moves the queue's pending jobs into the due set `key` and deletes the queue; how many ids were
 * added (-1: there was no such queue).
 */
export async function takeOverBullQueue(
  redis: RedisClientType,
  key: string,
  legacy: LegacyBullQueue,
  now = Date.now(),
): Promise<number> {
  const base = `${legacy.prefix}:${legacy.queue}:`;
  return Number(await runScript(redis, TAKE_OVER, { keys: [key], arguments: [base, String(now)] }));
}
