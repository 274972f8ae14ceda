/**
 * What every part of the desk works with: the deps with their defaults filled in, the desk's
 * logger, and the few helpers they all use (log fields of a case, an error in a line, texts,
 * recording an event, telling the user).
 */

import type { OutMessage, Text } from '../../chat/types.js';
import { loggableUser } from '../../engine/engine.js';
import type { Logger } from '../../log/logger.js';
import { isRampError } from '../../ramp/errors.js';
import { type CaseEvent, type SupportCase, withEvent } from '../case/case.js';
import type { DeskTopics } from '../ports.js';
import { createDeskBudget, type DeskBudget, type DeskPriority } from './budget.js';
import { type LineLedger, noLedger } from './line-ledger.js';
import type { DeskDeps } from './types.js';

/** The desk's deps with defaults filled in, and its logger. */
export interface DeskContext
  extends Omit<DeskDeps, 'logger' | 'now' | 'ticketClaimStaleMs' | 'topics' | 'budget' | 'lines'> {
  /** Where this replica's queued user lines are held (line-ledger.ts). */
  lines: LineLedger;
  /** The support groups (none without a support chat). */
  groups: DeskTopics[];
  log: Logger;
  now: () => number;
  /** A ticket claim older than this is presumed dead. */
  ticketClaimStaleMs: number;
  /** What goes into the support groups next (see budget.ts). */
  budget: DeskBudget;
  /** The group a case's topic is in, or the one it goes to (the least busy); undefined without one. */
  groupOf(c: SupportCase): DeskTopics | undefined;
  /** The priority of the desk's work done through this context: routine, or an agent's own action. */
  readonly priority: DeskPriority;
  /** Runs `work` after the case's earlier work in its group, at `prio` (else this context's priority). */
  later(c: SupportCase, work: (topics: DeskTopics) => Promise<void>, prio?: DeskPriority): void;
  /** Resolves when no background work is left. */
  idle(): Promise<void>;
  /** Runs `work` after `delayMs` (in this process; a restart forgets it); failures are logged. */
  timer(delayMs: number, work: () => Promise<void>): void;
  /** Forgets the timers not yet due. */
  stopTimers(): void;
  /** Tickets being filed (or just filed) by agents, by order: a second ask joins (agent-ticket.ts). */
  flights: Map<string, { done: Promise<void>; until: number | undefined }>;
}

/** The context for an agent's own action: its posts go first in the group's budget. */
export const asAgent = (ctx: DeskContext): DeskContext => ({
  ...ctx,
  priority: 'agent',
  later: (c, work, prio) => ctx.later(c, work, prio ?? 'agent'),
});

/** Fills in the defaults (the clock, a 120 s ticket claim) and names the desk's logger. */
export function deskContext(deps: DeskDeps): DeskContext {
  const { logger, now, ticketClaimStaleMs, topics, budget: timings, lines, ...rest } = deps;
  const log = logger.child({ component: 'support' });
  const timers = new Set<NodeJS.Timeout>();
  const groups = topics === undefined ? [] : Array.isArray(topics) ? topics : [topics];
  const budget = createDeskBudget({
    timings,
    onError: (caseId, err) => log.error({ caseId, err: describe(err) }, 'support topic work failed'),
  });
  /** Cases given a group before their topic exists. */
  const assigned = new Map<string, DeskTopics>();
  let turn = 0;
  const groupOf = (c: SupportCase): DeskTopics | undefined => {
    if (c.topic) {
      const g = groups.find((x) => x.chatId === c.topic?.chatId);
      if (!g) log.warn({ caseId: c.id }, "a case's support group is no longer configured");
      return g;
    }
    let g = assigned.get(c.id);
    if (!g && groups.length) {
      // The least busy group takes a new case; ties go round.
      turn += 1;
      const order = groups.map((_, i) => groups[(i + turn) % groups.length] as DeskTopics);
      g = order.reduce((a, b) => (budget.load(b.chatId) < budget.load(a.chatId) ? b : a));
      assigned.set(c.id, g);
      if (assigned.size > 10_000) assigned.delete(assigned.keys().next().value as string);
    }
    return g;
  };
  return {
    ...rest,
    lines: lines ?? noLedger,
    groups,
    log,
    now: now ?? Date.now,
    ticketClaimStaleMs: ticketClaimStaleMs ?? 120_000,
    budget,
    groupOf,
    priority: 'routine',
    later(c, work, prio) {
      const g = groupOf(c);
      if (g) budget.add(c.id, g.chatId, prio ?? 'routine', () => work(g));
    },
    idle: () => budget.idle(),
    timer(delayMs, work) {
      const handle = setTimeout(() => {
        timers.delete(handle);
        work().catch((err: unknown) => log.error({ err: describe(err) }, 'support timer failed'));
      }, delayMs);
      handle.unref?.();
      timers.add(handle);
    },
    stopTimers() {
      for (const h of timers) clearTimeout(h);
      timers.clear();
    },
    flights: new Map(),
  };
}

/** A case's log fields (the user as logs may show them). */
export const caseLog = (c: SupportCase) => ({
  caseId: c.id,
  orderId: c.orderId,
  user: loggableUser(c.user),
});

/** An error in one line: the ramp's own message when it gave one. */
export const describe = (err: unknown): string =>
  isRampError(err) ? (err.serviceMessage ?? err.message) : err instanceof Error ? err.message : String(err);

export const t = (id: string, args?: Text['args']): Text => (args ? { id, args } : { id });

/** `by` as the texts' select wants it: `user`, `system`, or the agent's id. */
export const actor = (by: string) => (by.startsWith('agent:') ? by.slice('agent:'.length) : by);

/** Appends an event to the stored case (the case as it was when it is gone). */
export async function record(ctx: DeskContext, c: SupportCase, event: CaseEvent): Promise<SupportCase> {
  return (await ctx.store.update(c.id, (x) => withEvent(x, event))) ?? c;
}

export async function mustGet(ctx: DeskContext, caseId: string): Promise<SupportCase> {
  const c = await ctx.store.get(caseId);
  if (!c) throw new Error(`No support case ${caseId}`);
  return c;
}

/** The case an agent acts on, with the action logged. */
export async function agentCase(
  ctx: DeskContext,
  caseId: string,
  agentId: string,
  action: string,
): Promise<SupportCase> {
  const c = await mustGet(ctx, caseId);
  ctx.log.info({ ...caseLog(c), agentId, action }, 'support agent action');
  return c;
}

/** Posts to the case's user; a failure is logged, not thrown (the case is stored either way). */
export async function notifyUser(ctx: DeskContext, c: SupportCase, message: OutMessage): Promise<void> {
  try {
    await ctx.conversation.notify(c.user, message);
  } catch (err) {
    ctx.log.error({ ...caseLog(c), err: describe(err) }, 'could not notify the user of a support case');
  }
}
