/**
 * One due plan, handled by whichever process leased it (sweep.ts): close the last run if its window
 * passed, then send this period's reminder exactly once. Once-only rests on three things: the lease
 * (one process at a time per plan), the run record (SET NX `sending:<token>`, then `1` (sent) once the
 * notifier took the reminder) and the plan's own `run` (written after). A claimant that died after
 * its SET NX leaves `sending:<token>`; the next lease holder can only hold the plan because that
 * lease lapsed unrenewed, so it takes the record over and sends. The window that remains: a process
 * killed after the channel accepted the reminder and before `sent` was written (one Redis round
 * trip) makes the next holder send it a second time. Missed periods are never stacked: after any
 * downtime the run owed is only the latest period's.
 */
import { randomBytes } from 'node:crypto';
import type { OutMessage, UserRef } from '../chat/types.js';
import { button, shortAddress, text } from '../flows/flow.js';
import { parsePhone, parseWallet } from '../flows/parse.js';
import { formatNumber } from '../i18n/format.js';
import type { Logger } from '../log/logger.js';
import { type SendScope, sendScope } from '../outbound/index.js';
import { archiveRun, closeRun, type Plan } from './plan.js';
import { latestDue, nextDue, parseCadence, periodId } from './schedule.js';
import { type PlanStore, RUN_SENT } from './store.js';

export interface RemindDeps {
  store: PlanStore;
  /** `scope`: the reminder's send is named (src/outbound/scope.ts). */
  notify(user: UserRef, message: OutMessage, scope?: SendScope): Promise<void>;
  /** About how many tokens the plan's KES buy now (decimal text), or undefined when no quote came. */
  estimate(plan: Plan): Promise<string | undefined>;
  /** How long a reminder's Pay stays open. */
  windowMs: number;
  now(): number;
  logger: Logger;
}

/** `telegram:123` → the user. */
export function ownerOf(plan: Plan): UserRef {
  const i = plan.u.indexOf(':');
  return { channel: plan.u.slice(0, i) as UserRef['channel'], id: plan.u.slice(i + 1) };
}

export const payButtonId = (planId: string, period: string) => `save:pay:${planId}:${period}`;
export const skipButtonId = (planId: string, period: string) => `save:skip:${planId}:${period}`;

/** When the sweep should look at the plan again: its window's end while a reminder is open, else its next run. */
export function wakeAt(plan: Plan, windowMs: number): number {
  return plan.run?.s === 'sent' || plan.run?.s === 'sending'
    ? Math.min(plan.due, plan.run.at + windowMs)
    : plan.due;
}

/** What is wrong with a plan's wallet or phone now (checked like a buy's), if anything. */
export function planProblem(plan: Plan): 'wallet' | 'phone' | undefined {
  const w = parseWallet(plan.n, plan.w);
  if (!w.ok || w.value !== plan.w) return 'wallet';
  return parsePhone(plan.ph) === plan.ph ? undefined : 'phone';
}

/** The reminder: what the run buys, where it goes, and Pay now / Skip. */
export function reminderMessage(plan: Plan, period: string, about: string | undefined): OutMessage {
  const cad = parseCadence(plan.c)!;
  const args = {
    every: cad.every,
    kes: formatNumber('en', plan.kes, 0),
    token: plan.t,
    wallet: shortAddress(plan.w),
  };
  return {
    texts: [about ? text('savings-reminder', { ...args, about }) : text('savings-reminder-plain', args)],
    buttons: [
      [button(payButtonId(plan.id, period), 'savings-button-pay')],
      [button(skipButtonId(plan.id, period), 'savings-button-skip')],
    ],
  };
}

/** Pauses a plan whose wallet or phone went bad, telling its user once. */
async function pauseInvalid(d: RemindDeps, plan: Plan, problem: 'wallet' | 'phone'): Promise<undefined> {
  const paused = await d.store.update(plan.id, (p) => (p.s === 'a' ? { ...p, s: 'p', told: 1 } : undefined));
  if (paused && !plan.told)
    await d.notify(ownerOf(plan), {
      texts: [text(`savings-invalid-${problem}`, { token: plan.t })],
      buttons: [[button('save:list', 'savings-button-list')]],
    });
  d.logger.warn({ planId: plan.id, problem }, 'standing buy paused: its wallet or phone is no longer valid');
  return undefined;
}

