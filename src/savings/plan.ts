/**
 * A standing buy as stored: versioned JSON read through zod, so a record that does not parse is
 * logged and skipped, never crashing the sweep. Field names are short on purpose: a plan must fit
 * in 500 bytes of Redis with its share of the due set, its user's index and its run record (the
 * README's "Standing buys" gives the measured figure).
 */
import { z } from 'zod';
import { NETWORKS } from '../domain/types.js';
import type { PlanView, SavingsRunStatus } from '../flows/types.js';
import { parseCadence } from './schedule.js';

/** How many past runs a plan keeps for /savings and /history (paid ones also live in the order). */
export const PAST_KEPT = 4;

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
  /** Older runs, newest first: "<no>|<period>|<status>[|<orderId>]". */
  past: z.array(z.string().max(64)).max(PAST_KEPT).default([]),
  /** The user was told once that the plan's wallet, phone or token is no longer valid. */
  told: z.literal(1).optional(),
});
export type Plan = z.infer<typeof planSchema>;

/** Reads a stored plan; undefined (with the reason) when it does not parse. */
export function decodePlan(raw: string): { plan: Plan } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { error: 'not JSON' };
  }
  const r = planSchema.safeParse(json);
  return r.success ? { plan: r.data } : { error: r.error.issues.map((i) => i.path.join('.')).join(', ') };
}

/** The plan with its current run moved into `past` (the run's outcome final). */
export function closeRun(plan: Plan, s: Exclude<RunStatus, 'sending' | 'sent'>, orderId?: string): Plan {
  if (!plan.run) return plan;
  const run = { ...plan.run, s, ...(orderId ? { o: orderId } : {}) };
  return { ...plan, run };
}

/** The current run pushed into `past` when a new one starts. */
export function archiveRun(plan: Plan): string[] {
  const r = plan.run;
  if (!r) return plan.past;
  const s: SavingsRunStatus = r.s === 'sending' || r.s === 'sent' ? 'missed' : r.s;
  return [[r.no, r.p, s, ...(r.o ? [r.o] : [])].join('|'), ...plan.past].slice(0, PAST_KEPT);
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
    const [no, period, status, orderId] = entry.split('|');
    if (!no || !period || !status) continue;
    recent.push({
      no: Number(no),
      period,
      status: status as SavingsRunStatus,
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
