/**
 * Outbound: channel-neutral messages become HTML messages with keyboards. Long texts go out as
 * several messages (the keyboard on the last); a `replaceKey` message stays one message, edited in
 * place. HTML Telegram refuses is sent again as plain text.
 */
import type { InlineKeyboardMarkup, ReplyKeyboardMarkup, ReplyKeyboardRemove } from 'grammy/types';
import type { Locale, OutMessage } from '../../../chat/types.js';
import { type OutboundClass, type Outbox, type SendScope, withClass } from '../../../outbound/index.js';
import { classOfMessage } from '../../outbound-class.js';
import { type ChannelAdapter, ChatGoneError } from '../../types.js';
import { ownText, type TelegramDeps } from '../deps.js';
import { describeError, isChatGone, isMessageGone, isNotModified, isParseError } from '../errors.js';
import { type ChatMarks, chatMarks } from '../state.js';
import { IN_TURN } from './call.js';
import {
  htmlToPlain,
  inlineKeyboard,
  joinParagraphs,
  MAX_CAPTION_LENGTH,
  MAX_MESSAGE_LENGTH,
  phoneKeyboard,
  renderHtml,
  renderPlain,
  TelegramRenderError,
} from './render.js';

type Markup = InlineKeyboardMarkup | ReplyKeyboardMarkup | ReplyKeyboardRemove;

/** What a `replaceKey` message shows. */
export interface ReplaceContent {
  html: string;
  keyboard: InlineKeyboardMarkup | undefined;
}

/**
 * Sends one HTML message (plain text if Telegram refuses the HTML) for the work of `scope`; returns
 * its message id.
 */
export async function sendHtml(
  deps: TelegramDeps,
  chatId: string,
  html: string,
  markup: Markup | undefined,
  scope?: SendScope,
  paid = false,
): Promise<number> {
  const { bot, bounded, log, token } = deps;
  const extra = {
    link_preview_options: { is_disabled: true },
    ...(markup ? { reply_markup: markup } : {}),
    ...(paid ? { allow_paid_broadcast: true } : {}),
  };
  try {
    const sent = await bounded(
      (signal) => bot.api.sendMessage(chatId, html, { parse_mode: 'HTML', ...extra }, signal),
      scope,
    );
    return sent.message_id;
  } catch (error) {
    if (!isParseError(error)) throw error;
    log.warn(
      { err: describeError(error, token) },
      'Telegram refused the HTML of a message; sending it as plain text',
    );
    const sent = await bounded(
      (signal) => bot.api.sendMessage(chatId, htmlToPlain(html), extra, signal),
      scope,
    );
    return sent.message_id;
  }
}

/**
 * Edits `messageId` to the content, or sends a new message when there is none or it is gone, at its
 * turn in the line. A paid turn sends the content as a new paid message and takes the old one away.
 */
export async function deliverReplace(
  deps: TelegramDeps,
  chatId: string,
  messageId: number | undefined,
  content: ReplaceContent,
  paid: boolean,
): Promise<number> {
  if (paid) {
    const shown = await sendHtml(deps, chatId, content.html, content.keyboard, IN_TURN, true);
    if (messageId !== undefined) {
      await deps.bot.api.deleteMessage(chatId, messageId).catch((error: unknown) => {
        deps.log.info(
          { chatId, messageId, err: describeError(error, deps.token) },
          'old status message stays',
        );
      });
    }
    return shown;
  }
  if (messageId !== undefined) {
    try {
      await deps.bounded(
        (signal) =>
          deps.bot.api.editMessageText(
            chatId,
            messageId,
            content.html,
            {
              parse_mode: 'HTML',
              link_preview_options: { is_disabled: true },
              ...(content.keyboard ? { reply_markup: content.keyboard } : {}),
            },
            signal,
          ),
        IN_TURN,
      );
      return messageId;
    } catch (error) {
      if (isNotModified(error)) return messageId;
      if (!isMessageGone(error)) throw error;
      deps.log.info({ chatId, messageId }, 'message to edit is gone; sending a new one');
    }
  }
  return sendHtml(deps, chatId, content.html, content.keyboard, IN_TURN);
}

