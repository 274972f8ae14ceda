/**
 * `/ticket [order|manual]`: files the order's refund ticket once, whichever agents ask at once (one
 * ramp call per order: the others join it), and a refusal says what to do next.
 *
 * A case about an order that is not the requester's gets no status, ticket or reminder from the
 * buttons or a plain command. Only `/ticket not-their-order confirm` files that order's ticket: the
 * agent says in words that they know whose it is (its refund goes to the order's own number). The
 * override is noted on the case and logged, and the requester is not told the ticket's number.
 */
import type { Text } from '../../chat/types.js';
import { findOrderId, sideOfOrder } from '../../domain/order-id.js';
import type { Ticket, TicketRequest } from '../../domain/types.js';
import { isRampError } from '../../ramp/errors.js';
import type { TrackerFacts } from '../case/card.js';
import type { SupportCase } from '../case/case.js';
import { agentBy, agentName, checkAndPost, orderOf } from './agent-order.js';
import { mirror } from './case-topic.js';
import { agentCase, caseLog, type DeskContext, describe, notifyUser, record, t } from './context.js';
import { replyButton } from './relay.js';
import { fileOnce, mayHaveFiled, noteTicket, TicketBusyError, TicketRefusedError } from './tickets.js';
import type { AgentRef } from './types.js';

/** The words an agent types to file a ticket on a case about an order that is not the requester's. */
export const NOT_THEIR_ORDER_OVERRIDE = 'not-their-order confirm';
const OVERRIDE = /(?:^|\s)not-their-order\s+confirm(?:\s|$)/i;

/** The manual ticket form filled from the tracked order (the ramp's direct form); undefined without the facts. */
function manualRequest(
  c: SupportCase,
  orderId: string,
  facts: TrackerFacts | undefined,
): TicketRequest | undefined {
  const o = facts?.order;
  if (!o) return undefined;
  const amount = o.side === 'offramp' ? o.tokenAmount : String(o.paidKes ?? o.amountKes);
  if (!amount) return undefined;
  return {
    side: o.side,
    phone: o.phone,
    amount,
    description: `Filed by rampchat support (case ${c.id}) for order ${orderId} while the ramp shows it ${facts?.status ?? 'PENDING'}.`,
    userAddress: o.wallet,
    symbol: o.token.symbol,
    tokenAddress: o.token.address,
    chain: o.network,
  };
}

/** `/ticket [order|manual]`: files the order's refund ticket (or finds the one filed) and tells the user. */
export async function agentTicket(
  ctx: DeskContext,
  caseId: string,
  agent: AgentRef,
  args?: string,
): Promise<void> {
  const asked = await agentCase(ctx, caseId, agent.id, 'ticket');
  const named = args ? findOrderId(args) : undefined;
  // The case's own order is not the requester's: refused unless the agent overrides it in words.
  const foreign = Boolean(asked.notOwner && asked.orderId && (!named || named === asked.orderId));
  if (foreign && !OVERRIDE.test(args ?? '')) {
    await mirror(
      ctx,
      asked,
      [
        t('support-topic-ticket-not-owner-refused', {
          orderId: asked.orderId!,
          override: NOT_THEIR_ORDER_OVERRIDE,
        }),
      ],
      false,
    );
    return;
  }
  const found = foreign ? { c: asked, orderId: asked.orderId! } : await orderOf(ctx, asked, agent, args);
  if (!found) return;
  const { orderId, c } = found;
  if (foreign)
    ctx.log.warn(
      { ...caseLog(c), agentId: agent.id },
      "support agent overrode the not-the-requester's-order warning to file a ticket",
    );
  const manual = /\bmanual\b/i.test(args ?? '');
  // Agents asking at once: one filing per order, the others join it and its posts answer them all.
  // A refusal is remembered a little while, here and in the claim in Redis (for the other
  // instances), so a second ask right after it does not file again either.
  const key = `${orderId}:${manual ? 'manual' : 'order'}`;
  const joined = ctx.flights.get(key);
  if (joined && (joined.until === undefined || joined.until > ctx.now())) return joined.done;
  for (const [k, f] of ctx.flights) if (f.until !== undefined && f.until <= ctx.now()) ctx.flights.delete(k);
  const flight = { done: Promise.resolve(), until: undefined as number | undefined };
  flight.done = fileAndTell(ctx, c, orderId, agent, manual, foreign)
    .then((refused) => {
      if (refused) flight.until = ctx.now() + TICKET_JOIN_MS;
      else ctx.flights.delete(key);
    })
    .catch((err: unknown) => {
      ctx.flights.delete(key);
      throw err;
    });
  ctx.flights.set(key, flight);
  await flight.done;
}

/** A second ask for an order's ticket this soon after the ramp refused the first is answered by it. */
export const TICKET_JOIN_MS = 15_000;

