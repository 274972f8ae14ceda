/**
 * Standing buys in the durable record outside Redis (src/recovery/standing-record.ts): every plan is
 * written whole after each change (created, paused, resumed, changed, each run started or finished)
 * and removed with it, and after Redis came back empty the recovery pass puts it back under its id
 * with its runs, and back in the due set, so it runs as before. A plan whose id was taken meanwhile
 * by another plan of its user goes to a free slot; when the user has no room left, they are told once.
 * What is not kept: a run's once-only record (`sv:r:…`), so a reminder being sent the instant Redis
 * was emptied may go a second time.
 */
import * as z from 'zod';
import { button, text } from '../flows/flow.js';
import type { StandingRestorer } from '../recovery/standing.js';
import type { StandingRecord } from '../recovery/standing-record.js';
import { runScript } from '../store/script.js';
import { decodePlan, encodePlan, type Plan } from './plan.js';
import { ownerOf, wakeAt } from './remind.js';
import type { PlanStore } from './store.js';

const payloadSchema = z.object({ id: z.string().min(1), plan: z.string().min(1) });

/** Sets the plan (KEYS[1]) unless one is there, and puts it in the due set (KEYS[2]) when ARGV[2] is given. */
const RESTORE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('SET', KEYS[1], ARGV[1])
if ARGV[2] ~= '' then redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3]) end
return 1
`;

/** The store, writing each plan to the record after every change. */
export function journaledPlans(store: PlanStore, record: StandingRecord): PlanStore {
  const keep = (plan: Plan | undefined) =>
    plan ? record.put('plans', plan.id, { id: plan.id, plan: encodePlan(plan) }) : Promise.resolve();
  return {
    ...store,
    async create(plan, max) {
      const made = await store.create(plan, max);
      await keep(made);
      return made;
    },
    async update(id, change) {
      const next = await store.update(id, change);
      await keep(next);
      return next;
    },
    async remove(plan) {
      await store.remove(plan);
      await record.put('plans', plan.id, undefined);
    },
    async startRun(id, period, value, before, after) {
      const out = await store.startRun(id, period, value, before, after);
      if (out.claimed && out.started) await keep(after);
      return out;
    },
    async finishRun(id, period, before, after) {
      const done = await store.finishRun(id, period, before, after);
      if (done) await keep(after);
      return done;
    },
  };
}

/** Puts a recorded plan back into Redis (`redis`: the store's client; `prefix`: the app's key prefix). */
export function planRestorer(deps: {
  store: PlanStore;
  redis: () => Promise<import('redis').RedisClientType>;
  prefix: string;
  record: StandingRecord;
  maxPlans: number;
  windowMs: number;
}): StandingRestorer {
  const { store, record } = deps;
  return {
    async backfill() {
      let n = 0;
      const redis = await deps.redis();
      const at = `${deps.prefix}sv:p:`;
      for await (const keys of redis.scanIterator({ MATCH: `${at}*`, COUNT: 500 }))
        for (const key of Array.isArray(keys) ? keys : [keys]) {
          const plan = await store.get(key.slice(at.length));
          if (!plan) continue;
          await record.put('plans', plan.id, { id: plan.id, plan: encodePlan(plan) });
          n += 1;
        }
      return n;
    },
    lostMessage: {
      texts: [text('savings-lost-after-outage')],
      buttons: [[button('save:list', 'savings-button-list')]],
      notice: true,
    },
    async restore(raw) {
      const parsed = payloadSchema.safeParse(raw);
      const decoded = parsed.success ? decodePlan(parsed.data.id, parsed.data.plan) : undefined;
      if (!decoded || !('plan' in decoded)) return { restored: 0, present: 0, lost: 1 };
      const plan = decoded.plan;
      const user = ownerOf(plan);
      const due = plan.s === 'a' ? String(wakeAt(plan, deps.windowMs)) : '';
      const set = await runScript(await deps.redis(), RESTORE, {
        keys: [`${deps.prefix}sv:p:${plan.id}`, store.dueKey],
        arguments: [encodePlan(plan), due, plan.id],
      });
      if (Number(set) === 1) return { restored: 1, present: 0, lost: 0, user };
      const there = await store.get(plan.id);
      const same = (p: Plan) =>
        p.u === plan.u && p.t === plan.t && p.n === plan.n && p.kes === plan.kes && p.c === plan.c;
      if (there && same(there)) return { restored: 0, present: 1, lost: 0, user };
      // Its slot holds another plan (made after the loss): a free slot, if the user has room.
      const { id: _old, ...rest } = plan;
      const moved = await store.create(rest, deps.maxPlans);
      if (moved) {
        await record.put('plans', plan.id, undefined);
        await record.put('plans', moved.id, { id: moved.id, plan: encodePlan(moved) });
        return { restored: 1, present: 0, lost: 0, user };
      }
      return { restored: 0, present: 0, lost: 1, user };
    },
  };
}
