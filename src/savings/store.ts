/**
 * The standing buys in Redis: one JSON string per plan (`<prefix>sv:p:<id>`), the due set every
 * process sweeps (`<prefix>sv:due`, see sweep.ts) and one short-lived record per run
 * (`<prefix>sv:r:<id>:<period>`, SET NX) that makes its reminder a once-only act across replicas
 * and restarts. A plan's id is its user's tag (a hash of the user key) and a slot number, so a
 * user's plans are found without an index of their own (one MGET of the slots; a record of another
 * user whose tag collides is told apart by its user): an index set per user cost 216 bytes per plan.
 * Plans change by compare-and-set on their JSON, so the sweep and a user's Pause never overwrite
 * each other.
 */
import type { RedisClientType } from 'redis';
import { runScript } from '../store/script.js';
import { decodePlan, encodePlan, type Plan } from './plan.js';

/** How long a run record outlives its claim: far past any lease, so a takeover always finds it. */
export const RUN_RECORD_TTL_S = 24 * 3600;

/** A run record's value once its reminder went: "1" is stored as an integer, 16 bytes fewer than "sent". */
export const RUN_SENT = '1';

/** Slots looked at beyond the user's limit: room for a colliding user's plans. */
const SPARE_SLOTS = 5;

/**
 * Creates a plan in the first free slot of ARGV[1] while the user (ARGV[2]) owns fewer than
 * ARGV[3]; answers the slot, or 0 at the limit. ARGV[4] is the plan's JSON, ARGV[5] its due time.
 */
const CREATE = `
local max = tonumber(ARGV[3])
local free, owned = nil, 0
for i = 1, max + ${SPARE_SLOTS} do
  local v = redis.call('GET', ARGV[1] .. i)
  if not v then
    if not free then free = i end
  else
    local ok, p = pcall(cjson.decode, v)
    if ok and type(p) == 'table' and p[2] == ARGV[2] then owned = owned + 1 end
  end
end
if owned >= max or not free then return 0 end
redis.call('SET', ARGV[1] .. free, ARGV[4])
redis.call('ZADD', KEYS[1], ARGV[5], ARGV[6] .. free)
return free
`;

/** Replaces the plan only while it is still ARGV[1]: 1 when replaced. */
const SWAP = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1
`;

/** Replaces the run record only while it is still ARGV[1] (a dead claimant's "sending"), keeping its TTL. */
const TAKE_OVER = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
return 1
`;

/**
 * Claims a run and starts it in one round trip: SET NX of the run record (KEYS[1]) and, when that
 * took, the plan (KEYS[2]) replaced by ARGV[3] if it is still ARGV[2]. Answers {1, 1} (claimed and
 * started), {1, 0} (claimed; the plan had changed) or {0, <the record already there>}.
 */
const START = `
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[4]) then return {0, redis.call('GET', KEYS[1]) or ''} end
if redis.call('GET', KEYS[2]) ~= ARGV[2] then return {1, 0} end
redis.call('SET', KEYS[2], ARGV[3])
return {1, 1}
`;

/** Marks the run sent (KEYS[1] = ARGV[1]) and replaces the plan (KEYS[2]) by ARGV[3] if it is still ARGV[2]: 1 when it did. */
const FINISH = `
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[4])
if redis.call('GET', KEYS[2]) ~= ARGV[2] then return 0 end
redis.call('SET', KEYS[2], ARGV[3])
return 1
`;

/** A user key's tag: 7 base-36 characters of its FNV-1a hash. */
export function userTag(user: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < user.length; i++) {
    h ^= user.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36).padStart(7, '0');
}

export interface PlanStore {
  readonly dueKey: string;
  /** The plan, undefined when absent; a record that does not parse is reported through `bad`. */
  get(id: string): Promise<Plan | undefined>;
  ofUser(user: string, max: number): Promise<Plan[]>;
  /** The plan as created (its id given here), or undefined when the user already has `max`. */
  create(plan: Omit<Plan, 'id'>, max: number): Promise<Plan | undefined>;
  /** Changes a plan by compare-and-set (`change` may be called again on a conflict); undefined when it is gone or `change` declined. */
  update(id: string, change: (p: Plan) => Plan | undefined): Promise<Plan | undefined>;
  remove(plan: Plan): Promise<void>;
  /** Puts the plan (back) in the due set at `at`. */
  schedule(id: string, at: number): Promise<void>;
  /** SET NX of the run record: `claimed`, or the record already there. */
  claimRun(
    id: string,
    period: string,
    value: string,
  ): Promise<{ claimed: true } | { claimed: false; value: string }>;
  /** `claimRun` and, when claimed, `before` replaced by `after` in the same round trip (`started`). */
  startRun(
    id: string,
    period: string,
    value: string,
    before: Plan,
    after: Plan,
  ): Promise<{ claimed: true; started: boolean } | { claimed: false; value: string }>;
  /** `markRun(RUN_SENT)` and `before` replaced by `after` in one round trip; false when the plan had changed. */
  finishRun(id: string, period: string, before: Plan, after: Plan): Promise<boolean>;
  takeOverRun(id: string, period: string, seen: string, value: string): Promise<boolean>;
  markRun(id: string, period: string, value: string): Promise<void>;
}

