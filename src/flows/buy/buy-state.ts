/** A buy's persisted state, and the ids that tie an order and a Confirm button to one buy instance. */
import * as z from 'zod';
import { limitsSchema, networkSchema, quoteSchema, tokenInfoSchema } from '../schemas.js';

export const BUY_STEPS = [
  'loading',
  'amount',
  'token',
  'network',
  'wallet',
  'phone',
  'quoting',
  'summary',
  'reconfirming',
  'submitting',
  'awaiting',
] as const;

export const buyStateSchema = z.object({
  name: z.literal('buy'),
  id: z.string().min(1),
  step: z.enum(BUY_STEPS),
  amountKes: z.number().int().positive().optional(),
  token: z.string().optional(),
  network: networkSchema.optional(),
  /** Canonical once the network is known; raw text from a one-line command before that. */
  wallet: z.string().optional(),
  phone: z
    .string()
    .regex(/^254[17]\d{8}$/)
    .optional(),
  /** Listed assets, fetched once per flow. */
  assets: z.array(tokenInfoSchema).optional(),
  quote: quoteSchema.optional(),
  /** The last limits the ramp quoted, shown when asking the amount again. */
  limits: limitsSchema.optional(),
  /** One-line command text waiting for the assets. */
  args: z.string().optional(),
  /**
   * Started from a tapped "Buy again", "Try again" or "Buy this": the saved wallet (of the network
   * the button names) and phone fill what the button left out, once, so the tap lands on the summary.
   */
  fillSaved: z.literal(true).optional(),
  orderId: z.string().optional(),
});
export type BuyState = z.infer<typeof buyStateSchema>;

/** The steps a buy asks (the others wait for the ramp or the user's M-Pesa). */
export type AskStep = 'amount' | 'token' | 'network' | 'wallet' | 'phone';

/** The idempotency key of the one order a buy flow instance may create. */
export const buyOrderKey = (flowId: string): string => `buy:${flowId}:confirm`;
/** The id of a buy instance's Confirm button: a tap from an older summary is recognised as stale. */
export const buyConfirmButtonId = (flowId: string): string => `buy:confirm:${flowId}`;
