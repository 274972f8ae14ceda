/**
 * The claim `createOnrampOrder` lists with an idempotency key before it calls the ramp, and its
 * schema: what the claim reconciler (./reconciler.ts) reads back to follow up a push whose outcome
 * was never recorded. Shared by both sides, so neither imports the other.
 */
import * as z from 'zod';
import type { UserRef } from '../../chat/types.js';
import type { CreateOnrampOrder } from '../../domain/types.js';
import { NETWORKS } from '../../domain/types.js';
import type { TrackedOrder } from '../../flows/types.js';

/** What `createOnrampOrder` lists with its claim. */
export interface PendingStkClaim {
  user: UserRef;
  request: CreateOnrampOrder;
  track: Omit<TrackedOrder, 'orderId' | 'createdAt'>;
  /** Set when the create call answered with an error that may hide a created order (5xx, timeout, bad body). */
  heardError?: { kind: string; message: string; at: number };
}

const userRefSchema = z.object({
  channel: z.enum(['telegram', 'whatsapp', 'terminal']),
  id: z.string().min(1),
});

/** Reads a listed claim back; anything else is unreadable. */
export const pendingSchema = z.object({
  user: userRefSchema,
  request: z.object({
    phone: z.string().regex(/^254[17]\d{8}$/),
    amountKes: z.number().positive(),
    userAddress: z.string().min(1),
    tokenAddress: z.string(),
  }),
  track: z
    .object({
      side: z.literal('onramp'),
      user: userRefSchema,
      network: z.enum(NETWORKS),
      walletAddress: z.string().min(1),
      token: z.object({ symbol: z.string(), address: z.string(), decimals: z.number().int().min(0) }),
      amountKes: z.number(),
      tokenAmount: z.string().optional(),
      phone: z.string(),
    })
    .loose(),
  heardError: z.object({ kind: z.string(), message: z.string(), at: z.number() }).optional(),
}) satisfies z.ZodType<PendingStkClaim>;
