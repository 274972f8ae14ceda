/**
 * The standing buys in Redis: one JSON string per plan (`<prefix>sv:p:<id>`), the user's plan ids
 * (`<prefix>sv:u:<user>`), the due set every process sweeps (`<prefix>sv:due`, see sweep.ts) and
 * one short-lived record per run (`<prefix>sv:r:<id>:<period>`, SET NX) that makes its reminder a
 * once-only act across replicas and restarts. Plans change by compare-and-set on their JSON, so the
 * sweep and a user's Pause never overwrite each other.
 */
import type { RedisClientType } from 'redis';
import { runScript } from '../store/script.js';
import { decodePlan, type Plan } from './plan.js';

/** How long a run record outlives its reminder: past any lease, any retry of that run's sweep. */
export const RUN_RECORD_TTL_S = 2 * 24 * 3600;

/** Creates a plan only while its user has fewer than ARGV[3]: 1 when created, 0 when at the limit. */
const CREATE = `
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[3]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SADD', KEYS[2], ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[2])
return 1
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

export interface PlanStore {
  readonly dueKey: string;
  /** The plan, undefined when absent; a record that does not parse is reported through `bad`. */
  get(id: string): Promise<Plan | undefined>;
  ofUser(user: string): Promise<Plan[]>;
  /** False when the user already has `max` plans. */
  create(plan: Plan, max: number): Promise<boolean>;
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
  takeOverRun(id: string, period: string, seen: string, value: string): Promise<boolean>;
  markRun(id: string, period: string, value: string): Promise<void>;
}

export function createPlanStore(
  redis: () => Promise<RedisClientType>,
  prefix: string,
  bad: (id: string, why: string) => void,
): PlanStore {
  const planKey = (id: string) => `${prefix}sv:p:${id}`;
  const userKey = (u: string) => `${prefix}sv:u:${u}`;
  const runKey = (id: string, period: string) => `${prefix}sv:r:${id}:${period}`;
  const dueKey = `${prefix}sv:due`;
  const read = (id: string, raw: string | null): Plan | undefined => {
    if (raw === null) return undefined;
    const r = decodePlan(raw);
    if ('plan' in r) return r.plan;
    bad(id, r.error);
    return undefined;
  };

  return {
    dueKey,
    async get(id) {
      return read(id, await (await redis()).get(planKey(id)));
    },
    async ofUser(user) {
      const r = await redis();
      const ids = (await r.sMembers(userKey(user))).sort();
      if (!ids.length) return [];
      const raws = await r.mGet(ids.map(planKey));
      return ids.flatMap((id, i) => read(id, raws[i] ?? null) ?? []);
    },
    async create(plan, max) {
      const created = await runScript(await redis(), CREATE, {
        keys: [planKey(plan.id), userKey(plan.u), dueKey],
        arguments: [JSON.stringify(plan), plan.id, String(max), String(plan.due)],
      });
      return Number(created) === 1;
    },
    async update(id, change) {
      const r = await redis();
      for (let tries = 0; tries < 10; tries++) {
        const raw = await r.get(planKey(id));
        const plan = read(id, raw);
        if (!plan || raw === null) return undefined;
        const next = change(plan);
        if (!next) return undefined;
        const swapped = await runScript(r, SWAP, {
          keys: [planKey(id)],
          arguments: [raw, JSON.stringify(next)],
        });
        if (Number(swapped) === 1) return next;
      }
      throw new Error(`plan ${id} kept changing under 10 tries to update it`);
    },
    async remove(plan) {
      const r = await redis();
      await r.multi().del(planKey(plan.id)).sRem(userKey(plan.u), plan.id).zRem(dueKey, plan.id).exec();
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
