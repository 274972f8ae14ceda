/**
 * Which users' lines wait in a replica's desk budget, kept in Redis before the user hears ✓: a line
 * lives in the process until its turn in the group comes, and a SIGKILL (or a SIGTERM whose flushed
 * posts the outbox had not taken yet) would lose it. Each replica holds the numbers of the lines it
 * has queued, per case, and beats while it lives; a replica whose beat stopped leaves its lines to
 * whichever replica sweeps first, which posts them from the case record.
 *
 * Redis layout (prefix `p`, the desk's): `<p>unposted` hash `<caseId>|<owner>` -> `n,n,...`, and
 * `<p>alive:<owner>` while the owner beats.
 */
import { randomBytes } from 'node:crypto';
import type { RedisClientType } from 'redis';
import { runScript } from '../../store/script.js';

export interface LineLedger {
  /** Line `n` of the case waits in this replica's budget. */
  hold(caseId: string, n: number): Promise<void>;
  /** These lines of the case were posted (or given up); what else waits stays held. */
  release(caseId: string, ns: number[]): Promise<void>;
  /** Keeps this replica's holds; takes the lines of replicas that stopped beating, by case. */
  sweep(): Promise<Array<{ caseId: string; lines: number[] }>>;
}

/** Without Redis (one process, local mode) nothing outlives the process to take over. */
export const noLedger: LineLedger = {
  hold: async () => {},
  release: async () => {},
  sweep: async () => [],
};

const HOLD = `
local v = redis.call('HGET', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[1], ARGV[1], v and (v .. ',' .. ARGV[2]) or ARGV[2])
return 1
`;

/** Drops the numbers in ARGV[2] (comma-separated) from the field; the field goes when empty. */
const RELEASE = `
local v = redis.call('HGET', KEYS[1], ARGV[1])
if not v then return 0 end
local drop = {}
for n in string.gmatch(ARGV[2], '[^,]+') do drop[n] = true end
local keep = {}
for n in string.gmatch(v, '[^,]+') do if not drop[n] then keep[#keep + 1] = n end end
if #keep == 0 then redis.call('HDEL', KEYS[1], ARGV[1]) else redis.call('HSET', KEYS[1], ARGV[1], table.concat(keep, ',')) end
return 1
`;

/**
 * Beats for ARGV[2] (ttl ARGV[3]) and moves every field whose owner does not beat to ARGV[2]:
 * returns the moved fields' case ids and numbers, flattened.
 */
const SWEEP = `
redis.call('SET', ARGV[1] .. 'alive:' .. ARGV[2], '1', 'PX', ARGV[3])
local all = redis.call('HGETALL', KEYS[1])
local out = {}
for i = 1, #all, 2 do
  local field, v = all[i], all[i + 1]
  local caseId, owner = string.match(field, '^(.*)|([^|]*)$')
  if caseId and owner ~= ARGV[2] and redis.call('EXISTS', ARGV[1] .. 'alive:' .. owner) == 0 then
    redis.call('HDEL', KEYS[1], field)
    local mine = caseId .. '|' .. ARGV[2]
    local had = redis.call('HGET', KEYS[1], mine)
    redis.call('HSET', KEYS[1], mine, had and (had .. ',' .. v) or v)
    out[#out + 1] = caseId
    out[#out + 1] = v
  end
end
return out
`;

/** The ledger in Redis under the desk's prefix; `beatTtlMs` is how long a silent owner is trusted. */
export function createRedisLedger(opts: {
  client: RedisClientType;
  prefix: string;
  beatTtlMs?: number;
  owner?: string;
}): LineLedger {
  const { client, prefix } = opts;
  const owner = opts.owner ?? randomBytes(6).toString('hex');
  const key = `${prefix}unposted`;
  const ttl = String(opts.beatTtlMs ?? 15_000);
  const field = (caseId: string) => `${caseId}|${owner}`;
  let beating = false;
  const run = (script: string, args: string[]) => runScript(client, script, { keys: [key], arguments: args });
  return {
    async hold(caseId, n) {
      // The first hold beats at once: a sweep elsewhere must not take a line before the timer beats.
      if (!beating) {
        await client.set(`${prefix}alive:${owner}`, '1', { expiration: { type: 'PX', value: Number(ttl) } });
        beating = true;
      }
      await run(HOLD, [field(caseId), String(n)]);
    },
    async release(caseId, ns) {
      if (ns.length) await run(RELEASE, [field(caseId), ns.join(',')]);
    },
    async sweep() {
      beating = true;
      const flat = (await run(SWEEP, [prefix, owner, ttl])) as string[];
      const byCase = new Map<string, number[]>();
      for (let i = 0; i + 1 < flat.length; i += 2) {
        const ns = String(flat[i + 1])
          .split(',')
          .map(Number)
          .filter((n) => Number.isInteger(n) && n > 0);
        byCase.set(String(flat[i]), [...(byCase.get(String(flat[i])) ?? []), ...ns]);
      }
      return [...byCase].map(([caseId, lines]) => ({
        caseId,
        lines: [...new Set(lines)].sort((a, b) => a - b),
      }));
    },
  };
}
