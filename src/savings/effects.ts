/**
 * The `savings` effect: what the savings flow asks of the plans (create, list, pause, resume,
 * change, cancel, pay, skip, note the paid order), answered as inputs. Pay checks that the run is
 * the plan's current one and still open, that the wallet, phone and token are still good (pausing
 * the plan and saying so otherwise), and takes a fresh quote: the amounts the user is then shown
 * are the ones the STK push asks for.
 */
import { userKey } from '../chat/types.js';
import type { Engine } from '../engine/index.js';
import { findToken } from '../flows/form/assets.js';
import type { Effect, Input, SavingsOutcome } from '../flows/types.js';
import type { RampClient } from '../ramp/types.js';
import { closeRun, type Plan, viewOf } from './plan.js';
import { planProblem } from './remind.js';
import { nextDue, parseCadence } from './schedule.js';
import type { PlanStore } from './store.js';

type SavingsEffect = Extract<Effect, { type: 'savings' }>;
type Request = SavingsEffect['request'];

export interface SavingsEffectDeps {
  store: PlanStore;
  ramp: Pick<RampClient, 'listAssets' | 'getQuote'>;
  maxPlans: number;
  windowMs: number;
}

const answer = (outcome: SavingsOutcome): Input => ({ kind: 'savings', outcome });

/** Registers the `savings` effect handler on the engine. */
export function registerSavingsEffects(
  engine: Pick<Engine, 'registerEffect'>,
  deps: SavingsEffectDeps,
): void {
  engine.registerEffect<SavingsEffect>('savings', async (e, ctx) =>
    answer(await act(deps, e.request, userKey(ctx.user), ctx.now())),
  );
}

/** A plan of this user (another user's id reads as not found). */
async function own(deps: SavingsEffectDeps, user: string, id: string): Promise<Plan | undefined> {
  const plan = await deps.store.get(id);
  return plan && plan.u === user ? plan : undefined;
}

export async function act(
  deps: SavingsEffectDeps,
  r: Request,
  user: string,
  now: number,
): Promise<SavingsOutcome> {
  const { store } = deps;
  if (r.action === 'create') {
    const cadence = parseCadence(r.plan.cadence);
    if (!cadence) throw new Error(`not a cadence: ${r.plan.cadence}`);
    const created = await store.create(
      {
        v: 1,
        u: user,
        t: r.plan.token,
        n: r.plan.network,
        w: r.plan.wallet,
        ph: r.plan.phone,
        kes: r.plan.amountKes,
        c: r.plan.cadence,
        s: 'a',
        due: nextDue(cadence, now),
        no: 0,
        past: [],
      },
      deps.maxPlans,
    );
    if (!created) return { action: 'tooMany', max: deps.maxPlans };
    return { action: 'created', plan: viewOf(created) };
  }
  if (r.action === 'runs') {
    const plans = await store.ofUser(user, deps.maxPlans);
    return {
      action: 'runs',
      runs: plans.flatMap((p) =>
        viewOf(p)
          .recent.filter((run) => run.status === 'skipped' || run.status === 'missed')
          .map((run) => ({
            no: run.no,
            period: run.period,
            status: run.status,
            token: p.t,
            amountKes: p.kes,
          })),
      ),
    };
  }
  if (r.action === 'list')
    return { action: 'list', plans: (await store.ofUser(user, deps.maxPlans)).map(viewOf) };
  const plan = await own(deps, user, r.planId);
  if (!plan) return { action: 'notFound' };
  switch (r.action) {
    case 'cancel':
      await store.remove(plan);
      return { action: 'updated', change: 'cancel', plan: viewOf(plan) };
    case 'pause': {
      const paused = await store.update(plan.id, (p) => ({ ...p, s: 'p' }));
      return paused ? { action: 'updated', change: 'pause', plan: viewOf(paused) } : { action: 'notFound' };
    }
    case 'resume':
    case 'change': {
      const changed = await store.update(plan.id, (p) => {
        const c = r.action === 'change' && r.cadence ? r.cadence : p.c;
        const { told: _told, ...rest } = p;
        return {
          ...rest,
          s: 'a',
          c,
          kes: r.action === 'change' && r.amountKes ? r.amountKes : p.kes,
          // Never a run for a period already reminded: the next one after now.
          due: nextDue(parseCadence(c)!, now),
        };
      });
      if (!changed) return { action: 'notFound' };
      await store.schedule(changed.id, changed.due);
      return { action: 'updated', change: r.action, plan: viewOf(changed) };
    }
    case 'skip': {
      const closed = runState(plan, r.runId, now, deps.windowMs);
      if (closed) return closed;
      const skipped = await store.update(plan.id, (p) =>
        p.run?.p === r.runId && (p.run.s === 'sent' || p.run.s === 'sending')
          ? closeRun(p, 'skipped')
          : undefined,
      );
      if (!skipped)
        return (
          runState((await store.get(plan.id)) ?? plan, r.runId, now, deps.windowMs) ?? { action: 'notFound' }
        );
      return { action: 'skipped', plan: viewOf(skipped), runNo: skipped.run!.no };
    }
    case 'paid': {
      await store.update(plan.id, (p) =>
        p.run?.p === r.runId && p.run.s !== 'paid' ? closeRun(p, 'paid', r.orderId) : undefined,
      );
      return { action: 'noted' };
    }
    case 'pay':
      return pay(deps, plan, r.runId, now);
  }
}

/** Why a run can no longer be paid or skipped, if it cannot. */
function runState(plan: Plan, runId: string, now: number, windowMs: number): SavingsOutcome | undefined {
  const run = plan.run?.p === runId ? plan.run : undefined;
  if (!run) return { action: 'runClosed', reason: 'passed' };
  if (run.s === 'paid') return { action: 'runClosed', reason: 'paid', ...(run.o ? { orderId: run.o } : {}) };
  if (run.s === 'skipped') return { action: 'runClosed', reason: 'skipped' };
  if (run.s === 'missed' || now >= run.at + windowMs) return { action: 'runClosed', reason: 'passed' };
  return undefined;
}

/** Pay now: the run open, the plan still valid, then a fresh quote. */
async function pay(deps: SavingsEffectDeps, plan: Plan, runId: string, now: number): Promise<SavingsOutcome> {
  const closed = runState(plan, runId, now, deps.windowMs);
  if (closed) return closed;
  const assets = await deps.ramp.listAssets();
  const token = findToken(assets.tokens, plan.n, plan.t);
  const problem = token ? planProblem(plan) : 'token';
  if (problem) {
    const paused = await deps.store.update(plan.id, (p) => ({ ...p, s: 'p', told: 1 }));
    return { action: 'invalid', plan: viewOf(paused ?? plan), problem };
  }
  const quote = await deps.ramp.getQuote({
    type: 'onramp',
    network: plan.n,
    token: plan.t,
    fiatCurrency: 'KES',
    amount: String(plan.kes),
  });
  return {
    action: 'payReady',
    plan: viewOf(plan),
    runId,
    runNo: plan.run!.no,
    phone: plan.ph,
    quote,
    token: token!,
  };
}
