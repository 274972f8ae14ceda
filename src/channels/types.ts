/** The seam between chat channels and the conversation engine. */
import type { ChannelName, Locale, OutMessage, UserRef } from '../chat/types.js';

export { ChatGoneError } from '../chat/types.js';

import type { Input } from '../flows/types.js';
import type { SendScope } from '../outbound/scope.js';

/** What channels hand inbound messages to (implemented by the engine). */
export interface Conversation {
  /**
   * Handles one input from a user. `updateId` identifies the channel's update so a redelivered one
   * is ignored; `hints` carry what the channel knows (the WhatsApp sender's phone, the client language).
   * With an `updateId`, rejects with `StoreUnavailableError` when Redis is down before anything was
   * done (the user has been asked to try again): leave the update unacknowledged so it is redelivered.
   * With `refuseWhenBusy`, rejects with `ChatBusyError` when another process holds the chat past the
   * lock wait (nothing was done): hand the update back the same way.
   */
  handle(
    user: UserRef,
    input: Input,
    opts?: {
      updateId?: string;
      /** `sentAt`: when the user sent it (epoch ms), when the channel knows. */
      hints?: { phone?: string; locale?: Locale; sentAt?: number };
      /**
       * Asked once the update is taken, before anything else: false drops it as handled (e.g. a
       * tap on a stale button, judged from the chat's scratch).
       */
      accept?: (scratch: ChatScratch) => boolean | Promise<boolean>;
      refuseWhenBusy?: boolean;
      /** What the update's handling says of its sends: its sends' names, its reply slot. */
      scope?: SendScope;
    },
  ): Promise<void>;
}

/**
 * A few small values a channel keeps per chat (Telegram: the question's message id, whether the
 * phone keyboard shows), stored with the session so reading and writing them costs no round trip
 * of its own: loaded with the session when an update begins, written when it finishes.
 */
export interface ChatScratch {
  get(name: string): string | undefined;
  /** Sets (or, with undefined, clears) a value; it is saved when the update or notice is done. */
  set(name: string, value: string | undefined): void;
}

export interface ChannelCapabilities {
  /** A message can be edited in place (Telegram): order updates edit one status message. */
  editMessages: boolean;
  /** Inline buttons; without them choices are numbered text menus. */
  buttons: boolean;
}

/** A chat channel's outbound side. */
export interface ChannelAdapter {
  readonly name: ChannelName;
  readonly capabilities: ChannelCapabilities;
  /**
   * Delivers a message to a user in their language; honours `replaceKey` where it can edit. `scratch`
   * is the chat's scratch when the engine has it loaded (always for replies and notices); `scope`
   * what the work sending it says of its sends (src/outbound/scope.ts).
   */
  send(
    userId: string,
    message: OutMessage,
    locale: Locale,
    scratch?: ChatScratch,
    scope?: SendScope,
  ): Promise<void>;
}
