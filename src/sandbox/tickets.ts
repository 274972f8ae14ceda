/** The ticket endpoints: by order ID (failed or pending orders) or from the manual form. */
import { z } from 'zod';
import { objectId } from './ids.js';
import {
  amountLike,
  type Handler,
  type HandlerEnv,
  issuesText,
  ok,
  phoneLike,
  type Reply,
  refuse,
  textLike,
} from './kit.js';
import type { TicketRecord } from './state.js';

const byOrderBody = z.object({
  orderID: z.string().trim().min(1),
  description: z.string().trim().min(1, 'Path `Description` is required.'),
  symbol: z.string().trim().min(1).optional(),
  chain: z.string().trim().min(1).optional(),
});

const manualBody = z.object({
  phone: phoneLike.pipe(z.string().min(1)),
  amount: amountLike,
  description: z.string().trim().min(1),
  side: z.enum(['off-ramp', 'on-ramp']).default('off-ramp'),
  userAddress: z.string().trim().min(1),
  symbol: z.string().trim().min(1),
  tokenAddress: textLike,
  chain: z.string().trim().min(1),
});

const ALL_INPUTS =
  'Please provide all required inputs: phone, amount, description, side, userAddress, symbol, tokenAddress, and chain';

function fileTicket(env: HandlerEnv, t: Omit<TicketRecord, '_id' | 'createdAt'>): Reply {
  const now = Date.now();
  const record: TicketRecord = { ...t, _id: objectId(now), createdAt: new Date(now).toISOString() };
  env.state.tickets.push(record);
  const { orderID: _, ...refund } = record;
  return ok({ status: 'success', data: { refund } });
}

function ticketByOrder(env: HandlerEnv, side: 'onramp' | 'offramp', body: unknown): Reply {
  const parsed = byOrderBody.safeParse(body);
  if (!parsed.success) return refuse(400, `ValidationError: ${issuesText(parsed.error)}`);
  const b = parsed.data;
  if (side === 'offramp') {
    const text = 'No failed or pending transaction found with this orderID';
    const o = env.state.offramp.get(b.orderID);
    if (!o) return refuse(404, text);
    if (env.state.statusOf(o) === 'SUCCESS') return refuse(400, text);
    return fileTicket(env, {
      PhoneNumber: o.phone,
      Amount: String(o.tokens),
      Description: b.description,
      Side: 'off-ramp',
      userAddress: o.userAddress ?? '',
      symbol: b.symbol ?? o.token.symbol,
      tokenAddress: o.tokenAddress,
      chain: b.chain ?? o.chain,
      orderID: o.id,
    });
  }
  const text = 'No failed transaction found with this orderID';
  const o = env.state.onramp.get(b.orderID);
  if (!o) return refuse(404, text);
  const s = env.state.statusOf(o);
  if (s !== 'FAILED' && s !== 'CANCELLED') return refuse(400, text);
  return fileTicket(env, {
    PhoneNumber: o.phone,
    Amount: String(o.amountKes),
    Description: b.description,
    Side: 'on-ramp',
    userAddress: o.userAddress,
    symbol: b.symbol ?? o.token.symbol,
    tokenAddress: o.tokenAddress,
    chain: b.chain ?? o.token.network,
    orderID: o.id,
  });
}

export const offrampTicket: Handler = (env, req) => {
  const b = (req.body ?? {}) as Record<string, unknown>;
  if (b.orderID !== undefined) return ticketByOrder(env, 'offramp', req.body);
  const parsed = manualBody.safeParse(req.body);
  if (!parsed.success) return refuse(400, ALL_INPUTS);
  const m = parsed.data;
  return fileTicket(env, {
    PhoneNumber: m.phone,
    Amount: String(m.amount),
    Description: m.description,
    Side: m.side,
    userAddress: m.userAddress,
    symbol: m.symbol,
    tokenAddress: m.tokenAddress,
    chain: m.chain,
  });
};

export const onrampTicket: Handler = (env, req) => ticketByOrder(env, 'onramp', req.body);
