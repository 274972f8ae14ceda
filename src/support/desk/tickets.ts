/**
 * Ramp refund tickets, filed once per order id. The first request claims the order in the case
 * store (Redis, shared by every app instance); a second one meanwhile is told the ticket exists or
 * is being filed, and an agent's ask just after the ramp refused one of its kind is told that
 * refusal (the claim records it a little while) instead of filing again. An answer that may
 * hide a ticket the ramp did file (no answer, 5xx, a body we could not read) keeps the claim until
 * it goes stale, so a retry cannot file a second one: an agent checks at the ramp instead. A ticket
 * is never filed for an order that is not the requester's (its refund number would be theirs).
 */
import type { Text, UserRef } from '../../chat/types.js';
import type { Ticket, TicketRequest } from '../../domain/types.js';
import { loggableUser } from '../../engine/engine.js';
import { isRampError } from '../../ramp/errors.js';
import { type SupportCase, withEvent } from '../case/case.js';
import type { TicketKind } from '../case/store.js';
import { takeSupportLimit } from '../limits.js';
import { mirror } from './case-topic.js';
import { announce, caseFor, owns, phoneOf } from './cases.js';
import { caseLog, type DeskContext, describe, record, t } from './context.js';
import type { TicketFiling } from './types.js';

/** Thrown while another request is still filing the same order's ticket. */
export class TicketBusyError extends Error {
  override name = 'TicketBusyError';
}

/** Thrown when the ramp refused this order's ticket (of this kind) moments ago, on any instance. */
export class TicketRefusedError extends Error {
  override name = 'TicketRefusedError';
  constructor(
    readonly reason: string,
    readonly at: number,
  ) {
    super(`The ramp refused this ticket just now: ${reason}`);
  }
}

/** An error after which the ramp may have filed the ticket all the same (no answer, 5xx, a body we could not read). */
export function mayHaveFiled(err: unknown): boolean {
  if (!isRampError(err)) return false;
  if (err.kind === 'network') return (err as { delivered?: boolean }).delivered !== false;
  return err.kind === 'timeout' || err.kind === 'server';
}

/**
 * Files the ticket, or answers the one already filed for the order (`existing`). `orderId` claims a
 * manual form (which names no order at the ramp) for an order, so it is filed once too. With
 * `agent`, a refusal is recorded for `joinMs` and an ask meanwhile throws TicketRefusedError.
 */
export async function fileOnce(
  ctx: DeskContext,
  request: TicketRequest,
  orderId = 'orderId' in request ? request.orderId : undefined,
  agent?: { kind: TicketKind; joinMs: number },
): Promise<{ ticket: Ticket; existing: boolean }> {
  const { store, ramp } = ctx;
  if (!orderId) return { ticket: await ramp.createTicket(request), existing: false };
  const claim = await store.claimTicket(orderId, ctx.now(), ctx.ticketClaimStaleMs, agent?.kind);
  if (!claim.claimed) {
    if (claim.ticketId) return { ticket: { id: claim.ticketId }, existing: true };
    if (claim.refused) throw new TicketRefusedError(claim.refused.reason, claim.refused.at);
    throw new TicketBusyError(`A ticket for ${orderId} is being filed right now`);
  }
  try {
    const ticket = await ramp.createTicket(request);
    await store.setTicket(orderId, ticket.id);
    return { ticket, existing: false };
  } catch (err) {
    // An answer that may hide a ticket the ramp did file keeps the claim (until it goes stale), so a
    // retry cannot file a second one; the caller hands the question to an agent.
    if (!mayHaveFiled(err))
      await (agent
        ? store.refuseTicket(orderId, agent.kind, describe(err), ctx.now(), agent.joinMs)
        : store.releaseTicket(orderId)
      ).catch(() => {});
    throw err;
  }
}

/** Notes the ticket on the case and posts `texts` in its topic. */
export async function noteTicket(
  ctx: DeskContext,
  c: SupportCase,
  ticketId: string,
  by: string,
  texts: Text[],
  name?: string,
): Promise<SupportCase> {
  const updated =
    (await ctx.store.update(c.id, (x) =>
      withEvent(
        { ...x, ticketId },
        { at: ctx.now(), kind: 'ticket', by, ...(name ? { name } : {}), ticketId },
      ),
    )) ?? c;
  return mirror(ctx, updated, texts);
}

