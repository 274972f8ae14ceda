/**
 * The order an agent's command acts on, and what the ramp says about it. An order id after
 * `/status` or `/ticket` names the order: in a case without one, an order of the case's user is
 * linked to the case (another's is refused); in a case about another order of the same user, the
 * command acts on the named one. A case about an order that is not the requester's gets no status,
 * ticket or reminder from the buttons or a plain command. `/remind` checks the order again later.
 */
import type { Text } from '../../chat/types.js';
import { findOrderId, sideOfOrder } from '../../domain/order-id.js';
import type { OfframpOrderState, OnrampOrderState } from '../../domain/types.js';
import { type SupportCase, withEvent } from '../case/case.js';
import { mirror } from './case-topic.js';
import { linkOrder, merge, owns } from './cases.js';
import { agentCase, type DeskContext, describe, t } from './context.js';
import type { AgentRef } from './types.js';

/** `agent:<id>`, as events store who acted. */
export const agentBy = (agent: AgentRef) => `agent:${agent.id}`;
/** The name people read: Telegram's first name or @username, else the id. */
export const agentName = (agent: AgentRef) => agent.name ?? agent.id;

/** The order a command acts on (see the module comment); undefined when said why in the topic. */
export async function orderOf(
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

export async function checkAndPost(
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
