/** zod schemas of the domain values flows keep in a persisted session. */
import * as z from 'zod';
import { LOCALES } from '../chat/types.js';
import { NETWORKS } from '../domain/types.js';

export const networkSchema = z.enum(NETWORKS);
export const localeSchema = z.enum(LOCALES as ['en', 'sw']);
export const directionSchema = z.enum(['onramp', 'offramp']);

export const profileSchema = z.object({
  phone: z
    .string()
    .regex(/^254[17]\d{8}$/)
    .optional(),
  wallets: z.partialRecord(networkSchema, z.string().min(1)),
  /** The chat user's own M-Pesa number, as the channel proved it (Telegram contact share, WhatsApp sender). */
  ownPhone: z
    .string()
    .regex(/^254[17]\d{8}$/)
    .optional(),
  /** The user chose the language (Settings, /language, the welcome's switch): a Kiswahili word no longer switches it. */
  localeChosen: z.boolean().optional(),
  /** The user was shown the welcome (what the bot does, the language switch). */
  welcomed: z.boolean().optional(),
  /** Every typed number counts as the user's own (the terminal chat: the operator's own machine). */
  ownsTypedPhones: z.boolean().optional(),
  /** The token and network of the user's last buy: a plain Buy starts from them (and the saved wallet and phone). */
  lastBuy: z.object({ token: z.string().min(1).max(20), network: networkSchema }).optional(),
  /** The user's latest sale: a hash pasted after it was cancelled or left is checked against it. */
  lastSellIntent: z.string().min(1).max(100).optional(),
  /** The latest sale whose outcome (filed, refused, cancelled…) the user was told: later progress notes of it are stale. */
  lastSellEnded: z.string().min(1).max(100).optional(),
  /**
   * The latest sale's signing link, kept when its link was made: while it is live (not ended, not
   * expired) the menu mentions it, a new Sell offers to continue or cancel it, and it can be resumed.
   */
  liveSale: z
    .object({
      intentId: z.string().min(1).max(100),
      signUrl: z.string().min(1).max(2000),
      expiresAt: z.number(),
      network: networkSchema,
      token: z.string().min(1).max(20),
      total: z.string().min(1).max(80),
      devSign: z.boolean().optional(),
    })
    .optional(),
  /**
   * The latest STK push of this chat: a second push to the same number while the first still waits
   * is told why no new prompt may appear (M-Pesa shows one at a time).
   */
  lastPush: z
    .object({
      phone: z.string().regex(/^254[17]\d{8}$/),
      orderId: z.string().min(1).max(100),
      at: z.number(),
    })
    .optional(),
});

export const tokenInfoSchema = z.object({
  network: networkSchema,
  symbol: z.string().min(1),
  name: z.string(),
  decimals: z.number().int().min(0),
  address: z.string().min(1),
});

export const limitsSchema = z.object({ min: z.number(), max: z.number(), currency: z.string() });

export const quoteSchema = z.object({
  type: directionSchema,
  network: networkSchema,
  inputAmount: z.string(),
  inputCurrency: z.string(),
  outputAmount: z.string(),
  outputCurrency: z.string(),
  exchangeRate: z.number().positive(),
  fee: z.object({ amount: z.string(), currency: z.string().optional(), kes: z.number() }),
  estimatedOutputKes: z.number().optional(),
  limits: limitsSchema.optional(),
  receivedAt: z.string(),
});
