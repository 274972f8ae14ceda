/**
 * A case's topic in the support chat and its card. The case store is the source of truth; the
 * topic mirrors it. A Telegram failure never loses a case: it is logged, and the topic is created
 * on the next event.
 */
import type { Text } from '../../chat/types.js';
import { type SendScope, sendScope } from '../../outbound/index.js';
import { cardTexts, type TrackerFacts, topicName } from '../case/card.js';
import type { SupportCase } from '../case/case.js';
import type { DeskButtons, DeskTopics } from '../ports.js';
import type { DeskPriority } from './budget.js';
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
async function ensureTopic(ctx: DeskContext, c: SupportCase, topics: DeskTopics): Promise<SupportCase> {
  const { store } = ctx;
  if (c.topic) return c;
  if (!(await store.claimTopic(c.id, 60_000))) return c;
  try {
    const fresh = (await store.get(c.id)) ?? c;
    if (fresh.topic) return fresh;
    const threadId = await topics.create(topicName(fresh));
    await store.setTopic(topics.chatId, threadId, fresh.id);
    const withTopic =
      (await store.update(fresh.id, (x) => ({ ...x, topic: { chatId: topics.chatId, threadId } }))) ?? fresh;
    const content = cardTexts(withTopic, await facts(ctx, withTopic));
    const buttons = cardButtons(withTopic);
    const cardMessageId = await topics.postCard(threadId, content, buttons);
    sentCards.set(withTopic.id, JSON.stringify([content, buttons]));
    const done =
      (await store.update(fresh.id, (x) =>
        x.topic ? { ...x, topic: { ...x.topic, cardMessageId } } : undefined,
      )) ?? withTopic;
    ctx.log.info({ ...caseLog(done), threadId }, 'support topic created');
    // Pinning is not what agents need first: it waits behind posts, with the card's edits.
    markCard(ctx, done);
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
  ctx.later(c, async (topics) => {
    const fresh = (await ctx.store.get(c.id)) ?? c;
    if (fresh.topic) await topics.rename(fresh.topic.threadId, topicName(fresh));
  });
}

/** What each card shows in the group now (this process's view): an edit to the same is not sent. */
const sentCards = new Map<string, string>();

/** The card is behind the case: its latest state goes in the group's budget (coalesced, behind posts). */
export function markCard(ctx: DeskContext, c: SupportCase): void {
  const topics = ctx.groupOf(c);
  if (topics) ctx.budget.card(c.id, topics.chatId, () => refreshCard(ctx, c.id, topics));
}

/**
 * Brings the card to what the case and the tracker say now (a new card when editing fails), or pins
 * it: one call per turn, so a post never waits behind two.
 */
async function refreshCard(ctx: DeskContext, caseId: string, topics: DeskTopics): Promise<void> {
  const { store } = ctx;
  const c = await store.get(caseId);
  if (!c?.topic) return;
  const card = cardTexts(c, await facts(ctx, c));
  const buttons = cardButtons(c);
  const shown = JSON.stringify([card, buttons]);
  const messageId = c.topic.cardMessageId;
  if (messageId !== undefined && !c.topic.pinned) {
    // Pinned first, once; a change meanwhile is edited at the card's next turn.
    await topics
      .pin(messageId)
      .catch((err: unknown) => ctx.log.warn({ err: describe(err) }, 'could not pin a case card'));
    await store.update(c.id, (x) => (x.topic ? { ...x, topic: { ...x.topic, pinned: true } } : undefined));
    if (sentCards.get(c.id) !== shown) markCard(ctx, c);
    return;
  }
  if (messageId !== undefined) {
    if (sentCards.get(c.id) === shown) return;
    try {
      await topics.editCard(messageId, card, buttons);
      sentCards.set(c.id, shown);
      return;
    } catch (err) {
      ctx.log.warn({ ...caseLog(c), err: describe(err) }, 'could not edit the case card; posting a new one');
    }
  }
  const posted = await topics.postCard(c.topic.threadId, card, buttons);
  sentCards.set(c.id, shown);
  if (sentCards.size > 10_000) sentCards.delete(sentCards.keys().next().value as string);
  await store.update(c.id, (x) =>
    x.topic ? { ...x, topic: { ...x.topic, cardMessageId: posted, pinned: false } } : undefined,
  );
  markCard(ctx, c);
}

/**
 * Posts into the case's topic (creating it if needed) and marks its card behind when asked. The work
 * waits in the group's budget (see budget.ts), at the priority of the work in progress, behind the
 * case's earlier posts, and is not waited for: neither the user nor the tracker waits on the group.
 */
export async function mirror(
  ctx: DeskContext,
  c: SupportCase,
  texts: Text[],
  refresh = true,
): Promise<SupportCase> {
  const topics = ctx.groupOf(c);
  if (!topics) return c;
  if (!c.topic) {
    // A new topic and its card go before other cases' routine posts, so each case has one soon.
    ctx.budget.add(c.id, topics.chatId, topicPriority(ctx), async () => {
      await ensureTopic(ctx, (await ctx.store.get(c.id)) ?? c, topics);
    });
  }
  if (texts.length) ctx.later(c, async (g) => void (await postNow(ctx, c.id, g, texts)));
  if (refresh) markCard(ctx, c);
  return c;
}

const topicPriority = (ctx: DeskContext): DeskPriority => (ctx.priority === 'agent' ? 'agent' : 'topic');

/** A user's line (its number in the case, and what they wrote). */
export interface UserLine {
  n: number;
  text: string;
}

/**
 * A user's line: held for this replica (line-ledger.ts) before the user hears ✓, then gathered with
 * the lines they type right after it into one post.
 */
export async function mirrorLine(ctx: DeskContext, c: SupportCase, line: UserLine): Promise<void> {
  const topics = ctx.groupOf(c);
  if (!topics) return;
  await ctx.lines.hold(c.id, line.n);
  if (!c.topic) mirror(ctx, c, [], false);
  ctx.budget.addLine(c.id, topics.chatId, line, (lines) => postLines(ctx, c.id, topics, lines));
}

/**
 * Posts lines under one name (`dl:<case>:<first>-<last>`): lines a replica put in the outbox before
 * it died, taken over and posted again the same way, go once. Then they are no longer held.
 */
async function postLines(
  ctx: DeskContext,
  caseId: string,
  topics: DeskTopics,
  lines: UserLine[],
  attempt = 1,
): Promise<void> {
  const ns = lines.map((l) => l.n);
  const name = `dl:${caseId}:${ns[0]}-${ns.at(-1)}`;
  const texts = lines.map(({ text }) => t('support-topic-user-message', { text }));
  if (await postNow(ctx, caseId, topics, texts, sendScope(name, { strict: true }))) {
    await posted(ctx, caseId, ns);
    return;
  }
  // Not posted (no topic yet, Redis or Telegram failing): again in a while, then given up (logged).
  if (attempt >= POST_ATTEMPTS) {
    ctx.log.error({ caseId, lines: ns }, 'gave up posting user lines to the case topic');
    await posted(ctx, caseId, ns);
    return;
  }
  ctx.timer(RETRY_MS * attempt, async () =>
    ctx.budget.add(caseId, topics.chatId, 'user', () => postLines(ctx, caseId, topics, lines, attempt + 1)),
  );
}

/** The lines are in the topic (or given up): no longer waiting, in the case or for this replica. */
async function posted(ctx: DeskContext, caseId: string, ns: number[]): Promise<void> {
  const done = new Set(ns);
  await ctx.store.update(caseId, (c) =>
    c.unposted?.some((n) => done.has(n))
      ? { ...c, unposted: c.unposted.filter((n) => !done.has(n)) }
      : undefined,
  );
  await ctx.lines.release(caseId, ns);
}

const POST_ATTEMPTS = 6;
const RETRY_MS = 5_000;

/**
 * Lines a replica that stopped beating had queued: posted from the case record by this one (the
 * topic first when it has none).
 */
export async function takeOver(
  ctx: DeskContext,
  caseId: string,
  ns: number[],
  opts: { hold?: boolean } = {},
): Promise<void> {
  const c = await ctx.store.get(caseId);
  const topics = c && ctx.groupOf(c);
  if (!c || !topics) {
    await ctx.lines.release(caseId, ns);
    return;
  }
  const wanted = new Set(ns);
  const lines = c.events.flatMap((e) =>
    e.kind === 'user' && e.n !== undefined && wanted.has(e.n) ? [{ n: e.n, text: e.text ?? '' }] : [],
  );
  // Lines no longer in the record (over MAX_EVENTS) cannot be posted: they are let go.
  const gone = ns.filter((n) => !lines.some((l) => l.n === n));
  if (gone.length) await posted(ctx, caseId, gone);
  if (opts.hold) for (const { n } of lines) await ctx.lines.hold(caseId, n);
  ctx.log.info({ ...caseLog(c), lines: lines.length }, "posting a stopped replica's support lines");
  if (!c.topic) mirror(ctx, c, [], false);
  if (lines.length) ctx.budget.add(c.id, topics.chatId, 'user', () => postLines(ctx, c.id, topics, lines));
  markCard(ctx, c);
}

/** Posts into the case's topic; false when it could not (logged). */
async function postNow(
  ctx: DeskContext,
  caseId: string,
  topics: DeskTopics,
  texts: Text[],
  scope?: SendScope,
): Promise<boolean> {
  const c = await ctx.store.get(caseId);
  // No topic: its creation failed (logged); the next event creates it.
  if (!c?.topic) return false;
  try {
    await topics.post(c.topic.threadId, texts, undefined, scope);
    return true;
  } catch (err) {
    ctx.log.error({ ...caseLog(c), err: describe(err) }, 'could not post to the case topic');
    return false;
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
