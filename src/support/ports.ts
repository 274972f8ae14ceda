/**
 * What the support desk needs from the rest of the app, said in support's own words: the
 * conversation it tells users things through (the engine satisfies it), the support chat it mirrors
 * cases into (`createTelegramTopics` makes one), and the HTML rendering that chat's texts need
 * (the Telegram channel's `renderHtml` satisfies it). Support imports no channel.
 */
import type { Locale, OutMessage, Text, UserRef } from '../chat/types.js';
import type { Input } from '../flows/types.js';
import type { I18n } from '../i18n/index.js';
import type { SendScope } from '../outbound/index.js';
import type { CardTexts, HistoryLine } from './case/card.js';

/** The conversation the desk talks to users through (the engine). */
export interface DeskConversation {
  /** Posts a message to a user outside their flow; `scope.report` hears what the user got. */
  notify(user: UserRef, message: OutMessage, scope?: SendScope): Promise<void>;
  /** Hands an input to the user's flow (a case closed by an agent). */
  handle(user: UserRef, input: Input): Promise<void>;
  /**
   * `handle`, saying what the platform refused of what it sent (the engine has it; else assumed
   * told); `scope.report` hears what the user got.
   */
  tellAndReport?(user: UserRef, input: Input, scope?: SendScope): Promise<{ refused?: string }>;
}

/** A card as `cardTexts` makes it (the order's timeline may be left out). */
export type CardContent = Omit<CardTexts, 'order'> & { order?: HistoryLine[] };

/** Inline buttons under a desk post: callback data and a label text. */
export type DeskButtons = Array<Array<{ id: string; label: Text }>>;

/** What the desk needs from the support chat. */
export interface DeskTopics {
  readonly chatId: string;
  /** Creates a topic and returns its thread id. */
  create(name: string): Promise<number>;
  /**
   * Posts paragraphs into a topic (the general one without `threadId`), buttons under the last part,
   * for the work of `scope` (its parts named in order: src/outbound/scope.ts); returns the message id.
   */
  post(
    threadId: number | undefined,
    texts: Text[],
    buttons?: DeskButtons,
    scope?: SendScope,
  ): Promise<number>;
  /** Posts a card (one line per text, history last) with its buttons; returns the message id. */
  postCard(threadId: number, card: CardContent, buttons?: DeskButtons): Promise<number>;
  /** Pins a message (the card) quietly. */
  pin(messageId: number): Promise<void>;
  /** Acknowledges an agent's message with a reaction (no message in the group). */
  react(messageId: number, emoji: string): Promise<void>;
  /** Replaces the card's text and buttons (no-op when unchanged). */
  editCard(messageId: number, card: CardContent, buttons?: DeskButtons): Promise<void>;
  close(threadId: number): Promise<void>;
  reopen(threadId: number): Promise<void>;
  rename(threadId: number, name: string): Promise<void>;
}

/**
 * Renders one text as Telegram HTML with every string argument escaped (the Telegram channel's
 * `renderHtml` is one).
 */
export type HtmlRenderer = (i18n: I18n, locale: Locale, text: Text) => string;
