/**
 * The plan store's contract, on Redis and in memory (local mode) alike: at most `max` plans per
 * user in slots of the user's tag, a colliding user's plans told apart; compare-and-set updates;
 * the run record set once (claim, start, take over only what was seen, finish marks it sent).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from '../../src/savings/plan.js';
import { createPlanStore, type PlanStore, RUN_SENT } from '../../src/savings/store.js';
import { createMemoryPlanStore } from '../../src/savings/store-memory.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';
import { weeklyPlan } from './plan-fixture.js';

let redis: Awaited<ReturnType<typeof connectTestRedis>>;
const prefixes: string[] = [];
beforeAll(async () => {
  redis = await connectTestRedis();
});
afterAll(async () => {
  for (const p of prefixes) await flushPrefix(redis, p);
  await redis.quit();
});

const plan = (u: string, over: Partial<Plan> = {}): Omit<Plan, 'id'> =>
  weeklyPlan(u, Date.now() + 3600_000, over);

const backends: Array<{ backend: string; make: () => PlanStore }> = [
  {
    backend: 'redis',
    make: () => {
      const p = uniquePrefix('svstore');
      prefixes.push(p);
      return createPlanStore(
        async () => redis,
        p,
        () => {},
      );
    },
  },
  { backend: 'memory', make: () => createMemoryPlanStore() },
];

describe.each(backends)('plan store ($backend)', ({ make }) => {
  it('at most max plans per user; a freed slot is reused; another user is not counted', async () => {
    const s = make();
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await s.create(plan('terminal:a', { kes: 100 + i }), 3));
    expect(made.map((p) => p?.id.slice(-1))).toEqual(['1', '2', '3']);
    expect(await s.create(plan('terminal:a'), 3)).toBeUndefined();
    expect(await s.create(plan('terminal:b'), 3)).toBeDefined();
    await s.remove(made[1]!);
    expect(await s.get(made[1]!.id)).toBeUndefined();
    const again = await s.create(plan('terminal:a', { kes: 900 }), 3);
    expect(again?.id).toBe(made[1]!.id);
    expect((await s.ofUser('terminal:a', 3)).map((p) => p.kes).sort()).toEqual([100, 102, 900]);
    expect(await s.ofUser('terminal:c', 3)).toEqual([]);
  });

  it('update is compare-and-set: a declined change writes nothing; a gone plan is undefined', async () => {
    const s = make();
    const p = (await s.create(plan('terminal:u'), 5))!;
    expect((await s.update(p.id, (x) => ({ ...x, s: 'p' })))?.s).toBe('p');
    expect(await s.update(p.id, () => undefined)).toBeUndefined();
    expect((await s.get(p.id))?.s).toBe('p');
    expect(await s.update('nope1', (x) => x)).toBeUndefined();
  });

  it('run records: claimed once; started only while the plan is unchanged; taken over only as seen; finished as sent', async () => {
    const s = make();
    const p = (await s.create(plan('terminal:r'), 5))!;
    const started: Plan = { ...p, no: 1, run: { p: '2026-W48', no: 1, at: Date.now(), s: 'sending' } };
    expect(await s.startRun(p.id, '2026-W48', 'sending:a', p, started)).toEqual({
      claimed: true,
      started: true,
    });
    expect(await s.startRun(p.id, '2026-W48', 'sending:b', p, started)).toEqual({
      claimed: false,
      value: 'sending:a',
    });
    expect(await s.claimRun(p.id, '2026-W48', 'sending:b')).toEqual({ claimed: false, value: 'sending:a' });
    expect(await s.takeOverRun(p.id, '2026-W48', 'sending:x', 'sending:b')).toBe(false);
    expect(await s.takeOverRun(p.id, '2026-W48', 'sending:a', 'sending:b')).toBe(true);
    const sent: Plan = { ...started, run: { ...started.run!, s: 'sent' } };
    expect(await s.finishRun(p.id, '2026-W48', p, sent)).toBe(false);
    expect(await s.finishRun(p.id, '2026-W48', started, sent)).toBe(true);
    expect(await s.claimRun(p.id, '2026-W48', 'sending:c')).toEqual({ claimed: false, value: RUN_SENT });
    // Another period, or a plan changed before the start: claimed, not started.
    expect(await s.startRun(p.id, '2026-W49', 'sending:d', p, started)).toEqual({
      claimed: true,
      started: false,
    });
    await s.markRun(p.id, '2026-W50', RUN_SENT);
    expect(await s.claimRun(p.id, '2026-W50', 'sending:e')).toEqual({ claimed: false, value: RUN_SENT });
    expect((await s.get(p.id))?.run?.s).toBe('sent');
  });
});
