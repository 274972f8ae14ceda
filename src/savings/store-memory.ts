/**
 * The standing buys' store in process memory, for local mode (no REDIS_URL): the same contract as
 * `createPlanStore` (slots per user tag, compare-and-set on a plan's JSON, the due set, run records
 * set once) over Maps. Lost when the process exits.
 */
import { decodePlan, encodePlan, type Plan } from './plan.js';
import { type PlanStore, RUN_RECORD_TTL_S, RUN_SENT, userTag } from './store.js';

/** Slots looked at beyond the user's limit, as in the Redis store. */
const SPARE_SLOTS = 5;

/** A `PlanStore` whose due set is a Map the in-process sweep reads (sweep-memory.ts). */
export interface MemoryPlanStore extends PlanStore {
  /** Plan id → when it is due (epoch ms); `Infinity` while a run of it is in progress. */
  readonly due: Map<string, number>;
}

export function createMemoryPlanStore(
  bad: (id: string, why: string) => void = () => {},
  now: () => number = Date.now,
): MemoryPlanStore {
  const plans = new Map<string, string>();
  const due = new Map<string, number>();
  const runs = new Map<string, { value: string; until: number }>();
  const runKey = (id: string, period: string) => `${id}:${period}`;
  const read = (id: string, raw: string | undefined): Plan | undefined => {
    if (raw === undefined) return undefined;
    const r = decodePlan(id, raw);
    if ('plan' in r) return r.plan;
    bad(id, r.error);
    return undefined;
  };
  const runOf = (key: string): string | undefined => {
    const r = runs.get(key);
    if (r && r.until <= now()) runs.delete(key);
    return r && r.until > now() ? r.value : undefined;
  };
  const setRun = (key: string, value: string) => {
    for (const [k, r] of runs) if (r.until <= now()) runs.delete(k);
    runs.set(key, { value, until: now() + RUN_RECORD_TTL_S * 1000 });
  };
  /** Replaces the plan only while its JSON is still `before`'s. */
  const swap = (id: string, before: Plan, after: Plan): boolean => {
    if (plans.get(id) !== encodePlan(before)) return false;
    plans.set(id, encodePlan(after));
    return true;
  };

  return {
    dueKey: 'memory',
    due,
    async get(id) {
      return read(id, plans.get(id));
    },
    async ofUser(user, max) {
      const tag = userTag(user);
      return Array.from({ length: max + SPARE_SLOTS }, (_, i) => `${tag}${i + 1}`)
        .flatMap((id) => read(id, plans.get(id)) ?? [])
        .filter((p) => p.u === user);
    },
    async create(plan, max) {
      const tag = userTag(plan.u);
      let free: number | undefined;
      let owned = 0;
      for (let i = 1; i <= max + SPARE_SLOTS; i++) {
        const raw = plans.get(`${tag}${i}`);
        if (raw === undefined) free ??= i;
        else if (read(`${tag}${i}`, raw)?.u === plan.u) owned++;
      }
      if (owned >= max || free === undefined) return undefined;
      const id = `${tag}${free}`;
      plans.set(id, encodePlan({ ...plan, id: '' }));
      due.set(id, plan.due);
      return { ...plan, id };
    },
    async update(id, change) {
      const plan = read(id, plans.get(id));
      if (!plan) return undefined;
      const next = change(plan);
      if (!next) return undefined;
      // Synchronous from read to write: nothing else runs in between, so the swap always holds.
      plans.set(id, encodePlan(next));
      return next;
    },
    async remove(plan) {
      plans.delete(plan.id);
      due.delete(plan.id);
    },
    async schedule(id, at) {
      due.set(id, at);
    },
    async claimRun(id, period, value) {
      const seen = runOf(runKey(id, period));
      if (seen !== undefined) return { claimed: false, value: seen };
      setRun(runKey(id, period), value);
      return { claimed: true };
    },
    async startRun(id, period, value, before, after) {
      const seen = runOf(runKey(id, period));
      if (seen !== undefined) return { claimed: false, value: seen };
      setRun(runKey(id, period), value);
      return { claimed: true, started: swap(id, before, after) };
    },
    async finishRun(id, period, before, after) {
      setRun(runKey(id, period), RUN_SENT);
      return swap(id, before, after);
    },
    async takeOverRun(id, period, seen, value) {
      const key = runKey(id, period);
      const r = runs.get(key);
      if (runOf(key) !== seen || !r) return false;
      r.value = value;
      return true;
    },
    async markRun(id, period, value) {
      setRun(runKey(id, period), value);
    },
  };
}
