/**
 * What agents do in a case topic besides writing to the user: `/status` asks the ramp about the
 * order, `/ticket` files its refund ticket (once per order), `/resolve` closes the case and its
 * topic and tells the user's flow, `/reopen` opens it again. Each answers in the topic; a
 * command that does not apply (no order, already closed) says so there.
 */
import { sideOfOrder } from '../../domain/order-id.js';
import type { OfframpOrderState, OnrampOrderState, Ticket } from '../../domain/types.js';
import { withEvent } from '../case.js';
import { mirror } from './case-topic.js';
import { merge } from './cases.js';
import { agentCase, caseLog, type DeskContext, describe, notifyUser, t } from './context.js';
import { replyButton } from './relay.js';
import { fileOnce, noteTicket } from './tickets.js';

/** `/status`: the order's status at the ramp, noted on the case and posted in its topic. */
export async function agentStatus(ctx: DeskContext, caseId: string, agentId: string): Promise<void> {
  const { ramp } = ctx;
  let c = await agentCase(ctx, caseId, agentId, 'status');
  if (!c.orderId) {
    await mirror(ctx, c, [t('support-topic-no-order')], false);
    return;
  }
  let state: OnrampOrderState | OfframpOrderState;
  try {
    state =
      (c.side ?? sideOfOrder(c.orderId)) === 'onramp'
        ? await ramp.getOnrampStatus(c.orderId)
        : await ramp.getOfframpStatus(c.orderId);
  } catch (err) {
    await mirror(ctx, c, [t('support-topic-status-failed', { error: describe(err).slice(0, 300) })], false);
    return;
  }
  c =
    (await ctx.store.update(c.id, (x) =>
      withEvent(merge(x, { lastStatus: state.status, receipt: state.receipt }), {
        at: ctx.now(),
        kind: 'status',
        by: `agent:${agentId}`,
        status: state.status,
      }),
    )) ?? c;
  await mirror(ctx, c, [
    t('support-topic-status', { orderId: c.orderId!, status: state.status }),
    ...(state.receipt ? [t('support-topic-status-receipt', { receipt: state.receipt })] : []),
  ]);
}

/** `/ticket`: files the order's refund ticket (or finds the one filed) and tells the user. */
export async function agentTicket(ctx: DeskContext, caseId: string, agentId: string): Promise<void> {
  const c = await agentCase(ctx, caseId, agentId, 'ticket');
  const orderId = c.orderId;
  if (!orderId) {
    await mirror(ctx, c, [t('support-topic-no-order')], false);
    return;
  }
  let result: { ticket: Ticket; existing: boolean };
  try {
    result = await fileOnce(ctx, {
      side: c.side ?? sideOfOrder(orderId),
      orderId,
      description: `Filed by rampchat support (case ${c.id}) for order ${orderId}.`,
      ...(c.symbol ? { symbol: c.symbol } : {}),
      ...(c.network ? { chain: c.network } : {}),
    });
  } catch (err) {
    await mirror(ctx, c, [t('support-topic-ticket-failed', { reason: describe(err).slice(0, 300) })], false);
    return;
  }
  const { ticket, existing } = result;
  if (existing && c.ticketId === ticket.id) {
    await mirror(ctx, c, [t('support-topic-ticket-existing', { orderId, ticketId: ticket.id })], false);
    return;
  }
  await noteTicket(ctx, c, ticket.id, existing ? 'system' : `agent:${agentId}`, [
    t(existing ? 'support-topic-ticket-existing' : 'support-topic-ticket', {
      orderId,
      ticketId: ticket.id,
    }),
  ]);
  // A ticket filed before (by the user, say) is theirs already: they are not told support filed it.
  if (existing) return;
  await notifyUser(ctx, c, {
    texts: [t('support-ticket-by-agent', { ticketId: ticket.id, orderId })],
    buttons: replyButton(c),
  });
}

/** `/resolve <message>`: closes the case and its topic; the user's flow gets the agent's message. */
export async function agentResolve(
  ctx: DeskContext,
  caseId: string,
  agentId: string,
  message: string,
): Promise<void> {
  const { topics, log } = ctx;
  const c = await agentCase(ctx, caseId, agentId, 'resolve');
  if (c.status === 'closed') {
    await mirror(ctx, c, [t('support-topic-already-closed')], false);
    return;
  }
  const at = ctx.now();
  const closed =
    (await ctx.store.update(c.id, (x) =>
      withEvent(
        { ...x, status: 'closed', closedAt: at },
        { at, kind: 'resolved', by: `agent:${agentId}`, text: message },
      ),
    )) ?? c;
  await mirror(ctx, closed, [t('support-topic-resolved', { agent: agentId, message })]);
  if (topics && closed.topic)
    await topics
      .close(closed.topic.threadId)
      .catch((err: unknown) => log.warn({ ...caseLog(c), err: describe(err) }, 'could not close a topic'));
  await ctx.conversation
    .handle(closed.user, {
      kind: 'support',
      outcome: {
        action: 'closed',
        caseId: closed.id,
        ...(closed.orderId ? { orderId: closed.orderId } : {}),
        message,
      },
    })
    .catch((err: unknown) => log.error({ ...caseLog(c), err: describe(err) }, 'could not tell the user'));
}

/** `/reopen`: opens a closed case and its topic again and tells the user. */
export async function agentReopen(ctx: DeskContext, caseId: string, agentId: string): Promise<void> {
  const { topics } = ctx;
  const c = await agentCase(ctx, caseId, agentId, 'reopen');
  if (c.status === 'open') {
    await mirror(ctx, c, [t('support-topic-already-open')], false);
    return;
  }
  const by = `agent:${agentId}`;
  const reopened =
    (await ctx.store.update(c.id, (x) =>
      x.status === 'open'
        ? undefined
        : withEvent({ ...x, status: 'open', closedAt: undefined }, { at: ctx.now(), kind: 'reopened', by }),
    )) ?? c;
  if (topics && reopened.topic) await topics.reopen(reopened.topic.threadId).catch(() => {});
  await mirror(ctx, reopened, [t('support-topic-reopened', { by: agentId })]);
  await notifyUser(ctx, reopened, {
    texts: [t('support-reopened-by-agent', { caseId: reopened.id })],
    buttons: replyButton(reopened),
  });
}
