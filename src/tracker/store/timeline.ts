/**
 * An order's timeline: what the tracker saw and did, in order, for support's case card. Kept in
 * the order's hash (fields `ev:<n>` of JSON entries, the newest TIMELINE_MAX, expiring with the
 * order; orders stored before that keep a list `<prefix>order:<id>:events`, still read) and
 * validated when read. Entries hold no phone numbers or free text from the ramp:
 * statuses, receipts, hashes and short reason codes only.
 */
import type { RedisClientType } from 'redis';
import * as z from 'zod';
import { eventEntries } from './store-fields.js';

export const ORDER_EVENT_KINDS = [
  /** The tracker took the order. */
  'created',
  /** The ramp reported a new status (PENDING, SUCCESS, FAILED, CANCELLED). */
  'status',
  /** The deposit guard was taken: the crypto release is about to be asked for. */
  'deposit_intent',
  /** The ramp released the crypto and answered with the transfer's hash. */
  'deposit_sent',
  /** The release may or may not have gone through; it is being reconciled. */
  'deposit_unknown',
  /** The ramp definitely refused the release (nothing was sent). */
  'deposit_refused',
  /** An unknown release was found in the wallet's deposit history. */
  'reconciled',
  /** The order was handed to support. */
  'escalated',
  /** The final chat message was posted to the user. */
  'final',
] as const;
export type OrderEventKind = (typeof ORDER_EVENT_KINDS)[number];

export const orderEventSchema = z.object({
  kind: z.enum(ORDER_EVENT_KINDS),
  status: z.enum(['PENDING', 'SUCCESS', 'FAILED', 'CANCELLED']).optional(),
  receipt: z.string().max(40).optional(),
  hash: z.string().max(140).optional(),
  /** A short code: the failure reason, the refusal, the error kind or the escalation reason. */
  reason: z.string().max(60).optional(),
  outcome: z.enum(['success', 'failed', 'cancelled', 'escalated']).optional(),
  at: z.number(),
});
export type OrderEvent = z.infer<typeof orderEventSchema>;

/** How many entries an order keeps (the newest). */
export const TIMELINE_MAX = 50;

/** Kinds that happen at most once per order (with the same details): a replayed poll adds nothing. */
const ONCE: ReadonlySet<OrderEventKind> = new Set([
  'created',
  'status',
  'deposit_sent',
  'reconciled',
  'escalated',
  'final',
]);

/** The list the previous layout kept the timeline in, next to the order's hash (still read). */
export const timelineKey = (prefix: string, orderId: string) => `${prefix}order:${orderId}:events`;

/**
 * An entry as stored: JSON with `at` last, and the text before `at` when the kind happens once
 * (a stored entry starting with it is the same event).
 */
export function encodeOrderEvent(event: OrderEvent): { json: string; once?: string } {
  const { at, ...rest } = orderEventSchema.parse(event);
  const body = JSON.stringify({
    kind: rest.kind,
    status: rest.status,
    receipt: rest.receipt,
    hash: rest.hash,
    reason: rest.reason,
    outcome: rest.outcome,
  });
  const head = `${body.slice(0, -1)},"at":`;
  return { json: `${head}${at}}`, once: ONCE.has(rest.kind) ? head : undefined };
}

/** Stored entries back to events; an entry that does not validate is left out, not fatal. */
export function decodeOrderEvents(raw: readonly string[]): OrderEvent[] {
  const out: OrderEvent[] = [];
  for (const text of raw) {
    try {
      const parsed = orderEventSchema.safeParse(JSON.parse(text));
      if (parsed.success) out.push(parsed.data);
    } catch {
      // not JSON: skipped
    }
  }
  return out;
}

/**
 * An order's timeline from its hash's `ev:<n>` fields, after the entries of a list kept by the
 * previous layout (`legacy`, for an order stored before the timeline moved into the hash).
 */
export function storedTimeline(fields: Record<string, string>, legacy: readonly string[]): OrderEvent[] {
  return decodeOrderEvents([...legacy, ...eventEntries(fields)]).slice(-TIMELINE_MAX);
}

/** Reads an order's timeline, oldest first (empty when the order is unknown or expired). */
export async function readOrderTimeline(
  redis: RedisClientType,
  prefix: string,
  orderId: string,
): Promise<OrderEvent[]> {
  const [fields, legacy] = await Promise.all([
    redis.hGetAll(`${prefix}order:${orderId}`),
    redis.lRange(timelineKey(prefix, orderId), 0, -1),
  ]);
  return storedTimeline(fields as Record<string, string>, legacy);
}
