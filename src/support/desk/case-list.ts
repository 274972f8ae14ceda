/** `/cases`: the open cases, oldest first, with a link to each topic. */
import type { Text } from '../../chat/types.js';
import type { SupportCase } from '../case/case.js';
import { type DeskContext, t } from './context.js';

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
