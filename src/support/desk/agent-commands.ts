/**
 * What agents do in a case topic besides writing to the user: `/status [order]` asks the ramp about
 * the order, `/ticket [order|manual]` files its refund ticket (once per order), `/resolve` closes the
 * case and its topic and tells the user's flow, `/reopen` opens it again, and a reminder checks the
 * order again later. Each answers in the topic; a command that does not apply (no order, already
 * closed, the ramp refusing) says so there and what the agent can do next.
 *
 * An order id after `/status` or `/ticket` names the order: in a case without one, an order of the
 * case's user is linked to the case (another's is refused); in a case about another order of the
 * same user, the command acts on the named one.
 *
 * A case about an order that is not the requester's gets no status, ticket or reminder from the
 * buttons or a plain command. Only `/ticket not-their-order confirm` files that order's ticket: the
 * agent says in words that they know whose it is (its refund goes to the order's own number). The
 * override is noted on the case and logged, and the requester is not told the ticket's number.
 */
import type { Text } from '../../chat/types.js';
import { findOrderId, sideOfOrder } from '../../domain/order-id.js';
import type { OfframpOrderState, OnrampOrderState, Ticket, TicketRequest } from '../../domain/types.js';
import { isRampError } from '../../ramp/errors.js';
import type { TrackerFacts } from '../card.js';
import { type SupportCase, withEvent } from '../case.js';
import { mirror } from './case-topic.js';
import { linkOrder, merge, owns } from './cases.js';
import { agentCase, caseLog, type DeskContext, describe, notifyUser, record, t } from './context.js';
import { replyButton } from './relay.js';
import { fileOnce, mayHaveFiled, noteTicket, TicketBusyError } from './tickets.js';
import type { AgentRef } from './types.js';

/** The words an agent types to file a ticket on a case about an order that is not the requester's. */
export const NOT_THEIR_ORDER_OVERRIDE = 'not-their-order confirm';
const OVERRIDE = /(?:^|\s)not-their-order\s+confirm(?:\s|$)/i;

/** `agent:<id>`, as events store who acted. */
export const agentBy = (agent: AgentRef) => `agent:${agent.id}`;
/** The name people read: Telegram's first name or @username, else the id. */
export const agentName = (agent: AgentRef) => agent.name ?? agent.id;

/** The order a command acts on (see the module comment); undefined when said why in the topic. */
async function orderOf(
  ctx: DeskContext,
  c: SupportCase,
  agent: AgentRef,
  args: string | undefined,
): Promise<{ c: SupportCase; orderId: string } | undefined> {
  const named = args ? findOrderId(args) : undefined;
  if (!named || named === c.orderId) {
    // A case about someone else's order names it for the agents' eyes only: nothing is done with it.
    if (c.orderId && c.notOwner) {
      await mirror(ctx, c, [t('support-topic-order-not-users', { orderId: c.orderId })], false);
      return undefined;
    }
    if (c.orderId) return { c, orderId: c.orderId };
    await mirror(ctx, c, [t('support-topic-no-order')], false);
    return undefined;
  }
  if (!(await owns(ctx, c.user, named))) {
    await mirror(ctx, c, [t('support-topic-order-not-users', { orderId: named })], false);
    return undefined;
  }
  if (c.orderId) return { c, orderId: named };
  return { c: await linkOrder(ctx, c, named, agentBy(agent), agent.name), orderId: named };
}

/** The order's state at the ramp. */
function statusAt(ctx: DeskContext, orderId: string): Promise<OnrampOrderState | OfframpOrderState> {
  return sideOfOrder(orderId) === 'onramp'
    ? ctx.ramp.getOnrampStatus(orderId)
    : ctx.ramp.getOfframpStatus(orderId);
}

/** `/status`: the order's status at the ramp, noted on the case and posted in its topic. */
export async function agentStatus(
  ctx: DeskContext,
  caseId: string,
  agent: AgentRef,
  args?: string,
): Promise<void> {
  const found = await orderOf(ctx, await agentCase(ctx, caseId, agent.id, 'status'), agent, args);
  if (!found) return;
  await checkAndPost(ctx, found.c, found.orderId, agent);
}

