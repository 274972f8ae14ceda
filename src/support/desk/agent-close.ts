/**
 * `/resolve [message]` closes the case and its topic and tells the user's flow; `/reopen` opens it
 * again and tells the user. A second agent (or a second tap) meanwhile is told it is done already.
 */

import type { Delivery } from '../../outbound/index.js';
import { withEvent } from '../case/case.js';
import { agentBy, agentName } from './agent-order.js';
import { mirror } from './case-topic.js';
import { agentCase, caseLog, type DeskContext, describe, notifyUser, t } from './context.js';
import { noteDelivery } from './delivery.js';
import { replyButton } from './relay.js';
import type { AgentRef } from './types.js';

/** `/resolve [message]`: closes the case and its topic; the user's flow gets the agent's message. */
export async function agentResolve(
  ctx: DeskContext,
  caseId: string,
  agent: AgentRef,
  message?: string,
): Promise<void> {
  const { log } = ctx;
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
  let told: { refused?: string } = {};
  const delivery: Delivery = {};
  told = await (
    conv.tellAndReport?.(closed.user, input, { report: delivery }) ??
    conv.handle(closed.user, input).then(() => ({}))
  ).catch((err: unknown) => ({ refused: describe(err) }));
  if (told.refused) log.error({ ...caseLog(c), err: told.refused }, 'could not tell the user');
  // Outside WhatsApp's window the user got the template: the topic says so and in which language.
  else if (delivery.form === 'template') await noteDelivery(ctx, closed, delivery);
  const agentArg = { agent: agentName(agent) };
  await mirror(ctx, closed, [
    told.refused
      ? t('support-topic-resolved-not-delivered', { ...agentArg, reason: told.refused.slice(0, 300) })
      : message
        ? t('support-topic-resolved', { ...agentArg, message })
        : t('support-topic-resolved-plain', agentArg),
  ]);
  if (closed.topic) {
    const threadId = closed.topic.threadId;
    // The agents read "Closed by" first; the topic's state follows as routine.
    ctx.later(
      closed,
      (g) =>
        g
          .close(threadId)
          .catch((err: unknown) =>
            log.warn({ ...caseLog(c), err: describe(err) }, 'could not close a topic'),
          ),
      'routine',
    );
  }
}

/** `/reopen`: opens a closed case and its topic again and tells the user. */
export async function agentReopen(ctx: DeskContext, caseId: string, agent: AgentRef): Promise<void> {
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
  if (reopened.topic) {
    const threadId = reopened.topic.threadId;
    ctx.later(reopened, (g) => g.reopen(threadId).catch(() => {}));
  }
  await mirror(ctx, reopened, [t('support-topic-reopened', { by: agentName(agent) })]);
  await notifyUser(ctx, reopened, {
    texts: [t('support-reopened-by-agent', { caseId: reopened.id })],
    buttons: replyButton(reopened),
    templateSuffices: true,
  });
}
