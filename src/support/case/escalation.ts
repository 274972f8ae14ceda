/**
 * What the tracker and the sell path hand to support, read into one shape. Both callers are
 * validated with zod here, so a malformed escalation is refused loudly instead of half-stored.
 */
import * as z from 'zod';
import type { UserRef } from '../../chat/types.js';
import { ORDER_ID_PATTERN, sideOfOrder } from '../../domain/order-id.js';
import type { Direction, Network } from '../../domain/types.js';
import { NETWORKS } from '../../domain/types.js';
import type { StkEscalation } from '../../engine/claims/reconciler.js';
import type { EscalationCase } from '../../tracker/types.js';
import { type CaseReason, userRefSchema } from './case.js';

/** The tracker's `EscalationCase` (src/tracker/types.ts). */
const trackerEscalation = z.object({
  reason: z.enum(['horizon', 'deposit_unknown', 'deposit_refused', 'undeliverable']),
  order: z.object({
    orderId: z.string().regex(ORDER_ID_PATTERN),
    side: z.enum(['onramp', 'offramp']),
    user: userRefSchema,
    network: z.enum(NETWORKS),
    walletAddress: z.string(),
    token: z.object({ symbol: z.string() }).loose(),
    amountKes: z.number(),
    tokenAmount: z.string().optional(),
    phone: z.string(),
    txHash: z.string().optional(),
  }),
  lastStatus: z.string().optional(),
  lastError: z.string().optional(),
  receipt: z.string().optional(),
  at: z.number().optional(),
  deposit: z.record(z.string(), z.unknown()).optional(),
  detail: z.string().max(1000).optional(),
});

/** The sell path's `SellEscalation` (src/sell/context.ts). */
const sellEscalation = z.object({
  reason: z.enum(['sell_refused', 'filing_unknown', 'horizon']),
  intent: z
    .object({
      id: z.string(),
      user: userRefSchema,
      network: z.enum(NETWORKS),
      token: z.object({ symbol: z.string() }).loose(),
      amount: z.string().optional(),
      total: z.string().optional(),
      amountKes: z.number().optional(),
      phone: z.string().optional(),
      wallet: z.string().optional(),
      sender: z.string().optional(),
      hash: z.string().optional(),
      orderId: z.string().regex(ORDER_ID_PATTERN).optional(),
      refusal: z.string().optional(),
    })
    .loose(),
  hash: z.string().optional(),
  refusal: z.string().optional(),
  at: z.number().optional(),
});

/**
 * The engine's `StkEscalation` (src/engine/claims/reconciler.ts): an STK push whose outcome was never
 * recorded and that the ramp's history does not show. There is no order id to attach.
 */
const stkEscalation = z.object({
  reason: z.literal('stk_unknown'),
  user: userRefSchema,
  idempotencyKey: z.string().min(1),
  phone: z.string(),
  amountKes: z.number(),
  network: z.enum(NETWORKS),
  walletAddress: z.string(),
  token: z.object({ symbol: z.string() }).loose(),
  claimedAt: z.number(),
  lastError: z.string().optional(),
  at: z.number().optional(),
});

/**
 * A channel's message (an order update, an agent's reply) that could not reach its user, e.g. the
 * WhatsApp Cloud API refused it for good (src/channels/whatsapp-cloud/outbound/outbound.ts). The user cannot
 * be told, so no note goes to them.
 */
const undeliverableEscalation = z.object({
  reason: z.literal('undeliverable'),
  user: userRefSchema,
  orderId: z.string().regex(ORDER_ID_PATTERN).optional(),
  code: z.number().int().optional(),
  detail: z.string().max(1000),
  at: z.number().optional(),
});

/** What `escalate` accepts: the tracker's EscalationCase, the sell path's SellEscalation, the engine's StkEscalation or a channel's undeliverable message. */
export type EscalationInput =
  | EscalationCase
  | z.input<typeof sellEscalation>
  | StkEscalation
  | z.input<typeof undeliverableEscalation>;

/** An escalation in the case's terms. */
export interface Escalation {
  reason: CaseReason;
  user: UserRef;
  orderId?: string;
  side?: Direction;
  phone?: string;
  network?: Network;
  wallet?: string;
  amountKes?: number;
  tokenAmount?: string;
  symbol?: string;
  lastStatus?: string;
  lastError?: string;
  receipt?: string;
  txHash?: string;
  /** A line for the agents (the chain's or the ramp's refusal, the sell intent). */
  detail?: string;
  at?: number;
  /** The caller's own message already tells the user that support was alerted: no second note. */
  userTold?: boolean;
}

/** Reads either caller's escalation; throws a ZodError naming what is wrong. */
export function readEscalation(input: unknown): Escalation {
  const tracked = trackerEscalation.safeParse(input);
  if (tracked.success) {
    const e = tracked.data;
    const o = e.order;
    const sent =
      e.deposit?.state === 'sent' && typeof e.deposit.hash === 'string' ? e.deposit.hash : undefined;
    return {
      reason: e.reason,
      user: o.user,
      orderId: o.orderId,
      side: o.side,
      phone: o.phone,
      network: o.network,
      wallet: o.walletAddress,
      amountKes: o.amountKes,
      tokenAmount: o.tokenAmount,
      symbol: o.token.symbol,
      lastStatus: e.lastStatus,
      lastError: e.lastError,
      receipt: e.receipt,
      txHash: o.txHash ?? sent,
      detail: e.detail ?? (e.deposit?.state ? `deposit guard: ${String(e.deposit.state)}` : undefined),
      at: e.at,
      // The user's chat is gone: a note would fail the same way.
      ...(e.reason === 'undeliverable' ? { userTold: true } : {}),
    };
  }
  const stk = stkEscalation.safeParse(input);
  if (stk.success) {
    const e = stk.data;
    return {
      reason: 'stk_unknown',
      user: e.user,
      side: 'onramp',
      phone: e.phone,
      network: e.network,
      wallet: e.walletAddress,
      amountKes: e.amountKes,
      symbol: e.token.symbol,
      lastError: e.lastError,
      detail: `buy: M-Pesa STK push of ${new Date(e.claimedAt).toISOString()} has no recorded outcome and no matching order in the ramp's on-ramp history (key ${e.idempotencyKey})`,
      at: e.at,
    };
  }
  const lost = undeliverableEscalation.safeParse(input);
  if (lost.success) {
    const e = lost.data;
    return {
      reason: 'undeliverable',
      user: e.user,
      ...(e.orderId ? { orderId: e.orderId, side: sideOfOrder(e.orderId) } : {}),
      lastError: e.code !== undefined ? `WhatsApp error ${e.code}` : undefined,
      detail: e.detail,
      at: e.at,
      // The message that failed was the one telling the user: a note would fail the same way.
      userTold: true,
    };
  }
  const e = sellEscalation.parse(input);
  const i = e.intent;
  const orderId = i.orderId;
  return {
    reason: e.reason,
    user: i.user,
    orderId,
    side: orderId ? sideOfOrder(orderId) : 'offramp',
    phone: i.phone,
    network: i.network,
    wallet: i.sender ?? i.wallet,
    amountKes: i.amountKes,
    tokenAmount: i.total ?? i.amount,
    symbol: i.token.symbol,
    lastError: e.refusal ?? i.refusal,
    txHash: e.hash ?? i.hash,
    detail: `sell intent ${i.id}`,
    at: e.at,
    // The sale's refusal or 'uncertain' message says support was alerted, right after its reason.
    userTold: true,
  };
}