export function createPlanStore(
  redis: () => Promise<RedisClientType>,
  prefix: string,
  bad: (id: string, why: string) => void,
): PlanStore {
  const planKey = (id: string) => `${prefix}sv:p:${id}`;
  const runKey = (id: string, period: string) => `${prefix}sv:r:${id}:${period}`;
  const dueKey = `${prefix}sv:due`;
  const read = (id: string, raw: string | null): Plan | undefined => {
    if (raw === null) return undefined;
    const r = decodePlan(id, raw);
    if ('plan' in r) return r.plan;
    bad(id, r.error);
    return undefined;
  };

  return {
    dueKey,
    async get(id) {
      return read(id, await (await redis()).get(planKey(id)));
    },
    async ofUser(user, max) {
      const tag = userTag(user);
      const ids = Array.from({ length: max + SPARE_SLOTS }, (_, i) => `${tag}${i + 1}`);
      const raws = await (await redis()).mGet(ids.map(planKey));
      return ids.flatMap((id, i) => read(id, raws[i] ?? null) ?? []).filter((p) => p.u === user);
    },
    async create(plan, max) {
      const tag = userTag(plan.u);
      const slot = await runScript(await redis(), CREATE, {
        keys: [dueKey],
        arguments: [
          planKey(tag),
          plan.u,
          String(max),
          encodePlan({ ...plan, id: '' }),
          String(plan.due),
          tag,
        ],
      });
      return Number(slot) > 0 ? { ...plan, id: `${tag}${slot}` } : undefined;
    },
    async update(id, change) {
      const r = await redis();
      for (let tries = 0; tries < 10; tries++) {
        const raw = await r.get(planKey(id));
        const plan = read(id, raw);
        if (!plan || raw === null) return undefined;
        const next = change(plan);
        if (!next) return undefined;
        const swapped = await runScript(r, SWAP, { keys: [planKey(id)], arguments: [raw, encodePlan(next)] });
        if (Number(swapped) === 1) return next;
      }
      throw new Error(`plan ${id} kept changing under 10 tries to update it`);
    },
    async remove(plan) {
      const r = await redis();
      await r.multi().del(planKey(plan.id)).zRem(dueKey, plan.id).exec();
    },
    async schedule(id, at) {
      await (await redis()).zAdd(dueKey, { score: at, value: id });
    },
    async claimRun(id, period, value) {
      const r = await redis();
      const ok = await r.set(runKey(id, period), value, {
        condition: 'NX',
        expiration: { type: 'EX', value: RUN_RECORD_TTL_S },
      });
      if (ok === 'OK') return { claimed: true };
      return { claimed: false, value: (await r.get(runKey(id, period))) ?? '' };
    },
    async startRun(id, period, value, before, after) {
      const [claimed, v] = (await runScript(await redis(), START, {
        keys: [runKey(id, period), planKey(id)],
        arguments: [value, encodePlan(before), encodePlan(after), String(RUN_RECORD_TTL_S)],
      })) as [number, string | number];
      return Number(claimed) === 1
        ? { claimed: true, started: Number(v) === 1 }
        : { claimed: false, value: String(v) };
    },
    async finishRun(id, period, before, after) {
      const done = await runScript(await redis(), FINISH, {
        keys: [runKey(id, period), planKey(id)],
        arguments: [RUN_SENT, encodePlan(before), encodePlan(after), String(RUN_RECORD_TTL_S)],
      });
      return Number(done) === 1;
    },
    async takeOverRun(id, period, seen, value) {
      const done = await runScript(await redis(), TAKE_OVER, {
        keys: [runKey(id, period)],
        arguments: [seen, value],
      });
      return Number(done) === 1;
    },
    async markRun(id, period, value) {
      await (await redis()).set(runKey(id, period), value, {
        expiration: { type: 'EX', value: RUN_RECORD_TTL_S },
      });
    },
  };
}
