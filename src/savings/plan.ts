/**
 * A standing buy as stored: versioned JSON read through zod, so a record that does not parse is
 * logged and skipped, never crashing the sweep. Compact on purpose: a plan must fit in 500 bytes of
 * Redis with its share of the due set and its run record (the README's "Standing buys" gives the
 * measured figure).
 */
import * as z from 'zod';
import { NETWORKS } from '../domain/types.js';
import type { PlanView, SavingsRunStatus } from '../flows/types.js';
import { parseCadence } from './schedule.js';

/** How many past runs a plan keeps for /savings and /history (paid ones also live in the order). */
export const PAST_KEPT = 2;

const RUN_STATUS = ['sending', 'sent', 'paid', 'skipped', 'missed'] as const;
export type RunStatus = (typeof RUN_STATUS)[number];

/** The current (latest) run: its period, number, when the reminder went, what became of it. */
const runSchema = z.object({
  p: z.string().max(12),
  no: z.number().int().positive(),
  at: z.number().int(),
  s: z.enum(RUN_STATUS),
  o: z.string().max(40).optional(),
});
export type Run = z.infer<typeof runSchema>;

export const planSchema = z.object({
  v: z.literal(1),
  id: z.string().min(1).max(24),
  /** The owner, `<channel>:<id>` (chat/types userKey). */
  u: z.string().min(3).max(80),
  /** Token symbol and network. */
  t: z.string().min(1).max(20),
  n: z.enum(NETWORKS),
  /** Wallet and 254XXXXXXXXX phone, checked again at each Pay. */
  w: z.string().min(1).max(80),
  ph: z.string().regex(/^254\d{9}$/),
  kes: z.number().int().positive(),
  /** Cadence text ("w5@9"). */
  c: z.string().refine((c) => parseCadence(c) !== undefined, 'not a cadence'),
  /** a: active, p: paused. */
  s: z.enum(['a', 'p']),
  /** Next due time (epoch ms). */
  due: z.number().int(),
  /** Runs so far (the last run's number). */
  no: z.number().int().min(0),
  run: runSchema.optional(),
  /** Older runs, newest first: "<no>|<period>|<p(aid), s(kipped) or m(issed)>[|<orderId>]" (paid runs also live in their order). */
  past: z.array(z.string().max(64)).max(PAST_KEPT).default([]),
  /** The user was told once that the plan's wallet, phone or token is no longer valid. */
  told: z.literal(1).optional(),
});
export type Plan = z.infer<typeof planSchema>;

/**
 * The stored form: a JSON array in a fixed order, so field names cost no bytes (a plan with its
 * keys measured 408 bytes as an object, well over the budget). Version first:
 * `[1, user, token, network, wallet, phone, kes, cadence, status, due, runs, run | 0, past, told]`,
 * the run as `[period, no, at, status, orderId?]`. The id is the key's.
 */
const storedSchema = z.tuple([
  z.literal(1),
  z.string(),
  z.string(),
  z.string(),
  z.string(),
  z.string(),
  z.number(),
  z.string(),
  z.string(),
  z.number(),
  z.number(),
  z.union([z.literal(0), z.tuple([z.string(), z.number(), z.number(), z.string()]).rest(z.string())]),
  z.array(z.string()),
  z.union([z.literal(0), z.literal(1)]),
]);

/** The plan as its stored JSON. */
export function encodePlan(plan: Plan): string {
  const r = plan.run;
  const run = r ? [r.p, r.no, r.at, r.s, ...(r.o ? [r.o] : [])] : 0;
  return JSON.stringify([
    plan.v,
    plan.u,
    plan.t,
    plan.n,
    plan.w,
    plan.ph,
    plan.kes,
    plan.c,
    plan.s,
    plan.due,
    plan.no,
    run,
    plan.past,
    plan.told ?? 0,
  ]);
}

/** Reads a stored plan; the reason when it does not parse (wrong shape, version or values). */
export function decodePlan(id: string, raw: string): { plan: Plan } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { error: 'not JSON' };
  }
  const t = storedSchema.safeParse(json);
  if (!t.success)
    return { error: `not a stored plan (${t.error.issues.map((i) => i.path.join('.')).join(', ')})` };
  const [v, u, tok, n, w, ph, kes, c, st, due, no, run, past, told] = t.data;
  const r = planSchema.safeParse({
    v,
    id,
    u,
    t: tok,
    n,
    w,
    ph,
    kes,
    c,
    s: st,
    due,
    no,
    past,
    ...(run
      ? { run: { p: run[0], no: run[1], at: run[2], s: run[3], ...(run[4] ? { o: run[4] } : {}) } }
      : {}),
    ...(told ? { told } : {}),
  });
  return r.success ? { plan: r.data } : { error: r.error.issues.map((i) => i.path.join('.')).join(', ') };
}

/** The plan with its current run moved into `past` (the run's outcome final). */
export function closeRun(plan: Plan, s: Exclude<RunStatus, 'sending' | 'sent'>, orderId?: string): Plan {
  if (!plan.run) return plan;
  const run = { ...plan.run, s, ...(orderId ? { o: orderId } : {}) };
  return { ...plan, run };
}

/** A past run's status in one letter, and back. */
const LETTER: Record<SavingsRunStatus, string> = { paid: 'p', skipped: 's', missed: 'm', sent: 'm' };
const FROM_LETTER: Record<string, SavingsRunStatus> = { p: 'paid', s: 'skipped', m: 'missed' };

/** The current run pushed into `past` when a new one starts (a reminder never answered: missed). */
export function archiveRun(plan: Plan): string[] {
  const r = plan.run;
  if (!r) return plan.past;
  const s = r.s === 'sending' || r.s === 'sent' ? 'missed' : r.s;
  return [[r.no, r.p, LETTER[s], ...(r.o ? [r.o] : [])].join('|'), ...plan.past].slice(0, PAST_KEPT);
}

/** The plan as the flow shows it. */
export function viewOf(plan: Plan): PlanView {
  const recent: PlanView['recent'] = [];
  if (plan.run)
    recent.push({
      no: plan.run.no,
      period: plan.run.p,
      status: plan.run.s === 'sending' ? 'sent' : plan.run.s,
      ...(plan.run.o ? { orderId: plan.run.o } : {}),
    });
  for (const entry of plan.past) {
    const [no, period, letter = '', orderId] = entry.split('|');
    const status = FROM_LETTER[letter];
    if (!no || !period || !status) continue;
    recent.push({
      no: Number(no),
      period,
      status,
      ...(orderId ? { orderId } : {}),
    });
  }
  return {
    id: plan.id,
    amountKes: plan.kes,
    token: plan.t,
    network: plan.n,
    wallet: plan.w,
    cadence: plan.c,
    status: plan.s === 'a' ? 'active' : 'paused',
    ...(plan.s === 'a' ? { nextDue: plan.due } : {}),
    runs: plan.no,
    recent,
  };
}