/** The channel adapter the conversation engine sends through. */
export function createTelegramAdapter(deps: TelegramDeps, outbox: Outbox): ChannelAdapter {
  const { i18n, log } = deps;
  return {
    name: 'telegram',
    capabilities: { editMessages: true, buttons: true },
    async send(userId, message, locale, scratch, scope) {
      const cls = classOfMessage(message);
      try {
        await sendOne(userId, message, locale, scratch, withClass(scope, cls));
      } catch (error) {
        if (isChatGone(error))
          throw new ChatGoneError('telegram', String(describeError(error, deps.token).description));
        throw error;
      }
    },
  };

  async function sendOne(
    userId: string,
    message: OutMessage,
    locale: Locale,
    scratch: Parameters<ChannelAdapter['send']>[3],
    scope: SendScope & { cls: OutboundClass },
  ) {
    const { cls } = scope;
    const chatId = parseChatId(userId);
    deps.locales.remember(chatId, locale);
    const paragraphs = message.texts.map((text) => renderHtml(i18n, locale, text));
    const keyboard = inlineKeyboard(
      message.buttons,
      (label) => renderPlain(i18n, locale, label),
      (issue) => log.warn({ chatId, ...issue }, 'button left out'),
    );
    if (message.media) {
      // One picture or document, the texts its caption (cut to Telegram's limit); the bytes stay in the media store.
      const caption = cutCaption(paragraphs.join('\n\n'));
      const edit =
        message.editing && /^\d{1,15}$/.test(message.editing) ? Number(message.editing) : undefined;
      const body = {
        k: 'photo',
        ...(edit !== undefined && message.media.kind === 'photo' ? { edit } : {}),
        ref: message.media.ref,
        filename: message.media.filename,
        ...(message.media.kind === 'document' ? { mime: message.media.mime } : {}),
        caption,
        keyboard,
      };
      const id = (await outbox.submit(chatId, cls, body, { scope })) as number;
      if (keyboard && !message.notice) await chatMarks(deps.state, chatId, scratch).setQuestion(id);
      return;
    }
    const chunks = joinParagraphs(paragraphs);
    if (!chunks.length) throw new TelegramRenderError('A Telegram message needs at least one non-empty text');
    if (message.replaceKey) {
      const html = chunks.length === 1 ? (chunks[0] as string) : fitOne(chunks);
      // One outbox message per status message while it waits: a newer state replaces it in place.
      const body = { k: 'replace', key: message.replaceKey, html, keyboard };
      await outbox.submit(chatId, cls, body, { slot: message.replaceKey, scope });
      return;
    }
    const mark = chatMarks(deps.state, chatId, scratch);
    await sendChunks(deps, chatId, { chunks, keyboard, message, locale }, mark, scope);
  }
}

/**
 * Sends the chunks of one message: the inline keyboard (or the phone button) on the last, and the
 * phone keyboard taken away by the first message that no longer asks for it.
 */
async function sendChunks(
  deps: TelegramDeps,
  chatId: string,
  out: { chunks: string[]; keyboard: InlineKeyboardMarkup | undefined; message: OutMessage; locale: Locale },
  mark: ChatMarks,
  scope: SendScope,
) {
  const { chunks, keyboard, message, locale } = out;
  const phoneButton = message.requestPhone
    ? phoneKeyboard(
        renderPlain(deps.i18n, locale, { id: 'tg-share-phone' }),
        renderPlain(deps.i18n, locale, { id: 'tg-share-phone-placeholder' }),
      )
    : undefined;
  let removeKeyboard = !message.requestPhone && (await mark.keyboardShown());
  for (const [i, chunk] of chunks.entries()) {
    const last = i === chunks.length - 1;
    let markup: Markup | undefined = last ? keyboard : undefined;
    if (last && message.requestPhone && !markup) markup = phoneButton;
    const removing = !markup && removeKeyboard;
    if (removing) markup = { remove_keyboard: true };
    const sentId = await sendHtml(deps, chatId, chunk, markup, scope);
    // The question being answered: buttons on an older question's message are stale.
    if (last && keyboard && !message.notice) await mark.setQuestion(sentId);
    if (removing) {
      removeKeyboard = false;
      await mark.setKeyboardShown(false);
    }
  }
  if (message.requestPhone) {
    // A message carries one keyboard: with inline buttons too, the phone button comes in its own message.
    if (keyboard)
      await sendHtml(deps, chatId, ownText(deps, locale, 'tg-share-phone-hint'), phoneButton, scope);
    await mark.setKeyboardShown(true);
  }
}

/** A caption within Telegram's 1024 characters: whole paragraphs that fit, then a mark of the cut. */
function cutCaption(html: string): string {
  if (htmlToPlain(html).length <= MAX_CAPTION_LENGTH) return html;
  const kept = joinParagraphs(html.split('\n\n'), MAX_CAPTION_LENGTH - 2)[0] ?? '';
  return `${kept}\n…`;
}

function parseChatId(userId: string): string {
  if (!/^-?\d{1,20}$/.test(userId)) throw new TelegramRenderError(`"${userId}" is not a Telegram chat id`);
  return userId;
}

/** A replaceKey message must stay one message: keep whole paragraphs that fit and mark the cut. */
function fitOne(chunks: string[]): string {
  const first = chunks[0] as string;
  return first.length + 2 <= MAX_MESSAGE_LENGTH ? `${first}\n…` : first;
}
