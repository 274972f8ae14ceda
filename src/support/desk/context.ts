/**
 * What every part of the desk works with: the deps with their defaults filled in, the desk's
 * logger, and the few helpers they all use (log fields of a case, an error in a line, texts,
 * recording an event, telling the user).
 */
import type { OutMessage, Text } from '../../chat/types.js';
import { loggableUser } from '../../engine/engine.js';
import type { Logger } from '../../log/logger.js';
import { isRampError } from '../../ramp/errors.js';
import { type CaseEvent, type SupportCase, withEvent } from '../case.js';
import type { DeskTopics } from '../ports.js';
import type { DeskDeps } from './types.js';

/** The desk's deps with defaults filled in, and its logger. */
export interface DeskContext extends Omit<DeskDeps, 'logger' | 'now' | 'ticketClaimStaleMs' | 'topics'> {
  topics: DeskTopics | undefined;
  log: Logger;
  now: () => number;
  /** A ticket claim older than this is presumed dead. */
  ticketClaimStaleMs: number;
  /** Runs `work` after the case's earlier background work, without waiting for it; failures are logged. */
  later(caseId: string, work: () => Promise<void>): void;
  /** Resolves when no background work is left. */
  idle(): Promise<void>;
  /** Runs `work` after `delayMs` (in this process; a restart forgets it); failures are logged. */
  timer(delayMs: number, work: () => Promise<void>): void;
  /** Forgets the timers not yet due. */
  stopTimers(): void;
}

/** Fills in the defaults (the clock, a 120 s ticket claim) and names the desk's logger. */
export function deskContext(deps: DeskDeps): DeskContext {
  const { logger, now, ticketClaimStaleMs, topics, ...rest } = deps;
  const log = logger.child({ component: 'support' });
  const chains = new Map<string, Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  return {
    ...rest,
    topics,
    log,
    now: now ?? Date.now,
    ticketClaimStaleMs: ticketClaimStaleMs ?? 120_000,
    later(caseId, work) {
      const tail = (chains.get(caseId) ?? Promise.resolve())
        .then(work)
        .catch((err: unknown) => log.error({ caseId, err: describe(err) }, 'support topic work failed'));
      chains.set(caseId, tail);
      void tail.then(() => {
        if (chains.get(caseId) === tail) chains.delete(caseId);
      });
    },
    async idle() {
      while (chains.size) await Promise.all([...chains.values()]);
    },
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
