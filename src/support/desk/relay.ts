/**
 * Messages between a user and the agents. A user's text goes to the case they name by order id,
 * else the case they are talking in, else their case for the order (reopened or opened as
 * needed), and is posted in its topic; an agent's text goes to the user with a reply button.
 */

import type { Button, Locale, UserRef } from '../../chat/types.js';
import { findOrderId } from '../../domain/order-id.js';
import type { Delivery } from '../../outbound/index.js';
import { type SupportCase, withEvent } from '../case/case.js';
import { supportReplyButtonId } from '../flow.js';
import { markCard, mirror, mirrorLine } from './case-topic.js';
import { announce, caseFor, linkOrder, owns, phoneOf } from './cases.js';
import { agentCase, caseLog, type DeskContext, describe, record, t } from './context.js';
import { noteDelivery, userWrote } from './delivery.js';
import type { AgentRef, FoundCase } from './types.js';

/** The button under an agent's words to the user: answer them. */
export const replyButton = (c: SupportCase): Button[][] => [
  [{ id: supportReplyButtonId(c.id), label: t('support-button-reply') }],
];

/** The reaction on an agent's message the user got (one of Telegram's allowed reactions). */
export const DELIVERED_REACTION = '👍';

/** The case a user's message is for (see the module comment). */
async function caseOfMessage(
  ctx: DeskContext,
  user: UserRef,
  text: string,
  opts: { caseId?: string; orderId?: string; phone?: string; locale?: Locale },
): Promise<FoundCase> {
  const seed = { phone: phoneOf(user, opts.phone), userLocale: opts.locale };
  const mentioned = findOrderId(text);
  if (
    mentioned &&
    mentioned !== opts.orderId &&
    (await ctx.store.slot(user, { kind: 'order', orderId: mentioned }))
  )
    return caseFor(ctx, user, mentioned, 'user', seed, 'user');
  if (opts.caseId) {
    const current = await ctx.store.get(opts.caseId);
    if (current && current.user.channel === user.channel && current.user.id === user.id) {
      // An order the user names in an order-less case links the case to it (when it is theirs).
      if (
        mentioned &&
        current.status === 'open' &&
        !current.orderId &&
        !(await ctx.store.slot(user, { kind: 'order', orderId: mentioned })) &&
        (await owns(ctx, user, mentioned))
      )
        return { case: await linkOrder(ctx, current, mentioned, 'user'), status: 'existing' };
      return current.status === 'open'
        ? { case: current, status: 'existing' }
        : caseFor(ctx, user, current.orderId, 'user', seed, 'user');
    }
  }
  return caseFor(ctx, user, opts.orderId, 'user', seed, 'user');
}

/** A user's message for their case: recorded on it and posted in its topic. */
export async function relayFromUser(
  ctx: DeskContext,
  user: UserRef,
  text: string,
  opts: { caseId?: string; orderId?: string; phone?: string; locale?: Locale } = {},
): Promise<FoundCase> {
  const found = await caseOfMessage(ctx, user, text, opts);
  let c = await announce(ctx, found.case, found.status, 'user');
  // The line is numbered in the record, so a replica taking it over posts it once.
  let n = 0;
  c =
    (await ctx.store.update(c.id, (x) => {
      n = (x.lines ?? 0) + 1;
      const unposted = [...(x.unposted ?? []), n].slice(-200);
      return { ...withEvent(x, { at: ctx.now(), kind: 'user', by: 'user', text, n }), lines: n, unposted };
    })) ?? c;
  c = await userWrote(ctx, c, opts.locale);
  await ctx.store.setLast(user, c.id);
  if (n) await mirrorLine(ctx, c, { n, text });
  markCard(ctx, c);
  if (!ctx.groups.length)
    ctx.log.info({ ...caseLog(c), chars: text.length }, 'support message stored (no support chat)');
  return { case: c, status: found.status };
}

/**
 * Text the user typed outside the support chat: relayed to the case they wrote about last when it
 * is open, or closed within the reopen window (then reopened); undefined when there is none.
 */
export async function relayIfOpen(
  ctx: DeskContext,
  user: UserRef,
  text: string,
  opts: { phone?: string; locale?: Locale } = {},
): Promise<FoundCase | undefined> {
  const id = await ctx.store.slot(user, { kind: 'last' });
  const c = id ? await ctx.store.get(id) : undefined;
  if (!c) return undefined;
  if (c.status === 'closed' && ctx.now() - (c.closedAt ?? 0) > ctx.reopenWindowMs) return undefined;
  return relayFromUser(ctx, user, text, {
    caseId: c.id,
    ...(c.orderId ? { orderId: c.orderId } : {}),
    ...opts,
  });
}

/**
 * An agent's message to the user of an open case (a closed one is said so in the topic). Delivered,
 * it is acknowledged with a reaction on the agent's message (`messageId`), which costs the group
 * nothing; without one, or not delivered, the topic says so.
 */
export async function agentMessage(
  ctx: DeskContext,
  caseId: string,
  agent: AgentRef,
  text: string,
  messageId?: number,
): Promise<void> {
  const c = await agentCase(ctx, caseId, agent.id, 'message');
  if (c.status === 'closed') {
    await mirror(ctx, c, [t('support-topic-closed')], false);
    return;
  }
  const recorded = await record(ctx, c, {
    at: ctx.now(),
    kind: 'agent',
    by: `agent:${agent.id}`,
    ...(agent.name ? { name: agent.name } : {}),
    text,
  });
  markCard(ctx, recorded);
  // The agent learns in the topic whether the user got it (a blocked bot, an expired WhatsApp window).
  const delivery: Delivery = {};
  try {
    await ctx.conversation.notify(
      c.user,
      { texts: [t('support-agent-message', { text })], buttons: replyButton(c), templateSuffices: true },
      { report: delivery },
    );
  } catch (err) {
    ctx.log.error({ ...caseLog(c), err: describe(err) }, 'could not deliver an agent message');
    await mirror(
      ctx,
      recorded,
      [t('support-topic-not-delivered', { reason: describe(err).slice(0, 300) })],
      false,
    );
    return;
  }
  // A template is not the reply itself: the topic says what the user got instead (delivery.ts).
  const noted = await noteDelivery(ctx, recorded, delivery);
  if (delivery.form === 'template') return;
  const group = ctx.groupOf(noted);
  if (messageId !== undefined && group) await group.react(messageId, DELIVERED_REACTION);
  else await mirror(ctx, noted, [t('support-topic-delivered')], false);
}
