/**
 * Pay now's checks against a real Redis store (and the in-memory one) and the sandbox ramp over HTTP: an open run gets a
 * fresh quote for the plan's amount; a run not the plan's current one, skipped or past its window
 * is closed; a token the ramp no longer lists, or a wallet that no longer checks out, pauses the
 * plan and says why (the pause is kept, so the user is asked once).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRampClient } from '../../src/ramp/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { act, type SavingsEffectDeps } from '../../src/savings/effects.js';
import type { Plan } from '../../src/savings/plan.js';
import { createPlanStore, type PlanStore } from '../../src/savings/store.js';
import { createMemoryPlanStore } from '../../src/savings/store-memory.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';
import { weeklyPlan } from './plan-fixture.js';

const HOUR = 3600_000;
let sandbox: Sandbox;
let redis: Awaited<ReturnType<typeof connectTestRedis>>;
const prefix = uniquePrefix('savepay');
const keys = { apiKey: 'pay-key-12345678', apiSecret: 'pay-secret-0123456789abcdef' };

beforeAll(async () => {
  sandbox = await startSandbox(keys);
  redis = await connectTestRedis();
});
afterAll(async () => {
  await flushPrefix(redis, prefix);
  await redis.quit();
  await sandbox.close();
});

const base = (user: string, over: Partial<Plan> = {}): Omit<Plan, 'id'> =>
  weeklyPlan(user, Date.now() + 7 * 24 * HOUR, {
    no: 1,
    run: { p: '2026-W48', no: 1, at: Date.now() - HOUR, s: 'sent' },
    ...over,
  });

const stores: Array<{ backend: string; store: () => PlanStore }> = [
  {
    backend: 'redis',
    store: () =>
      createPlanStore(
        async () => redis,
        prefix,
        () => {},
      ),
  },
  { backend: 'memory', store: () => createMemoryPlanStore() },
];

describe.each(stores)('Pay now ($backend)', ({ store }) => {
  const deps = (): SavingsEffectDeps => ({
    store: store(),
    ramp: createRampClient({ baseUrl: sandbox.url, ...keys }),
    maxPlans: 5,
    windowMs: 6 * HOUR,
  });

  it('an open run: a fresh quote for the plan’s amount, to its phone', async () => {
    const d = deps();
    const plan = (await d.store.create(base('terminal:a'), 5))!;
    const o = await act(d, { action: 'pay', planId: plan.id, runId: '2026-W48' }, 'terminal:a', Date.now());
    expect(o).toMatchObject({ action: 'payReady', runId: '2026-W48', runNo: 1, phone: '254712345678' });
    if (o.action !== 'payReady') throw new Error('not ready');
    expect(o.quote.inputAmount).toBe('500');
    expect(o.token.symbol).toBe('USDT');
    // Another user's tap on it reads as not found.
    expect(
      await act(d, { action: 'pay', planId: plan.id, runId: '2026-W48' }, 'terminal:b', Date.now()),
    ).toEqual({
      action: 'notFound',
    });
  });

  it('closed runs: an older period, past the window, skipped', async () => {
    const d = deps();
    const plan = (await d.store.create(base('terminal:c'), 5))!;
    const pay = (runId: string, now = Date.now()) =>
      act(d, { action: 'pay', planId: plan.id, runId }, 'terminal:c', now);
    expect(await pay('2026-W47')).toEqual({ action: 'runClosed', reason: 'passed' });
    expect(await pay('2026-W48', Date.now() + 6 * HOUR)).toEqual({ action: 'runClosed', reason: 'passed' });
    expect(
      await act(d, { action: 'skip', planId: plan.id, runId: '2026-W48' }, 'terminal:c', Date.now()),
    ).toMatchObject({
      action: 'skipped',
      runNo: 1,
    });
    expect(await pay('2026-W48')).toEqual({ action: 'runClosed', reason: 'skipped' });
  });

  it('a token no longer listed, or a wallet that no longer checks out: paused, and said once', async () => {
    const d = deps();
    const gone = (await d.store.create(base('terminal:d', { t: 'NOPE' }), 5))!;
    expect(
      await act(d, { action: 'pay', planId: gone.id, runId: '2026-W48' }, 'terminal:d', Date.now()),
    ).toMatchObject({
      action: 'invalid',
      problem: 'token',
      plan: { status: 'paused' },
    });
    const bad = (await d.store.create(
      base('terminal:e', { w: '0x742d35cc6634c0532925a3b844bc454e4438f44E' }),
      5,
    ))!;
    expect(
      await act(d, { action: 'pay', planId: bad.id, runId: '2026-W48' }, 'terminal:e', Date.now()),
    ).toMatchObject({
      action: 'invalid',
      problem: 'wallet',
    });
    expect((await d.store.get(bad.id))?.s).toBe('p');
    expect((await d.store.get(bad.id))?.told).toBe(1);
    expect(sandbox.stkPushCount()).toBe(0);
  });
});
