/**
 * The support desk: opens, reopens and closes cases, relays messages between users and agents,
 * files ramp tickets once per order, and keeps each case's topic and card current.
 *
 * The case store is the source of truth; the support chat mirrors it. A Telegram failure never
 * loses a case (it is stored and logged first, and the topic is created on the next event), while
 * a store failure is thrown so the caller (the tracker, an effect) retries or reports it.
 */
import { agentReopen, agentResolve } from './desk/agent-close.js';
import { agentRemind, agentStatus } from './desk/agent-order.js';
import { agentTicket } from './desk/agent-ticket.js';
import { openCases } from './desk/case-list.js';
import { caseByTopic, say, takeOver } from './desk/case-topic.js';
import { openForUser } from './desk/cases.js';
import { asAgent, type DeskContext, describe, deskContext } from './desk/context.js';
import { escalate } from './desk/escalate.js';
import { agentMessage, relayFromUser, relayIfOpen } from './desk/relay.js';
import { fileTicket } from './desk/tickets.js';
import type { Desk, DeskDeps } from './desk/types.js';

export type { AgentRef, Desk, DeskDeps } from './desk/types.js';

export function createDesk(deps: DeskDeps): Desk {
  const ctx = deskContext(deps);
  // An agent's own action goes first in the group's budget.
  const agentCtx = asAgent(ctx);
  const sweeper = deps.lines && ctx.groups.length ? sweepLines(ctx, deps.sweepMs ?? 5_000) : undefined;
  return {
    hasDesk: ctx.groups.length > 0,
    idle: () => ctx.idle(),
    stop: () => {
      if (sweeper) clearInterval(sweeper);
      ctx.stopTimers();
      ctx.budget.flush();
    },
    openForUser: (user, opts) => openForUser(ctx, user, opts),
    relayFromUser: (user, text, opts) => relayFromUser(ctx, user, text, opts),
    relayIfOpen: (user, text, opts) => relayIfOpen(ctx, user, text, opts),
    fileTicket: (user, request, by) => fileTicket(ctx, user, request, by),
    escalate: (e) => escalate(ctx, e),
    caseByTopic: (chatId, threadId) => caseByTopic(ctx, chatId, threadId),
    agentStatus: (caseId, agent, args) => agentStatus(agentCtx, caseId, agent, args),
    agentTicket: (caseId, agent, args) => agentTicket(agentCtx, caseId, agent, args),
    agentResolve: (caseId, agent, message) => agentResolve(agentCtx, caseId, agent, message),
    agentReopen: (caseId, agent) => agentReopen(agentCtx, caseId, agent),
    agentMessage: (caseId, agent, text, ack) => agentMessage(agentCtx, caseId, agent, text, ack),
    agentRemind: (caseId, agent, delayMs) => agentRemind(agentCtx, caseId, agent, delayMs),
    openCases: () => openCases(ctx),
    say: (caseId, texts) => say(agentCtx, caseId, texts),
    resume: (caseId, lines) => takeOver(ctx, caseId, lines, { hold: true }),
    postList: async (chatId, threadId, texts) => {
      const g = ctx.groups.find((x) => x.chatId === chatId);
      if (g)
        ctx.budget.add(`list:${chatId}`, chatId, 'agent', async () => {
          await g.post(threadId, texts);
        });
    },
  };
}

/** Beats for this replica's held lines and posts those of replicas that stopped beating. */
function sweepLines(ctx: DeskContext, everyMs: number): NodeJS.Timeout {
  let running = false;
  const sweep = async () => {
    if (running) return;
    running = true;
    try {
      for (const { caseId, lines } of await ctx.lines.sweep()) await takeOver(ctx, caseId, lines);
    } catch (err) {
      ctx.log.warn({ err: describe(err) }, 'could not sweep the support lines of stopped replicas');
    } finally {
      running = false;
    }
  };
  void sweep();
  const timer = setInterval(() => void sweep(), everyMs);
  timer.unref?.();
  return timer;
}
