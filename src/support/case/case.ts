/**
 * A support case: one per (user, order), or one per user without an order. Everything an agent
 * needs sits in the record: who, which order, what the tracker and the ramp last said, the ramp
 * ticket, the Telegram topic, and the case's history. Stored as JSON and validated when read.
 */
import * as z from 'zod';
import type { UserRef } from '../../chat/types.js';
import { ORDER_ID_PATTERN } from '../../domain/order-id.js';
import { NETWORKS } from '../../domain/types.js';

/** Why a case exists: the user asked, or something the tracker or the sell path could not finish. */
export const CASE_REASONS = [
  'user',
  'horizon',
  'deposit_unknown',
  'deposit_refused',
  'sell_refused',
  'filing_unknown',
  'stk_unknown',
  'undeliverable',
  'refund_ticket',
] as const;
export type CaseReason = (typeof CASE_REASONS)[number];

export const userRefSchema = z.object({
  channel: z.enum(['telegram', 'whatsapp', 'terminal']),
  id: z.string().min(1).max(64),
}) satisfies z.ZodType<UserRef>;

const eventSchema = z.object({
  at: z.number(),
  kind: z.enum(['opened', 'escalated', 'reopened', 'user', 'agent', 'status', 'ticket', 'resolved', 'note']),
  /** `user`, `system`, or `agent:<telegram user id>`. */
  by: z.string().max(64),
  /** The agent's name as Telegram gave it (first name or @username), for people to read. */
  name: z.string().max(64).optional(),
  text: z.string().max(4096).optional(),
  reason: z.string().max(40).optional(),
  status: z.string().max(40).optional(),
  ticketId: z.string().max(100).optional(),
  /** A user's line: its number in the case (1, 2, ...), by which the desk posts it once. */
  n: z.number().int().positive().optional(),
});
export type CaseEvent = z.infer<typeof eventSchema>;

/** At most this many events are kept in a case record (the oldest go first). */
export const MAX_EVENTS = 100;

export const supportCaseSchema = z.object({
  id: z.string().min(1).max(40),
  user: userRefSchema,
  orderId: z.string().regex(ORDER_ID_PATTERN).optional(),
  side: z.enum(['onramp', 'offramp']).optional(),
  status: z.enum(['open', 'closed']),
  reason: z.enum(CASE_REASONS),
  openedAt: z.number(),
  updatedAt: z.number(),
  closedAt: z.number().optional(),
  /** 254XXXXXXXXX when known (masked wherever it is shown or logged). */
  phone: z.string().max(20).optional(),
  network: z.enum(NETWORKS).optional(),
  wallet: z.string().max(80).optional(),
  amountKes: z.number().optional(),
  tokenAmount: z.string().max(40).optional(),
  symbol: z.string().max(20).optional(),
  lastStatus: z.string().max(40).optional(),
  lastError: z.string().max(500).optional(),
  receipt: z.string().max(40).optional(),
  txHash: z.string().max(140).optional(),
  ticketId: z.string().max(100).optional(),
  /**
   * The order named is not one this user made through rampchat (another user's, or unknown here):
   * the card shows nothing of the order, and no ramp ticket is filed from the chat for it.
   */
  notOwner: z.boolean().optional(),
  /** How many lines the user has written in the case (the last line's `n`). */
  lines: z.number().int().nonnegative().optional(),
  /** The user's lines not in the topic yet (by `n`): kept with the case, outside Redis too. */
  unposted: z.array(z.number().int().positive()).max(200).optional(),
  /** The language the user was last written to in (their chat's). */
  userLocale: z.enum(['en', 'sw']).optional(),
  /** What the user last read of an agent's reply: WhatsApp's template only, or the whole message. */
  lastRead: z.enum(['template', 'whole']).optional(),
  /** An agent's reply went as WhatsApp's template and is held: it goes in full when the user writes. */
  heldReply: z.boolean().optional(),
  /** The user was told once that support has the case. */
  userAlerted: z.boolean().optional(),
  topic: z
    .object({
      chatId: z.string(),
      threadId: z.number().int(),
      cardMessageId: z.number().int().optional(),
      /** The card is pinned (pinning waits behind posts). */
      pinned: z.boolean().optional(),
    })
    .optional(),
  events: z.array(eventSchema),
});
export type SupportCase = z.infer<typeof supportCaseSchema>;

/** Appends an event, keeping the newest MAX_EVENTS. */
export function withEvent(c: SupportCase, event: CaseEvent): SupportCase {
  const events = [...c.events, event];
  return { ...c, updatedAt: event.at, events: events.slice(-MAX_EVENTS) };
}
