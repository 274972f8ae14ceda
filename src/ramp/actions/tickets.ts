import type { Ticket, TicketRequest } from '../../domain/types.js';
import { ticketRecord, unwrap } from '../schemas.js';
import { type RampContext, read } from './context.js';

/**
 * POST offramp-ticket / onramp-ticket (legacy: create-offramp-ticket / user-onramp-ticket).
 * The orderID form goes to the ticket endpoint of its side. Manual tickets of both sides go to the
 * off-ramp endpoint, where the spec documents the manual form, with `side` saying the direction (the
 * service's on-ramp endpoint takes the manual form too).
 */
export async function createTicket(ctx: RampContext, req: TicketRequest): Promise<Ticket> {
  const byOrder = 'orderId' in req;
  const path = byOrder && req.side === 'onramp' ? ctx.paths.onrampTicket : ctx.paths.offrampTicket;
  const body = await ctx.send({
    method: 'POST',
    path,
    endpoint: 'ticket',
    retry: 'unsent',
    orderId: byOrder ? req.orderId : undefined,
    body: byOrder
      ? {
          orderID: req.orderId,
          description: req.description,
          ...(req.symbol ? { symbol: req.symbol } : {}),
          ...(req.chain ? { chain: req.chain } : {}),
        }
      : {
          phone: req.phone,
          amount: req.amount,
          description: req.description,
          side: req.side === 'onramp' ? 'on-ramp' : 'off-ramp',
          userAddress: req.userAddress,
          symbol: req.symbol,
          tokenAddress: req.tokenAddress,
          chain: req.chain,
        },
  });
  const data = unwrap(body) as Record<string, unknown> | undefined;
  const inner =
    data && typeof data === 'object' && ('refund' in data || 'ticket' in data)
      ? (data.refund ?? data.ticket)
      : data;
  const t = read(ticketRecord, inner, 'ticket');
  const id = t._id ?? t.id;
  return {
    id: id ?? '',
    phone: t.phoneNumber ?? t.phone,
    amount: t.amount,
    description: t.description,
    side: t.side,
    userAddress: t.userAddress,
    symbol: t.symbol,
    tokenAddress: t.tokenAddress,
    chain: t.chain,
    createdAt: t.createdAt,
  };
}
