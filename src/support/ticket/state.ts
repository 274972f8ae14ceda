/**
 * The refund-ticket conversation's state: where it is (the order steps, the manual form's fields,
 * filing) and the answers so far, validated whenever a session is read. Plus the words every step
 * shares: button ids, description limits, and the step a new state leaves the session in.
 */
import * as z from 'zod';
import { NETWORK_INFO } from '../../domain/networks.js';
import { ORDER_ID_PATTERN } from '../../domain/order-id.js';
import type { Network } from '../../domain/types.js';
import { at as flowAt } from '../../flows/flow.js';
import { directionSchema, networkSchema, tokenInfoSchema } from '../../flows/schemas.js';

/** The manual form's questions, in the order they are asked. */
export const MANUAL_STEPS = [
  'side',
  'phone',
  'chain',
  'symbol',
  'tokenAddress',
  'wallet',
  'amount',
  'description',
  'confirm',
] as const;
export type ManualStep = (typeof MANUAL_STEPS)[number];

export const ticketStateSchema = z.object({
  name: z.literal('ticket'),
  step: z.enum(['order', 'describe', 'filing', 'loading', ...MANUAL_STEPS]),
  orderId: z.string().regex(ORDER_ID_PATTERN).optional(),
  side: directionSchema.optional(),
  phone: z
    .string()
    .regex(/^254[17]\d{8}$/)
    .optional(),
  chain: networkSchema.optional(),
  symbol: z.string().min(1).max(20).optional(),
  tokenAddress: z.string().min(1).max(80).optional(),
  userAddress: z.string().min(1).max(80).optional(),
  amount: z.string().min(1).max(40).optional(),
  description: z.string().min(1).max(500).optional(),
  assets: z.array(tokenInfoSchema).optional(),
});
export type TicketState = z.infer<typeof ticketStateSchema>;

export const TICKET_NEW = 'ticket:new';
export const TICKET_MANUAL = 'ticket:manual';
export const MIN_DESCRIPTION = 3;
export const MAX_DESCRIPTION = 500;

/** The description sent with a one-tap ticket: data for the ramp's team, not a chat text. */
export const defaultDescription = (orderId: string): string =>
  `Refund requested from the chat for order ${orderId}: the order failed or is stuck.`;

export const at = flowAt<TicketState>;

export const displayNetwork = (n: Network) => NETWORK_INFO[n].displayName;
