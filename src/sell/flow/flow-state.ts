/**
 * The sell flow's state (kept in the session between messages), and the ids and keys it shares with
 * the rest of the sell path: the intent key of a flow instance, its Confirm button, and how a pasted
 * transaction hash is recognised. Pure.
 */
import * as z from 'zod';
import { limitsSchema, networkSchema, quoteSchema, tokenInfoSchema } from '../../flows/schemas.js';
import { algorandTxId, evmHash } from './hash-format.js';

export const SELL_STEPS = [
  'loading',
  'token',
  'network',
  'amount',
  'phone',
  'quoting',
  'summary',
  'reconfirming',
  'creating',
  'awaiting',
] as const;

export const sellStateSchema = z.object({
  name: z.literal('sell'),
  id: z.string().min(1),
  step: z.enum(SELL_STEPS),
  token: z.string().optional(),
  network: networkSchema.optional(),
  /** Whole KES to receive, or tokens to send (decimal text), per `amountIn`. */
  amount: z.string().optional(),
  amountIn: z.enum(['kes', 'token']).optional(),
  phone: z
    .string()
    .regex(/^254[17]\d{8}$/)
    .optional(),
  /** The sending wallet; `any` when the user chose to pick it in the wallet. */
  wallet: z.string().optional(),
  /** Tokens selling is configured for. */
  assets: z.array(tokenInfoSchema).optional(),
  quote: quoteSchema.optional(),
  limits: limitsSchema.optional(),
  args: z.string().optional(),
  intentId: z.string().optional(),
  signUrl: z.string().optional(),
  expiresAt: z.number().optional(),
  devSign: z.boolean().optional(),
  /** A token amount was refused by the ramp: a quote for a small KES amount gives its KES value. */
  probing: z.boolean().optional(),
});
export type SellState = z.infer<typeof sellStateSchema>;

/** The questions the form asks, in order (token and network are asked by the shared asset steps). */
export type AskStep = 'token' | 'network' | 'amount' | 'phone';
/** The wallet value meaning "the user picks the sending wallet when signing". */
export const ANY_WALLET = 'any';

/** The idempotency key of the one intent a sell flow instance may create. */
export const sellIntentKey = (flowId: string): string => `sell:${flowId}`;
export const sellConfirmButtonId = (flowId: string): string => `sell:confirm:${flowId}`;
export const SELL_DEVSIGN = 'sell:devsign';

/** A transaction hash pasted in chat (EVM 66 chars, Algorand 52), or undefined. */
export function pastedHash(typed: string): string | undefined {
  const t = typed.trim();
  const whole = evmHash(t) ?? algorandTxId(t);
  if (whole) return whole;
  const inLink = /(?:^|[^A-Za-z0-9])(0x[0-9a-fA-F]{64}|[A-Z2-7]{51}[AQ])(?![A-Za-z0-9])/.exec(t);
  return inLink ? (inLink[1]!.startsWith('0x') ? inLink[1]!.toLowerCase() : inLink[1]) : undefined;
}

/**
 * True for a text that was meant as a transaction hash but is not one: `0x` and hex digits of the
 * wrong length, or a long run of base32 letters that is not 52 long. Pure.
 */
export function malformedHash(typed: string): boolean {
  const t = typed.trim();
  if (pastedHash(t)) return false;
  return /^0x[0-9a-fA-F]*$/.test(t) || /^[A-Z2-7]{30,80}$/i.test(t);
}

/** The wallet the sale is bound to, unless the user chose to pick it when signing. */
export const boundWallet = (state: SellState): string | undefined =>
  state.wallet && state.wallet !== ANY_WALLET ? state.wallet : undefined;
