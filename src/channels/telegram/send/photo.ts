/**
 * A picture or document message: its bytes read from the media store when its turn comes (so the outbox holds
 * only the reference) and uploaded with sendPhoto, the texts as its HTML caption. A picture no
 * longer kept (expired) goes as its caption alone. A picture that takes another's place (`edit`)
 * replaces it with editMessageMedia, or goes as a new one when that message cannot be edited.
 */
import { GrammyError, InputFile, InputMediaBuilder } from 'grammy';
import type { InlineKeyboardMarkup } from 'grammy/types';
import type { TelegramDeps } from '../deps.js';
import { IN_TURN } from './call.js';
import { sendHtml } from './outbound.js';

/** A picture (or, with `mime`, a document sent with sendDocument) in the outbox. */
export interface PhotoBody {
  k: 'photo';
  ref: string;
  filename?: string;
  mime?: string;
  caption: string;
  keyboard?: InlineKeyboardMarkup;
  /** The message id of a picture this one replaces. */
  edit?: number;
}

/** Sends the picture (or, when it is gone, its caption) at its turn in the line; returns the message id. */
export async function sendPhoto(deps: TelegramDeps, chatId: string, body: PhotoBody): Promise<number> {
  const bytes = await deps.media?.get(body.ref);
  if (!bytes) {
    deps.log.warn({ chatId, ref: body.ref }, 'picture not found in the media store; its caption goes alone');
    return sendHtml(deps, chatId, body.caption, body.keyboard, IN_TURN);
  }
  const extra = {
    ...(body.caption ? { caption: body.caption, parse_mode: 'HTML' as const } : {}),
    ...(body.keyboard ? { reply_markup: body.keyboard } : {}),
  };
  if (body.edit !== undefined && !body.mime) {
    const edited = await editPhoto(deps, chatId, body.edit, bytes, body);
    if (edited !== undefined) return edited;
  }
  const sent = await deps.bounded<{ message_id: number }>(
    (signal) =>
      body.mime
        ? deps.bot.api.sendDocument(chatId, new InputFile(bytes, body.filename ?? 'document'), extra, signal)
        : deps.bot.api.sendPhoto(chatId, new InputFile(bytes, body.filename ?? 'picture.png'), extra, signal),
    IN_TURN,
  );
  return sent.message_id;
}

/** Puts the picture in place of `messageId`; undefined when that message cannot take it. */
async function editPhoto(
  deps: TelegramDeps,
  chatId: string,
  messageId: number,
  bytes: Uint8Array,
  body: PhotoBody,
): Promise<number | undefined> {
  const media = InputMediaBuilder.photo(new InputFile(bytes, body.filename ?? 'picture.png'), {
    ...(body.caption ? { caption: body.caption, parse_mode: 'HTML' as const } : {}),
  });
  try {
    await deps.bounded(
      (signal) =>
        deps.bot.api.editMessageMedia(
          chatId,
          messageId,
          media,
          body.keyboard ? { reply_markup: body.keyboard } : {},
          signal,
        ),
      IN_TURN,
    );
    return messageId;
  } catch (error) {
    if (!(error instanceof GrammyError) || error.error_code !== 400) throw error;
    // The same picture and caption again (the range already shown): nothing to change.
    if (/not modified/i.test(error.description)) return messageId;
    // Any other 400 is about the message (gone, not a picture, too old): a new picture instead.
    deps.log.info({ chatId, messageId }, 'picture to replace cannot be edited; sending a new one');
    return undefined;
  }
}
