/**
 * The support chat on Telegram: a forum supergroup with one topic per case. Posts HTML rendered
 * from locale texts (arguments escaped), creates, closes and reopens topics, and keeps the case
 * card (the topic's first message, pinned) up to date by editing it.
 */

import type { Api } from 'grammy';
import { renderHtml } from '../channels/telegram/render.js';
import type { Locale, Text } from '../chat/types.js';
import { formatDateTime, type I18n } from '../i18n/index.js';
import type { Logger } from '../log/logger.js';
import type { CardTexts, HistoryLine } from './card.js';
import { splitHtml } from './split-html.js';

const MAX_CHARS = 4096;

/** What the desk needs from the support chat. */
export interface DeskTopics {
  readonly chatId: string;
  /** Creates a topic and returns its thread id. */
  create(name: string): Promise<number>;
  /** Posts paragraphs into a topic; returns the message id. */
  post(threadId: number, texts: Text[]): Promise<number>;
  /** Posts a card (one line per text, history last) and pins it; returns the message id. */
  postCard(threadId: number, card: CardContent): Promise<number>;
  /** Replaces the card's text (no-op when unchanged). */
  editCard(messageId: number, card: CardContent): Promise<void>;
  close(threadId: number): Promise<void>;
  reopen(threadId: number): Promise<void>;
  rename(threadId: number, name: string): Promise<void>;
}

/** A card as `cardTexts` makes it (the order's timeline may be left out). */
export type CardContent = Omit<CardTexts, 'order'> & { order?: HistoryLine[] };

const isNotModified = (err: unknown) =>
  /message is not modified/i.test(String((err as Error)?.message ?? err));
const isTopicStateNoop = (err: unknown) =>
  /TOPIC_NOT_MODIFIED|TOPIC_CLOSED|TOPIC_ID_INVALID/i.test(String(err));

/** The Telegram side of the desk, over a grammY `Api` (the channel's bot). */
export function createTelegramTopics(opts: {
  api: Api;
  chatId: string;
  i18n: I18n;
  locale?: Locale;
  logger: Logger;
}): DeskTopics {
  const { api, chatId, i18n } = opts;
  const locale = opts.locale ?? 'en';
  const log = opts.logger.child({ component: 'support-topics' });
  const html = (text: Text) => renderHtml(i18n, locale, text);

  const line = (l: HistoryLine) =>
    html({
      id: 'support-event',
      args: { time: formatDateTime(locale, new Date(l.at).toISOString()), what: i18n.t(locale, l.what) },
    });

  /** Lines joined by newlines; the oldest history lines are dropped until the card fits. */
  function renderCard(card: CardContent): string {
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

  async function send(threadId: number, text: string): Promise<number> {
    const sent = await api.sendMessage(chatId, text, {
      message_thread_id: threadId,
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
    });
    return sent.message_id;
  }

  return {
    chatId,
    async create(name) {
      const topic = await api.createForumTopic(chatId, name);
      return topic.message_thread_id;
    },
    async post(threadId, texts) {
      // Long user messages arrive whole, in several parts if need be.
      let first: number | undefined;
      for (const part of splitHtml(texts.map(html).join('\n'), MAX_CHARS)) {
        const id = await send(threadId, part);
        first ??= id;
      }
      return first!;
    },
    async postCard(threadId, card) {
      const id = await send(threadId, renderCard(card));
      await api
        .pinChatMessage(chatId, id, { disable_notification: true })
        .catch((err: unknown) => log.warn({ err: String(err) }, 'could not pin a case card'));
      return id;
    },
    async editCard(messageId, card) {
      try {
        await api.editMessageText(chatId, messageId, renderCard(card), {
          parse_mode: 'HTML',
          link_preview_options: { is_disabled: true },
        });
      } catch (err) {
        if (!isNotModified(err)) throw err;
      }
    },
    async close(threadId) {
      await api.closeForumTopic(chatId, threadId).catch((err: unknown) => {
        if (!isTopicStateNoop(err)) throw err;
      });
    },
    async reopen(threadId) {
      await api.reopenForumTopic(chatId, threadId).catch((err: unknown) => {
        if (!isTopicStateNoop(err)) throw err;
      });
    },
    async rename(threadId, name) {
      await api.editForumTopic(chatId, threadId, { name }).catch((err: unknown) => {
        if (!isTopicStateNoop(err)) throw err;
      });
    },
  };
}
