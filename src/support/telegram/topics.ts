/**
 * The support chat on Telegram: a forum supergroup with one topic per case. Posts HTML rendered
 * from locale texts (arguments escaped), creates, closes and reopens topics, and keeps the case
 * card (the topic's first message, pinned) up to date by editing it.
 *
 * The HTML rendering of one text comes in as `renderHtml` (the Telegram channel's), so support
 * imports no channel.
 */

import type { Api } from 'grammy';
import type { ReactionTypeEmoji } from 'grammy/types';
import type { Locale, Text } from '../../chat/types.js';
import type { I18n } from '../../i18n/index.js';
import type { Logger } from '../../log/logger.js';
import type { SendScope } from '../../outbound/index.js';
import type { DeskButtons, DeskTopics, HtmlRenderer } from '../ports.js';
import { MAX_CHARS, renderCard } from './card-html.js';
import { splitHtml } from './split-html.js';

export type { DeskTopics } from '../ports.js';

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
  /** Telegram HTML for one text (the Telegram channel's `renderHtml`). */
  renderHtml: HtmlRenderer;
  /** Runs an API call with a signal the channel's pacing reads `scope` from (the channel's `scopedCall`). */
  scopedCall?: <T>(scope: SendScope, call: (signal: AbortSignal) => Promise<T>) => Promise<T>;
}): DeskTopics {
  const { api, chatId, i18n } = opts;
  const locale = opts.locale ?? 'en';
  const log = opts.logger.child({ component: 'support-topics' });
  const html = (text: Text) => opts.renderHtml(i18n, locale, text);
  const card = { i18n, locale, html };

  const keyboard = (buttons: DeskButtons | undefined) =>
    buttons?.length
      ? {
          reply_markup: {
            inline_keyboard: buttons.map((row) =>
              row.map((b) => ({ text: i18n.t(locale, b.label), callback_data: b.id })),
            ),
          },
        }
      : {};

  async function send(
    threadId: number | undefined,
    text: string,
    buttons?: DeskButtons,
    scope?: SendScope,
  ): Promise<number> {
    const other = {
      ...(threadId ? { message_thread_id: threadId } : {}),
      parse_mode: 'HTML' as const,
      link_preview_options: { is_disabled: true },
      ...keyboard(buttons),
    };
    const call = (signal?: AbortSignal) => api.sendMessage(chatId, text, other, signal as never);
    const sent = scope && opts.scopedCall ? await opts.scopedCall(scope, call) : await call();
    return sent.message_id;
  }

  /** Opens, closes or renames a topic; asking for the state it is already in is no error. */
  async function topicState(call: () => Promise<unknown>): Promise<void> {
    try {
      await call();
    } catch (err) {
      if (!isTopicStateNoop(err)) throw err;
    }
  }

  return {
    chatId,
    async create(name) {
      const topic = await api.createForumTopic(chatId, name);
      return topic.message_thread_id;
    },
    async post(threadId, texts, buttons, scope) {
      // Long user messages arrive whole, in several parts if need be.
      let first: number | undefined;
      const parts = splitHtml(texts.map(html).join('\n'), MAX_CHARS);
      for (const [i, part] of parts.entries()) {
        const id = await send(threadId, part, i === parts.length - 1 ? buttons : undefined, scope);
        first ??= id;
      }
      return first!;
    },
    postCard: (threadId, content, buttons) => send(threadId, renderCard(card, content), buttons),
    async pin(messageId) {
      await api.pinChatMessage(chatId, messageId, { disable_notification: true });
    },
    async react(messageId, emoji) {
      await api
        .setMessageReaction(chatId, messageId, [
          { type: 'emoji', emoji: emoji as ReactionTypeEmoji['emoji'] },
        ])
        .catch((err: unknown) => log.warn({ err: String(err) }, 'could not react to an agent message'));
    },
    async editCard(messageId, content, buttons) {
      try {
        await api.editMessageText(chatId, messageId, renderCard(card, content), {
          parse_mode: 'HTML',
          link_preview_options: { is_disabled: true },
          ...keyboard(buttons),
        });
      } catch (err) {
        if (!isNotModified(err)) throw err;
      }
    },
    close: (threadId) => topicState(() => api.closeForumTopic(chatId, threadId)),
    reopen: (threadId) => topicState(() => api.reopenForumTopic(chatId, threadId)),
    rename: (threadId, name) => topicState(() => api.editForumTopic(chatId, threadId, { name })),
  };
}
