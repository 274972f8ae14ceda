/** Which locale the channel's own messages (errors, hints) use in a chat. */
import type { Locale } from '../../chat/types.js';

/** The locale hint for a new user from their Telegram client language. */
export function localeFromLanguageCode(code: string | undefined): Locale {
  return code?.toLowerCase().split('-')[0] === 'sw' ? 'sw' : 'en';
}

const MAX_CHATS = 50_000;

/** The locale each chat was last sent a message in (the user's choice), for the most recent chats. */
export class ChatLocales {
  private readonly byChat = new Map<string, Locale>();

  remember(chatId: string, locale: Locale): void {
    if (this.byChat.get(chatId) === locale) return;
    this.byChat.delete(chatId);
    this.byChat.set(chatId, locale);
    if (this.byChat.size > MAX_CHATS) this.byChat.delete(this.byChat.keys().next().value as string);
  }

  /** The chat's remembered locale, else the hint from the client language. */
  of(chatId: string, languageCode: string | undefined): Locale {
    return this.byChat.get(chatId) ?? localeFromLanguageCode(languageCode);
  }
}
