/**
 * The terminal chat: one user on stdin/stdout. Each line is one message; buttons print as a
 * numbered menu and typing the number or the label presses them. Lines are handled strictly one
 * after another (effects and their feedback included), so a journey can be piped in as a script.
 */
import type { Readable, Writable } from 'node:stream';
import * as z from 'zod';
import type { Locale, UserRef } from '../../chat/types.js';
import type { I18n } from '../../i18n/index.js';
import type { MediaStore } from '../../store/media.js';
import type { ChannelAdapter, Conversation } from '../types.js';
import { fileSaver } from './files.js';
import { createMenuBook } from './menus.js';
import { render } from './print.js';
import { readLines, type TerminalSession, waitQuiet } from './read.js';

export { parseCommand } from './menus.js';

/** Settings of the terminal chat (merged into the environment parse by main). */
export const terminalEnvSchema = z.object({
  /** Language of the terminal user before they choose one (also read from LANG, e.g. sw_KE.UTF-8). */
  TERMINAL_LOCALE: z.enum(['en', 'sw']).optional(),
  /**
   * After the input ends, keep printing late messages (order updates) while an order of the chat is
   * still open and until this long passes quietly; at most ten times this long in all.
   */
  TERMINAL_EOF_GRACE_MS: z.coerce.number().int().min(0).default(0),
});
export type TerminalConfig = z.infer<typeof terminalEnvSchema>;

export interface TerminalChannelOptions {
  input: Readable;
  output: Writable;
  i18n: I18n;
  /** The terminal user's id (default `local`). */
  userId?: string;
  /** Sent as the language hint for a new session. */
  locale?: Locale;
  /** See `TERMINAL_EOF_GRACE_MS`. */
  eofGraceMs?: number;
  /** Upper bound of the grace after EOF (default 10 × eofGraceMs). */
  maxGraceMs?: number;
  /** How many orders of the user are still being followed; the grace after EOF waits for them. */
  openOrders?: (user: UserRef) => Promise<number>;
  /** Where documents' bytes are read from: they are written to a temp folder and their paths printed. */
  media?: MediaStore;
}

export interface TerminalChannel extends ChannelAdapter {
  readonly user: UserRef;
  /**
   * Reads lines until the input ends, handing each to the conversation and waiting for it; then
   * waits for work still running (`idle`) and the quiet grace. Resolves when done.
   */
  run(conversation: Conversation & { idle?: () => Promise<void> }): Promise<void>;
  /** Prints one localized line outside the conversation (start banner, notices). */
  say(id: string, args?: Record<string, string | number>): void;
  /** Stops reading; `run` resolves after the current line. */
  close(): void;
}

export function createTerminalChannel(opts: TerminalChannelOptions): TerminalChannel {
  const { i18n, output } = opts;
  const session: TerminalSession = {
    user: { channel: 'terminal', id: opts.userId ?? 'local' },
    input: opts.input,
    locale: opts.locale,
    eofGraceMs: opts.eofGraceMs ?? 0,
    maxGraceMs: opts.maxGraceMs,
    openOrders: opts.openOrders,
    book: createMenuBook(),
    lastOutputAt: Date.now(),
    closed: false,
  };
  let chatLocale: Locale | undefined;
  const files = fileSaver(opts.media);
  const write = (text: string) => {
    session.lastOutputAt = Date.now();
    output.write(`${text}\n`);
  };

  return {
    name: 'terminal',
    capabilities: { editMessages: false, buttons: false },
    user: session.user,

    async send(userId, message, locale) {
      chatLocale = locale;
      const doc = message.media?.kind === 'document' ? message.media : undefined;
      const path = doc ? await files.save(doc) : undefined;
      const saved = path ? i18n.t(locale, { id: 'terminal-file-saved', args: { path } }) : '';
      // A document without a caption is just its line (no blank lines around it).
      const shown = render(session.book, i18n, message, locale, userId);
      write(`${[shown, saved].filter(Boolean).join('\n')}\n`);
    },

    // In the language the chat is in now (the user may have switched since the start).
    say(id, args) {
      write(i18n.t(chatLocale ?? opts.locale ?? 'en', { id, args }));
    },

    async run(conversation) {
      await readLines(session, conversation);
      await conversation.idle?.();
      if (session.eofGraceMs > 0 && !session.closed) {
        await waitQuiet(session);
        await conversation.idle?.();
      }
    },

    close() {
      session.closed = true;
      session.rl?.close();
    },
  };
}
