/**
 * A case's topic in the support chat and its card. The case store is the source of truth; the
 * topic mirrors it. A Telegram failure never loses a case: it is logged, and the topic is created
 * on the next event.
 */
import type { Text } from '../../chat/types.js';
import { cardTexts, type TrackerFacts, topicName } from '../card.js';
import type { SupportCase } from '../case.js';
import type { DeskButtons } from '../ports.js';
import { caseLog, type DeskContext, describe, t } from './context.js';

/** What the tracker keeps about the case's order, unless the order is not the user's. */
async function facts(ctx: DeskContext, c: SupportCase): Promise<TrackerFacts | undefined> {
  if (!c.orderId || c.notOwner || !ctx.trackerFacts) return undefined;
  try {
    return await ctx.trackerFacts(c.orderId);
  } catch (err) {
    ctx.log.warn({ ...caseLog(c), err: describe(err) }, 'could not read the tracker record for a card');
    return undefined;
  }
}

/** Creates the case's topic and card once (claimed, so two processes do not both create one). */
async function ensureTopic(ctx: DeskContext, c: SupportCase): Promise<SupportCase> {
  const { store, topics } = ctx;
  if (!topics || c.topic) return c;
  if (!(await store.claimTopic(c.id, 60_000))) return c;
  try {
    const fresh = (await store.get(c.id)) ?? c;
    if (fresh.topic) return fresh;
    const threadId = await topics.create(topicName(fresh));
    await store.setTopic(topics.chatId, threadId, fresh.id);
    const withTopic =
      (await store.update(fresh.id, (x) => ({ ...x, topic: { chatId: topics.chatId, threadId } }))) ?? fresh;
    const cardMessageId = await topics.postCard(
      threadId,
      cardTexts(withTopic, await facts(ctx, withTopic)),
      cardButtons(withTopic),
    );
    const done =
      (await store.update(fresh.id, (x) =>
        x.topic ? { ...x, topic: { ...x.topic, cardMessageId } } : undefined,
      )) ?? withTopic;
    ctx.log.info({ ...caseLog(done), threadId }, 'support topic created');
    return done;
  } catch (err) {
    ctx.log.error({ ...caseLog(c), err: describe(err) }, 'could not create the case topic; will retry');
    return (await store.get(c.id)) ?? c;
  } finally {
    await store.releaseTopic(c.id).catch(() => {});
  }
}

/** The card's buttons: the common actions (an open case's), or reopen for a closed one. */
export function cardButtons(c: SupportCase): DeskButtons {
  const b = (a: string) => ({ id: `desk:${a}:${c.id}`, label: t(`support-desk-button-${a}`) });
  if (c.status === 'closed') return [[b('reopen')]];
  // No order actions on a case about someone else's order.
  return c.orderId && !c.notOwner ? [[b('status'), b('ticket')], [b('resolve')]] : [[b('resolve')]];
}

/** Renames the case's topic after its order changed (in the background, in the case's order). */
export function rename(ctx: DeskContext, c: SupportCase): void {
  const { topics } = ctx;
  if (!topics) return;
  ctx.later(c.id, async () => {
    const fresh = (await ctx.store.get(c.id)) ?? c;
    if (fresh.topic) await topics.rename(fresh.topic.threadId, topicName(fresh));
  });
}

/** Edits the case's card to what the case and the tracker say now (a new card when editing fails). */
async function refreshCard(ctx: DeskContext, c: SupportCase): Promise<void> {
  const { store, topics } = ctx;
  if (!topics || !c.topic) return;
  const card = cardTexts(c, await facts(ctx, c));
  const buttons = cardButtons(c);
  if (c.topic.cardMessageId !== undefined) {
    try {
      await topics.editCard(c.topic.cardMessageId, card, buttons);
      return;
    } catch (err) {
      ctx.log.warn({ ...caseLog(c), err: describe(err) }, 'could not edit the case card; posting a new one');
    }
  }
  const cardMessageId = await topics.postCard(c.topic.threadId, card, buttons);
  await store.update(c.id, (x) => (x.topic ? { ...x, topic: { ...x.topic, cardMessageId } } : undefined));
}

/**
 * Posts into the case's topic (creating it if needed) and refreshes the card when asked. The work is
 * queued behind the case's earlier posts and not waited for: the support chat is paced to
 * Telegram's 20 messages a minute per group, and neither the user nor the tracker waits on it.
 */
export async function mirror(
  ctx: DeskContext,
  c: SupportCase,
  texts: Text[],
  refresh = true,
): Promise<SupportCase> {
  if (!ctx.topics) return c;
  ctx.later(c.id, async () => {
    await mirrorNow(ctx, (await ctx.store.get(c.id)) ?? c, texts, refresh);
  });
  return c;
}

async function mirrorNow(ctx: DeskContext, c: SupportCase, texts: Text[], refresh: boolean): Promise<void> {
  const { topics } = ctx;
  if (!topics) return;
  const created = !c.topic;
  const withTopic = await ensureTopic(ctx, c);
  const topic = withTopic.topic;
  if (!topic) return;
  try {
    if (texts.length) await topics.post(topic.threadId, texts);
    if (refresh && !created) await refreshCard(ctx, withTopic);
  } catch (err) {
    ctx.log.error({ ...caseLog(c), err: describe(err) }, 'could not post to the case topic');
  }
}

/** The case a topic belongs to. */
export async function caseByTopic(
  ctx: DeskContext,
  chatId: string,
  threadId: number,
): Promise<SupportCase | undefined> {
  const id = await ctx.store.byTopic(chatId, threadId);
  return id ? ctx.store.get(id) : undefined;
}

/** Posts a desk note into a case topic (refusals, usage). */
export async function say(ctx: DeskContext, caseId: string, texts: Text[]): Promise<void> {
  const c = await ctx.store.get(caseId);
  if (c) await mirror(ctx, c, texts, false);
}