async function checkAndPost(
  ctx: DeskContext,
  c: SupportCase,
  orderId: string,
  agent: AgentRef | undefined,
  lead: Text[] = [],
): Promise<OnrampOrderState | OfframpOrderState | undefined> {
  let state: OnrampOrderState | OfframpOrderState;
  try {
    state = await statusAt(ctx, orderId);
  } catch (err) {
    await mirror(
      ctx,
      c,
      [...lead, t('support-topic-status-failed', { error: describe(err).slice(0, 300) })],
      false,
    );
    return undefined;
  }
  const mine = orderId === c.orderId;
  const updated =
    (await ctx.store.update(c.id, (x) =>
      withEvent(mine ? merge(x, { lastStatus: state.status, receipt: state.receipt }) : x, {
        at: ctx.now(),
        kind: 'status',
        by: agent ? agentBy(agent) : 'system',
        ...(agent?.name ? { name: agent.name } : {}),
        status: state.status,
      }),
    )) ?? c;
  await mirror(ctx, updated, [
    ...lead,
    t('support-topic-status', { orderId, status: state.status }),
    ...(state.receipt ? [t('support-topic-status-receipt', { receipt: state.receipt })] : []),
    ...(state.message ? [t('support-topic-status-message', { message: state.message.slice(0, 200) })] : []),
  ]);
  return state;
}

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
  const { orderId } = found;
  let c = found.c;
  if (foreign)
    ctx.log.warn(
      { ...caseLog(c), agentId: agent.id },
      "support agent overrode the not-the-requester's-order warning to file a ticket",
    );
  const manual = /\bmanual\b/i.test(args ?? '');
  let request: TicketRequest;
  if (manual) {
    const facts = ctx.trackerFacts ? await ctx.trackerFacts(orderId).catch(() => undefined) : undefined;
    const form = manualRequest(c, orderId, facts);
    if (!form) {
      await mirror(ctx, c, [t('support-topic-ticket-manual-missing', { orderId })], false);
      return;
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
    result = manual ? await fileOnceManual(ctx, orderId, request) : await fileOnce(ctx, request);
  } catch (err) {
    if (err instanceof TicketBusyError) {
      await mirror(ctx, c, [t('support-topic-ticket-busy', { orderId })], false);
      return;
    }
    if (mayHaveFiled(err)) {
      await mirror(
        ctx,
        c,
        [t('support-topic-ticket-uncertain', { orderId, detail: describe(err).slice(0, 200) })],
        false,
      );
      return;
    }
    await refusedNext(ctx, c, orderId, err);
    return;
  }
  const { ticket, existing } = result;
  c = (await ctx.store.get(c.id)) ?? c;
  if (existing && c.ticketId === ticket.id) {
    await mirror(ctx, c, [t('support-topic-ticket-existing', { orderId, ticketId: ticket.id })], false);
    return;
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
    return;
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
  if (existing) return;
  await notifyUser(ctx, c, {
    texts: [t('support-ticket-by-agent', { ticketId: ticket.id, orderId })],
    buttons: replyButton(c),
  });
}

/** Files a manual ticket for an order once, under the order's ticket claim. */
async function fileOnceManual(
  ctx: DeskContext,
  orderId: string,
  request: TicketRequest,
): Promise<{ ticket: Ticket; existing: boolean }> {
  const claim = await ctx.store.claimTicket(orderId, ctx.now(), ctx.ticketClaimStaleMs);
  if (!claim.claimed) {
    if (claim.ticketId) return { ticket: { id: claim.ticketId }, existing: true };
    throw new TicketBusyError(`A ticket for ${orderId} is being filed right now`);
  }
  try {
    const ticket = await ctx.ramp.createTicket(request);
    await ctx.store.setTicket(orderId, ticket.id);
    return { ticket, existing: false };
  } catch (err) {
    if (!mayHaveFiled(err)) await ctx.store.releaseTicket(orderId).catch(() => {});
    throw err;
  }
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
  ctx.later(c.id, async () => {
    if (ctx.topics && c.topic)
      await ctx.topics.post(
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

/** `/resolve [message]`: closes the case and its topic; the user's flow gets the agent's message. */
export async function agentResolve(
  ctx: DeskContext,
  caseId: string,
  agent: AgentRef,
  message?: string,
): Promise<void> {
  const { topics, log } = ctx;
  const c = await agentCase(ctx, caseId, agent.id, 'resolve');
  if (c.status === 'closed') {
    await mirror(ctx, c, [t('support-topic-already-closed')], false);
    return;
  }
  const at = ctx.now();
  const closed = await ctx.store.update(c.id, (x) =>
    x.status === 'closed'
      ? undefined
      : withEvent(
          { ...x, status: 'closed', closedAt: at },
          {
            at,
            kind: 'resolved',
            by: agentBy(agent),
            ...(agent.name ? { name: agent.name } : {}),
            ...(message ? { text: message } : {}),
          },
        ),
  );
  if (!closed) {
    // Another agent (or a second tap) closed it meanwhile: the user was told once, by them.
    await mirror(ctx, c, [t('support-topic-already-closed')], false);
    return;
  }
  const input = {
    kind: 'support' as const,
    outcome: {
      action: 'closed' as const,
      caseId: closed.id,
      ...(closed.orderId ? { orderId: closed.orderId } : {}),
      ...(message ? { message } : {}),
    },
  };
  // The topic says what the user was told only once the platform took it.
  const conv = ctx.conversation;
  const told: { refused?: string } = await (
    conv.tellAndReport?.(closed.user, input) ?? conv.handle(closed.user, input).then(() => ({}))
  ).catch((err: unknown) => ({ refused: describe(err) }));
  if (told.refused) log.error({ ...caseLog(c), err: told.refused }, 'could not tell the user');
  const agentArg = { agent: agentName(agent) };
  await mirror(ctx, closed, [
    told.refused
      ? t('support-topic-resolved-not-delivered', { ...agentArg, reason: told.refused.slice(0, 300) })
      : message
        ? t('support-topic-resolved', { ...agentArg, message })
        : t('support-topic-resolved-plain', agentArg),
  ]);
  if (topics && closed.topic) {
    const threadId = closed.topic.threadId;
    ctx.later(c.id, () =>
      topics
        .close(threadId)
        .catch((err: unknown) => log.warn({ ...caseLog(c), err: describe(err) }, 'could not close a topic')),
    );
  }
}

/** `/reopen`: opens a closed case and its topic again and tells the user. */
export async function agentReopen(ctx: DeskContext, caseId: string, agent: AgentRef): Promise<void> {
  const { topics } = ctx;
  const c = await agentCase(ctx, caseId, agent.id, 'reopen');
  if (c.status === 'open') {
    await mirror(ctx, c, [t('support-topic-already-open')], false);
    return;
  }
  const reopened =
    (await ctx.store.update(c.id, (x) =>
      x.status === 'open'
        ? undefined
        : withEvent(
            { ...x, status: 'open', closedAt: undefined },
            {
              at: ctx.now(),
              kind: 'reopened',
              by: agentBy(agent),
              ...(agent.name ? { name: agent.name } : {}),
            },
          ),
    )) ?? c;
  if (topics && reopened.topic) {
    const threadId = reopened.topic.threadId;
    ctx.later(c.id, () => topics.reopen(threadId).catch(() => {}));
  }
  await mirror(ctx, reopened, [t('support-topic-reopened', { by: agentName(agent) })]);
  await notifyUser(ctx, reopened, {
    texts: [t('support-reopened-by-agent', { caseId: reopened.id })],
    buttons: replyButton(reopened),
  });
}

/** A reminder: after `delayMs` the order is checked again and the answer posted in the topic. */
export async function agentRemind(
  ctx: DeskContext,
  caseId: string,
  agent: AgentRef,
  delayMs: number,
): Promise<void> {
  const c = await agentCase(ctx, caseId, agent.id, 'remind');
  if (!c.orderId) {
    await mirror(ctx, c, [t('support-topic-no-order')], false);
    return;
  }
  // Someone else's order: its state is not followed from this case (as /status and the buttons).
  if (c.notOwner) {
    await mirror(ctx, c, [t('support-topic-order-not-users', { orderId: c.orderId })], false);
    return;
  }
  const orderId = c.orderId;
  await mirror(
    ctx,
    c,
    [t('support-topic-remind-set', { agent: agentName(agent), minutes: Math.round(delayMs / 60_000) })],
    false,
  );
  ctx.timer(delayMs, async () => {
    const now = (await ctx.store.get(caseId)) ?? c;
    if (now.status !== 'open') return;
    await checkAndPost(ctx, now, orderId, undefined, [
      t('support-topic-remind-due', { agent: agentName(agent) }),
    ]);
  });
}

/** `/cases`: the open cases, oldest first. */
export async function openCases(ctx: DeskContext): Promise<Text[]> {
  const ids = await ctx.store.openIds();
  const cases = (await Promise.all(ids.map((id) => ctx.store.get(id).catch(() => undefined)))).filter(
    (c): c is SupportCase => c?.status === 'open',
  );
  if (!cases.length) return [t('support-cases-none')];
  cases.sort((a, b) => a.openedAt - b.openedAt);
  const now = ctx.now();
  return [
    t('support-cases-title', { count: cases.length }),
    ...cases.slice(0, 30).map((c) =>
      t('support-cases-line', {
        caseId: c.id,
        orderId: c.orderId ?? '-',
        reason: c.reason,
        age: Math.max(1, Math.round((now - c.openedAt) / 60_000)),
        link: c.topic ? topicLink(c.topic.chatId, c.topic.threadId) : '',
      }),
    ),
  ];
}

/** `https://t.me/c/<id>/<thread>`: a link into a supergroup's topic. */
const topicLink = (chatId: string, threadId: number) =>
  `https://t.me/c/${chatId.replace(/^-100/, '')}/${threadId}`;
