/**
 * The case card as one Telegram HTML message: head lines, the order's timeline, the case's history
 * and the agents' commands, joined by blank lines. The oldest history lines are dropped until the
 * card fits Telegram's 4096 characters (the topic keeps the full conversation).
 */
import type { Locale, Text } from '../../chat/types.js';
import { formatDateTime, type I18n } from '../../i18n/index.js';
import type { HistoryLine } from '../case/card.js';
import type { CardContent } from '../ports.js';

/** Telegram's limit on a message's text. */
export const MAX_CHARS = 4096;

/** How the card's texts become HTML: the desk's language and the HTML rendering of one text. */
export interface CardHtmlContext {
  i18n: I18n;
  locale: Locale;
  html: (text: Text) => string;
}

/** One history line: its time in the desk's language and what happened, rendered plain. */
function historyLine({ i18n, locale, html }: CardHtmlContext, l: HistoryLine): string {
  return html({
    id: 'support-event',
    args: { time: formatDateTime(locale, new Date(l.at).toISOString()), what: i18n.t(locale, l.what) },
  });
}

/** Lines joined by newlines; the oldest history lines are dropped until the card fits. */
export function renderCard(ctx: CardHtmlContext, card: CardContent): string {
  const { html } = ctx;
  const line = (l: HistoryLine) => historyLine(ctx, l);
  const head = card.head.map(html);
  const order = card.order?.length
    ? [
        [
          html({ id: 'support-card-order-history' }),
          ...(card.orderMore ? [html(card.orderMore)] : []),
          ...card.order.map(line),
        ].join('\n'),
      ]
    : [];
  const commands = html({ id: 'support-card-commands' });
  const history = card.history.map(line);
  for (let drop = 0; ; drop++) {
    const shown = history.slice(drop);
    const earlier = Number(card.more?.args?.count ?? 0) + drop;
    const more = earlier ? html({ id: 'support-card-history-more', args: { count: earlier } }) : undefined;
    const parts = [
      head.join('\n'),
      ...order,
      [html({ id: 'support-card-history' }), ...(more ? [more] : []), ...shown].join('\n'),
      commands,
    ];
    const text = parts.join('\n\n');
    if (text.length <= MAX_CHARS || shown.length === 0) return text.slice(0, MAX_CHARS);
  }
}
