/**
 * The chat vocabulary every part of the house speaks: who we talk to, localised texts, buttons,
 * outgoing messages and what a user sends. It imports nothing; flows, channels, i18n, the tracker,
 * sell and support all build on it.
 */

export type ChannelName = 'telegram' | 'whatsapp' | 'terminal';
export type Locale = 'en' | 'sw';
export const LOCALES: readonly Locale[] = ['en', 'sw'];

/** Who we talk to: a Telegram chat id, a WhatsApp phone number, or the terminal user. */
export interface UserRef {
  channel: ChannelName;
  id: string;
}
export const userKey = (u: UserRef): string => `${u.channel}:${u.id}`;

/** A localised text: a message id from `locales/` and its arguments (user-supplied args are escaped by the channel). */
export interface Text {
  id: string;
  args?: Record<string, string | number>;
}

/** A choice. `id` travels back as a `button` input (keep it under 64 bytes); `url` makes it a link button. */
export interface Button {
  id: string;
  label: Text;
  url?: string;
}

export interface OutMessage {
  /** Paragraphs, in order. */
  texts: Text[];
  /** Rows of buttons. Channels without buttons print them as a numbered menu. */
  buttons?: Button[][];
  /** Offer the "share my phone number" contact button where the channel has one. */
  requestPhone?: boolean;
  /** Messages with the same key replace each other where the channel can edit (e.g. `order:D-…`). */
  replaceKey?: string;
  /**
   * Sent on its own (tracker, support, sell watcher), not as the answer to the user's last message:
   * where choices are numbered, its choices are lettered instead, so a number typed next still
   * answers the question the user was asked.
   */
  notice?: boolean;
  /**
   * The end of an order: where messages wait their turn, it goes before progress and notices of
   * lesser weight, and a channel that cannot deliver it says so (the sender keeps it until then).
   */
  outcome?: boolean;
  /**
   * A picture or document sent with the texts as its caption: the bytes are kept under `ref` in the media store
   * (src/store/media.ts), so the message itself stays small JSON in the outbox.
   */
  media?: MessageMedia;
  /**
   * The channel's id of the message this one takes the place of (a chart whose other range was
   * tapped): a channel that can edit a picture in place does, others send this as a new message.
   */
  editing?: string;
  /**
   * Outside WhatsApp's 24-hour window, the approved template carrying the whole text is enough: the
   * message is not held to go again when the user writes (an agent's reply: its button is a shortcut).
   */
  templateSuffices?: boolean;
}

/** Media by reference; `filename` names it where a channel shows one. */
export type MessageMedia =
  | { kind: 'photo'; ref: string; filename?: string }
  /** A file sent as such (a statement's PDF or CSV): its name and MIME type travel with it. */
  | { kind: 'document'; ref: string; filename: string; mime: string };

/** What a user sends in a chat, as every channel reads it. */
export type ChatInput =
  | { kind: 'text'; text: string }
  | { kind: 'command'; command: string; args: string }
  /** `on`: the channel's id of the message the button was on, where it has one. */
  | { kind: 'button'; id: string; on?: string }
  | { kind: 'contact'; phone: string };

/**
 * A message was left in the outbox for another replica (this one is stopping): it is kept and will
 * be sent, so its sender treats it as taken, not as failed.
 */
export class HandedOverError extends Error {
  override name = 'HandedOverError';
  constructor() {
    super('handed over to another replica at a stop');
  }
}

/**
 * The platform says the chat cannot be reached any more (the user blocked the bot, deleted their
 * account): nothing sent there will arrive, now or later.
 */
export class ChatGoneError extends Error {
  override name = 'ChatGoneError';
  constructor(
    readonly channel: ChannelName,
    readonly reason: string,
  ) {
    super(`the ${channel} chat is gone: ${reason}`);
  }
}