/** A ticket asked for someone else's order: no ticket, a case marked as such for an agent. */
async function handOverNotOwner(
  ctx: DeskContext,
  user: UserRef,
  orderId: string,
  by: string,
): Promise<TicketFiling> {
  const found = await caseFor(ctx, user, orderId, 'user', { phone: phoneOf(user) }, by);
  let c = await announce(ctx, found.case, found.status, by);
  if (!c.notOwner) c = (await ctx.store.update(c.id, (x) => ({ ...x, notOwner: true }))) ?? c;
  c = await record(ctx, c, {
    at: ctx.now(),
    kind: 'note',
    by,
    text: "refund ticket asked for an order that is not the requester's",
  });
  c = await mirror(ctx, c, [t('support-topic-ticket-not-owner', { orderId })], false);
  ctx.log.warn(
    { ...caseLog(c), by },
    "refund ticket asked for an order that is not the requester's; handed to an agent",
  );
  return { manual: c, orderId };
}

/** Filing answered in a way that may hide a ticket: undecidable here, so an agent checks at the ramp. */
async function handOverUncertain(
  ctx: DeskContext,
  user: UserRef,
  orderId: string | undefined,
  by: string,
  err: unknown,
): Promise<TicketFiling> {
  const found = await caseFor(ctx, user, orderId, 'user', { phone: phoneOf(user) }, by);
  let c = await announce(ctx, found.case, found.status, by);
  const detail = err instanceof Error ? err.message.slice(0, 200) : String(err);
  c = await record(ctx, c, {
    at: ctx.now(),
    kind: 'note',
    by,
    text: `refund ticket filing uncertain: ${detail}`,
  });
  c = await mirror(ctx, c, [t('support-topic-ticket-uncertain', { orderId: orderId ?? '-', detail })], false);
  ctx.log.warn(
    { ...caseLog(c), by },
    'refund ticket filing answered in a way that may hide a ticket; handed to an agent',
  );
  return { manual: c, orderId: orderId ?? '', uncertain: true };
}

/** A user's ticket request: filed once per order and noted on their case about it. */
export async function fileTicket(
  ctx: DeskContext,
  user: UserRef,
  request: TicketRequest,
  by: string,
): Promise<TicketFiling> {
  const { store } = ctx;
  const orderId = 'orderId' in request ? request.orderId : undefined;
  if (orderId && !(await owns(ctx, user, orderId))) return handOverNotOwner(ctx, user, orderId, by);
  // Each ticket goes to the ramp: limited per user (an order's ticket asked again counts once).
  if (by === 'user') await takeSupportLimit(ctx, 'tickets', user, orderId ? `ticket:${orderId}` : undefined);
  let filing: Awaited<ReturnType<typeof fileOnce>>;
  try {
    filing = await fileOnce(ctx, request);
  } catch (err) {
    if (!mayHaveFiled(err)) throw err;
    return handOverUncertain(ctx, user, orderId, by, err);
  }
  const { ticket, existing } = filing;
  ctx.log.info(
    { user: loggableUser(user), orderId, ticketId: ticket.id, existing, by },
    'refund ticket filed',
  );
  // The ticket reaches the desk: the order's case (the user's general one for a manual ticket) is
  // opened, reopened or found, and the ticket noted on it, so an agent follows it up.
  const found = await caseFor(
    ctx,
    user,
    orderId,
    orderId ? 'refund_ticket' : 'user',
    { phone: phoneOf(user, 'phone' in request ? request.phone : undefined) },
    by,
  );
  let c = await announce(ctx, found.case, found.status, by);
  if (c.ticketId !== ticket.id) {
    const description = request.description?.trim();
    c = await noteTicket(ctx, c, ticket.id, by, [
      t(orderId ? 'support-topic-user-ticket' : 'support-topic-user-ticket-manual', { ticketId: ticket.id }),
      ...(description
        ? [t('support-topic-user-ticket-description', { text: description.slice(0, 500) })]
        : []),
    ]);
  }
  await store.setLast(user, c.id);
  return { ticket, existing, orderId };
}
