/**
 * A picture or document message: its bytes read from the media store when its turn comes (so the outbox holds
 * only the reference) and uploaded with sendPhoto, the texts as its HTML caption. A picture no
 * longer kept (expired) goes as its caption alone.
 */
import { InputFile } from 'grammy';
import type { InlineKeyboardMarkup } from 'grammy/types';
import type { TelegramDeps } from '../deps.js';
import { sendHtml } from './outbound.js';

/** A picture (or, with `mime`, a document sent with sendDocument) in the outbox. */
export interface PhotoBody {
  k: 'photo';
  ref: string;
  filename?: string;
  mime?: string;
  caption: string;
  keyboard?: InlineKeyboardMarkup;
}

/** Sends the picture (or, when it is gone, its caption); returns the message id. */
export async function sendPhoto(deps: TelegramDeps, chatId: string, body: PhotoBody): Promise<number> {
  const bytes = await deps.media?.get(body.ref);
  if (!bytes) {
    deps.log.warn({ chatId, ref: body.ref }, 'picture not found in the media store; its caption goes alone');
    return sendHtml(deps, chatId, body.caption, body.keyboard);
  }
  const extra = {
    ...(body.caption ? { caption: body.caption, parse_mode: 'HTML' as const } : {}),
    ...(body.keyboard ? { reply_markup: body.keyboard } : {}),
  };
  const sent = await deps.bounded<{ message_id: number }>((signal) =>
    body.mime
      ? deps.bot.api.sendDocument(chatId, new InputFile(bytes, body.filename ?? 'document'), extra, signal)
      : deps.bot.api.sendPhoto(chatId, new InputFile(bytes, body.filename ?? 'picture.png'), extra, signal),
  );
  return sent.message_id;
}
