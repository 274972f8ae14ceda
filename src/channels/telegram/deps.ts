/** What the channel's parts (inbound, outbound, lifecycle) share, passed to each explicitly. */
import type { Bot } from 'grammy';
import type { Locale, Text } from '../../chat/types.js';
import type { Logger } from '../../log/logger.js';
import type { MediaStore } from '../../store/media.js';
import type { Conversation } from '../types.js';
import type { Bounded } from './api.js';
import type { ChatLocales } from './locale.js';
import type { TelegramPacing } from './send/pacing.js';
import { renderHtml, type TelegramI18n } from './send/render.js';
import type { ChatState } from './state.js';

export interface TelegramDeps {
  bot: Bot;
  /** The bot token, to scrub from logged errors. */
  token: string;
  conversation: Conversation;
  i18n: TelegramI18n;
  log: Logger;
  state: ChatState;
  locales: ChatLocales;
  bounded: Bounded;
  pacing: TelegramPacing;
  /** Where a message's picture is read from when its turn comes; pictures are left out without it. */
  media?: MediaStore;
}

/** One of the channel's own texts, by id, as Telegram HTML. */
export function ownText(deps: TelegramDeps, locale: Locale, id: string, args?: Text['args']): string {
  return renderHtml(deps.i18n, locale, args ? { id, args } : { id });
}
