/** The desk's face: what it needs (`DeskDeps`), what it offers (`Desk`), and the words they share. */
import type { Locale, Text, UserRef } from '../../chat/types.js';
import type { Ticket, TicketRequest } from '../../domain/types.js';
import type { Limiter } from '../../limits/index.js';
import type { Logger } from '../../log/logger.js';
import type { RampClient } from '../../ramp/types.js';
import type { TrackerFacts } from '../case/card.js';
import type { SupportCase } from '../case/case.js';
import type { Escalation } from '../case/escalation.js';
import type { CaseStore } from '../case/store.js';
import type { SupportLimits } from '../limits.js';
import type { DeskConversation, DeskTopics } from '../ports.js';
import type { BudgetTimings } from './budget.js';
import type { LineLedger } from './line-ledger.js';

/** An agent acting in the support chat: the Telegram user id, and the name people read. */
export interface AgentRef {
  id: string;
  name?: string;
}

/** How a case was found for a request. */
export type CaseStatus = 'opened' | 'reopened' | 'existing';

export interface DeskDeps {
  store: CaseStore;
  ramp: RampClient;
  /** The engine: `notify` posts to users, `handle` tells their flow that a case was closed. */
  conversation: DeskConversation;
  logger: Logger;
  /** The support groups (cases spread across them); without one cases are only stored and logged. */
  topics?: DeskTopics | DeskTopics[];
  /**
   * Where the lines queued in this replica are held (Redis), so a replica that dies leaves them to
   * another (line-ledger.ts); without it they live and die with the process.
   */
  lines?: LineLedger;
  /** How often the ledger is swept for lines of stopped replicas (default 5 s). */
  sweepMs?: number;
  /** How the groups' budget gathers lines and paces card edits (budget.ts). */
  budget?: Partial<BudgetTimings>;
  /** What the tracker keeps about an order (its Redis record), for the card. */
  trackerFacts?: (orderId: string) => Promise<TrackerFacts | undefined>;
  /**
   * Who made an order through rampchat. With it, a user's ticket or case about an order that is not
   * theirs is handled by hand (marked on the card, nothing of the order shown, no ramp ticket).
   */
  ownerOf?: (orderId: string) => Promise<UserRef | undefined>;
  /** A closed case reopens when the user comes back about it within this time. */
  reopenWindowMs: number;
  /**
   * With it, new cases and refund tickets a user asks for are limited (`limits`, default 3 cases an
   * hour and 3 tickets a day; src/support/limits.ts): over it, RateLimitedError.
   */
  limiter?: Limiter;
  limits?: SupportLimits;
  /** A ticket claim older than this is presumed dead (default 120 s, above the ramp timeout). */
  ticketClaimStaleMs?: number;
  now?: () => number;
}

/** A case found (or opened) for a request, and how. */
export interface FoundCase {
  case: SupportCase;
  status: CaseStatus;
}

export interface Desk {
  /** True when agents work in a support chat. */
  readonly hasDesk: boolean;
  /** Resolves when the support chat has been told everything queued for it. */
  idle(): Promise<void>;
  /** Forgets the reminders not yet due (they live in this process); what waits goes at once. */
  stop(): void;
  openForUser(
    user: UserRef,
    opts?: { orderId?: string; phone?: string; locale?: Locale },
  ): Promise<FoundCase>;
  /** A user's message for their case: to the case they name by order id, or the one they are in. */
  relayFromUser(
    user: UserRef,
    text: string,
    opts?: { caseId?: string; orderId?: string; phone?: string; locale?: Locale },
  ): Promise<FoundCase>;
  /**
   * Text the user typed outside the support chat: to the case they wrote about last when it is open
   * (or closed within the reopen window, reopened); undefined when there is none.
   */
  relayIfOpen(
    user: UserRef,
    text: string,
    opts?: { phone?: string; locale?: Locale },
  ): Promise<FoundCase | undefined>;
  /**
   * Files a ramp ticket (once per order id) and notes it on the user's case about that order. For an
   * order that is not the user's, no ticket: a case for an agent, marked as such (`manual`).
   */
  fileTicket(user: UserRef, request: TicketRequest, by: string): Promise<TicketFiling>;
  /** A case opened by the system (tracker, sell path); the user is told once. */
  escalate(e: Escalation): Promise<SupportCase>;
  caseByTopic(chatId: string, threadId: number): Promise<SupportCase | undefined>;
  /** `/status [order]`: the order's state at the ramp now (a named order of the user's links an order-less case). */
  agentStatus(caseId: string, agent: AgentRef, args?: string): Promise<void>;
  /** `/ticket [order|manual]`: files the order's ramp ticket once; a refusal says what to do next. */
  agentTicket(caseId: string, agent: AgentRef, args?: string): Promise<void>;
  /** `/resolve [message]`: closes the case (without a message, the user gets a plain "resolved"). */
  agentResolve(caseId: string, agent: AgentRef, message?: string): Promise<void>;
  agentReopen(caseId: string, agent: AgentRef): Promise<void>;
  /** Relays an agent's text; `messageId` (theirs in the topic) gets a reaction once the user has it. */
  agentMessage(caseId: string, agent: AgentRef, text: string, messageId?: number): Promise<void>;
  /** Checks the order again after `delayMs` and posts the answer in the topic. */
  agentRemind(caseId: string, agent: AgentRef, delayMs: number): Promise<void>;
  /** `/cases`: the open cases, oldest first, as texts for the support chat's general topic. */
  openCases(): Promise<Text[]>;
  /** Posts a list into a topic of a support group, or its general topic without `threadId` (`/cases`). */
  postList(chatId: string, threadId: number | undefined, texts: Text[]): Promise<void>;
  /** Posts a desk note into a case topic (refusals, usage). */
  say(caseId: string, texts: Text[]): Promise<void>;
  /** Posts a case's waiting lines (`n`s) after it was put back in an emptied Redis. */
  resume(caseId: string, lines: number[]): Promise<void>;
}

/** What became of a user's ticket request. */
export type TicketFiling =
  | { ticket: Ticket; existing: boolean; orderId?: string }
  | { manual: SupportCase; orderId: string; uncertain?: boolean };