/** Handles a leased plan; answers when it is next due, or undefined to leave the due set. */
export async function handleDue(d: RemindDeps, id: string): Promise<number | undefined> {
  let plan = await d.store.get(id);
  // Gone, unreadable (logged by the store) or paused (Resume puts it back): out of the set.
  if (!plan || plan.s === 'p') return undefined;
  const now = d.now();
  const open = plan.run;
  const unanswered = (s: string | undefined) => s === 'sent' || s === 'sending';
  if (open && unanswered(open.s) && now >= open.at + d.windowMs) {
    plan =
      (await d.store.update(id, (p) =>
        p.run?.p === open.p && unanswered(p.run.s) ? closeRun(p, 'missed') : undefined,
      )) ?? (await d.store.get(id));
    if (!plan || plan.s === 'p') return undefined;
  }
  const cadence = parseCadence(plan.c)!;
  let period: string;
  let next: number;
  if (plan.run?.s === 'sending') {
    // A run started whose reminder may not have gone (its sender died): finish it.
    period = plan.run.p;
    next = plan.due;
  } else {
    if (now < plan.due) return wakeAt(plan, d.windowMs);
    const dueAt = latestDue(cadence, now);
    period = periodId(cadence, dueAt);
    next = nextDue(cadence, dueAt);
    if (plan.run?.p === period) {
      // This period's reminder went already (the due time was not moved on): only move it on.
      const moved = await d.store.update(id, (p) => (p.due < next ? { ...p, due: next } : undefined));
      return wakeAt(moved ?? plan, d.windowMs);
    }
  }
  const problem = planProblem(plan);
  if (problem) return pauseInvalid(d, plan, problem);

  const token = `sending:${randomBytes(6).toString('hex')}`;
  // The run is written before the reminder goes, so a Pay tapped the moment it arrives finds it open.
  const start = (p: Plan): Plan | undefined =>
    p.run?.p === period
      ? undefined
      : {
          ...p,
          past: archiveRun(p),
          run: { p: period, no: p.no + 1, at: now, s: 'sending' },
          no: p.no + 1,
          due: next,
        };
  const fresh = start(plan);
  // Usually one round trip: the run claimed and started together.
  const claim = fresh
    ? await d.store.startRun(id, period, token, plan, fresh)
    : { ...(await d.store.claimRun(id, period, token)), started: false };
  if (!claim.claimed && claim.value !== RUN_SENT) {
    // A claimant that died mid-send: its lease lapsed, or this process would not hold the plan.
    const took = await d.store.takeOverRun(id, period, claim.value, token);
    if (!took) return now + 1_000;
    d.logger.warn({ planId: id, period }, 'taking over a reminder whose sender stopped before sending');
  }
  let current =
    claim.claimed && claim.started && fresh
      ? fresh
      : ((await d.store.update(id, start)) ?? (await d.store.get(id)) ?? plan);
  if (claim.claimed || claim.value !== RUN_SENT) {
    const about = await d.estimate(current).catch(() => undefined);
    // Named: sent again by a holder that took the run over, it is the message already in the outbox.
    const named = sendScope(`sv:${id}:${period}`, { strict: true });
    await d.notify(ownerOf(current), reminderMessage(current, period, about), named);
    const sent: Plan =
      current.run?.p === period ? { ...current, run: { ...current.run, s: 'sent' } } : current;
    if (await d.store.finishRun(id, period, current, sent)) return wakeAt(sent, d.windowMs);
  } else d.logger.info({ planId: id, period }, 'the reminder went before a crash; recording it');
  current =
    (await d.store.update(id, (p) =>
      p.run?.p === period && p.run.s === 'sending' ? { ...p, run: { ...p.run, s: 'sent' } } : undefined,
    )) ??
    (await d.store.get(id)) ??
    current;
  return wakeAt(current, d.windowMs);
}