async function fileAndTell(
  ctx: DeskContext,
  found: SupportCase,
  orderId: string,
  agent: AgentRef,
  manual: boolean,
  foreign: boolean,
): Promise<boolean> {
  let c = found;
  let request: TicketRequest;
  if (manual) {
    const facts = ctx.trackerFacts ? await ctx.trackerFacts(orderId).catch(() => undefined) : undefined;
    const form = manualRequest(c, orderId, facts);
    if (!form) {
      await mirror(ctx, c, [t('support-topic-ticket-manual-missing', { orderId })], false);
      return false;
    }
    request = form;
  } else {
    request = {
      side: c.side ?? sideOfOrder(orderId),
      orderId,
      description: `Filed by rampchat support (case ${c.id}) for order ${orderId}.`,
      ...(c.symbol ? { symbol: c.symbol } : {}),
      ...(c.network ? { chain: c.network } : {}),
    };
  }
  let result: { ticket: Ticket; existing: boolean };
  try {
    // The manual form has no order id at the ramp: the claim is taken here, so it is filed once too.
    result = await fileOnce(ctx, request, orderId, {
      kind: manual ? 'manual' : 'order',
      joinMs: TICKET_JOIN_MS,
    });
  } catch (err) {
    if (err instanceof TicketBusyError) {
      await mirror(ctx, c, [t('support-topic-ticket-busy', { orderId })], false);
      return false;
    }
    if (err instanceof TicketRefusedError) {
      const seconds = Math.max(0, Math.round((ctx.now() - err.at) / 1000));
      await mirror(
        ctx,
        c,
        [t('support-topic-ticket-refused-recent', { orderId, seconds, reason: err.reason })],
        false,
      );
      return false;
    }
    if (mayHaveFiled(err)) {
      await mirror(
        ctx,
        c,
        [t('support-topic-ticket-uncertain', { orderId, detail: describe(err).slice(0, 200) })],
        false,
      );
      return false;
    }
    await refusedNext(ctx, c, orderId, err);
    return true;
  }
  const { ticket, existing } = result;
  c = (await ctx.store.get(c.id)) ?? c;
  if (existing && c.ticketId === ticket.id) {
    await mirror(ctx, c, [t('support-topic-ticket-existing', { orderId, ticketId: ticket.id })], false);
    return false;
  }
  const by = existing ? 'system' : agentBy(agent);
  const name = existing ? undefined : agent.name;
  if (foreign) {
    // Noted and shown, never told to the requester: the ticket is the order owner's.
    const noted = await record(ctx, c, {
      at: ctx.now(),
      kind: 'note',
      by: agentBy(agent),
      ...(agent.name ? { name: agent.name } : {}),
      text: `ticket ${ticket.id} filed on an order that is not the requester's (agent override)`,
    });
    await noteTicket(
      ctx,
      noted,
      ticket.id,
      by,
      [t('support-topic-ticket-not-owner-filed', { orderId, ticketId: ticket.id, agent: agentName(agent) })],
      name,
    );
    return false;
  }
  const said = [
    t(existing ? 'support-topic-ticket-existing' : 'support-topic-ticket', { orderId, ticketId: ticket.id }),
  ];
  if (orderId === c.orderId) await noteTicket(ctx, c, ticket.id, by, said, name);
  else {
    // Another order of the user's: noted in the history, the case keeps its own order's ticket.
    const noted = await record(ctx, c, {
      at: ctx.now(),
      kind: 'ticket',
      by,
      ...(name ? { name } : {}),
      ticketId: ticket.id,
      text: `for order ${orderId}`,
    });
    await mirror(ctx, noted, said);
  }
  // A ticket filed before (by the user, say) is theirs already: they are not told support filed it.
  if (existing) return false;
  await notifyUser(ctx, c, {
    texts: [t('support-ticket-by-agent', { ticketId: ticket.id, orderId })],
    buttons: replyButton(c),
    templateSuffices: true,
  });
  return false;
}

/**
 * The ramp refused the ticket: the order's state now, and what the agent can do next (re-check, a
 * reminder, or the manual form the ramp takes for an order it will not file by number).
 */
async function refusedNext(ctx: DeskContext, c: SupportCase, orderId: string, err: unknown): Promise<void> {
  const reason = describe(err).slice(0, 300);
  const lead = [t('support-topic-ticket-failed', { reason })];
  if (!isRampError(err)) {
    await mirror(ctx, c, lead, false);
    return;
  }
  const state = await checkAndPost(ctx, c, orderId, undefined, lead);
  if (!state) return;
  const next =
    state.status === 'PENDING'
      ? 'support-topic-next-pending'
      : state.status === 'SUCCESS'
        ? 'support-topic-next-success'
        : 'support-topic-next-other';
  ctx.later(c, async (g) => {
    if (c.topic)
      await g.post(
        c.topic.threadId,
        [t(next, { orderId })],
        actionButtons(c.id, ['status', 'remind', 'manual']),
      );
  });
}

/** Inline buttons under a desk post: the common actions, by callback data `desk:<action>:<caseId>`. */
export function actionButtons(
  caseId: string,
  actions: Array<'status' | 'ticket' | 'resolve' | 'remind' | 'manual'>,
): Array<Array<{ id: string; label: Text }>> {
  return [actions.map((a) => ({ id: `desk:${a}:${caseId}`, label: t(`support-desk-button-${a}`) }))];
}
