/**
 * The ticket endpoints of both sides, each taking either form (reference §2.8): an `orderID` (failed
 * or pending off-ramp orders, failed or cancelled on-ramp ones) or the manual fields.
 */
import * as z from 'zod';
import { objectId } from './ids.js';
import {
  amountLike,
  type Handler,
  type HandlerEnv,
  issuesText,
  ok,
  optional,
  phoneLike,
  type Reply,
  refuse,
  textLike,
} from './kit.js';
import type { TicketRecord } from './state.js';

const byOrderBody = z.object({
  orderID: z.string().trim().min(1),
  description: z.string().trim().min(1, 'Path `Description` is required.'),
  symbol: optional(z.string().trim()),
  chain: optional(z.string().trim()),
});

const manualBody = z.object({
  phone: phoneLike.pipe(z.string().min(1)),
  amount: amountLike,
  description: z.string().trim().min(1),
  side: optional(z.enum(['off-ramp', 'on-ramp'])),
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

/** A manual ticket; missing `side` is the path's own (the service defaults it to off-ramp). */
function manualTicket(env: HandlerEnv, side: 'onramp' | 'offramp', body: unknown): Reply {
  const parsed = manualBody.safeParse(body);
  if (!parsed.success) return refuse(400, ALL_INPUTS);
  const m = parsed.data;
  return fileTicket(env, {
    PhoneNumber: m.phone,
    Amount: String(m.amount),
    Description: m.description,
    Side: m.side ?? (side === 'onramp' ? 'on-ramp' : 'off-ramp'),
    userAddress: m.userAddress,
    symbol: m.symbol,
    tokenAddress: m.tokenAddress,
    chain: m.chain,
  });
}

/** An `orderID` sent empty or null is absent, and the manual form applies. */
const form = z.object({ orderID: optional(z.unknown()) });

const ticket =
  (side: 'onramp' | 'offramp'): Handler =>
  (env, req) => {
    const f = form.safeParse(req.body);
    return f.success && f.data.orderID !== undefined
      ? ticketByOrder(env, side, req.body)
      : manualTicket(env, side, req.body);
  };

/** POST offramp-ticket / create-offramp-ticket. */
export const offrampTicket: Handler = ticket('offramp');
/** POST onramp-ticket / user-onramp-ticket. */
export const onrampTicket: Handler = ticket('onramp');
