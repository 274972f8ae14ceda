/**
 * What the tracker persists per order, as zod schemas: stored state is validated when read back,
 * so a corrupt or foreign record is reported instead of half-processed.
 */
import * as z from 'zod';
import { NETWORKS } from '../../domain/types.js';
import type { TrackedOrder } from '../../flows/types.js';

/** Order ids are key parts (and were BullMQ job ids, so the rule stays): no `:`, never a bare integer. */
export const orderIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'letters, digits, - and _ (at most 64)')
  .refine((id) => !/^\d+$/.test(id), 'an order id cannot be a bare number');

export const trackedOrderSchema = z.object({
  orderId: orderIdSchema,
  side: z.enum(['onramp', 'offramp']),
  user: z.object({ channel: z.enum(['telegram', 'whatsapp', 'terminal']), id: z.string().min(1) }),
  network: z.enum(NETWORKS),
  walletAddress: z.string().min(1),
  token: z.object({ symbol: z.string(), address: z.string(), decimals: z.number().int().min(0) }),
  amountKes: z.number().nonnegative(),
  paidKes: z.number().nonnegative().optional(),
  tokenAmount: z.string().optional(),
  phone: z.string().min(1),
  createdAt: z.number().int().nonnegative(),
  txHash: z.string().optional(),
  fee: z.string().max(40).optional(),
  /** Added with standing buys: records written before have none. */
  plan: z.string().max(64).optional(),
}) satisfies z.ZodType<TrackedOrder>;

const textSchema = z.object({
  id: z.string(),
  args: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
const buttonSchema = z.object({ id: z.string(), label: textSchema, url: z.string().optional() });
export const outMessageSchema = z.object({
  texts: z.array(textSchema),
  buttons: z.array(z.array(buttonSchema)).optional(),
  requestPhone: z.boolean().optional(),
  replaceKey: z.string().optional(),
});

export const escalationCaseSchema = z.object({
  reason: z.enum(['horizon', 'deposit_unknown', 'deposit_refused', 'undeliverable']),
  order: trackedOrderSchema,
  lastStatus: z.string().optional(),
  lastError: z.string().optional(),
  receipt: z.string().optional(),
  polls: z.number(),
  at: z.number(),
  deposit: z.record(z.string(), z.unknown()).optional(),
  detail: z.string().max(1000).optional(),
});

export const finalOutcomeSchema = z.object({
  outcome: z.enum(['success', 'failed', 'cancelled', 'escalated']),
  message: outMessageSchema,
  escalation: escalationCaseSchema.optional(),
  /** When support was handed the escalation (so a retried notification does not raise it again). */
  raisedAt: z.number().optional(),
  /** When the user was told (the final message is posted before support is alerted, so the reason comes first). */
  notifiedAt: z.number().optional(),
});
export type FinalOutcome = z.infer<typeof finalOutcomeSchema>;

export const trackingStateSchema = z.object({
  /** polling: status polls; releasing: on-ramp paid, crypto release in progress; final: outcome decided. */
  stage: z.enum(['polling', 'releasing', 'final']),
  status: z.enum(['PENDING', 'SUCCESS', 'FAILED', 'CANCELLED']).optional(),
  polls: z.number().int().nonnegative(),
  errorStreak: z.number().int().nonnegative(),
  lastError: z.string().optional(),
  /** When the next poll is due (epoch ms): queue lag is measured against it. */
  nextDueAt: z.number().optional(),
  receipt: z.string().optional(),
  reconcileAttempts: z.number().int().nonnegative(),
  final: finalOutcomeSchema.optional(),
});
export type TrackingState = z.infer<typeof trackingStateSchema>;

export const initialTrackingState = (): TrackingState => ({
  stage: 'polling',
  polls: 0,
  errorStreak: 0,
  reconcileAttempts: 0,
});

/**
 * The at-most-once guard of `ramp.deposit`. `intent` is written (SET NX) before the call,
 * `sent` after it answered with a hash; `unknown` when the call may or may not have gone through.
 * A marker is only ever deleted when the service definitely refused the call.
 */
export const depositMarkerSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('intent'), token: z.string(), worker: z.string(), at: z.number() }),
  z.object({
    state: z.literal('unknown'),
    token: z.string(),
    worker: z.string(),
    at: z.number(),
    reason: z.string(),
  }),
  z.object({
    state: z.literal('sent'),
    hash: z.string(),
    at: z.number(),
    reconciled: z.boolean().optional(),
  }),
]);
export type DepositMarker = z.infer<typeof depositMarkerSchema>;
