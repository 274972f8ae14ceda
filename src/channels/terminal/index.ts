/**
 * The terminal chat: one user on stdin/stdout. Each line is one message; buttons print as a
 * numbered menu and typing the number or the label presses them. Lines are handled strictly one
 * after another (effects and their feedback included), so a journey can be piped in as a script.
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { z } from 'zod';
import type { Button, Locale, OutMessage, UserRef } from '../../chat/types.js';
import type { Input } from '../../flows/types.js';
import type { I18n } from '../../i18n/index.js';
import { choiceKey } from '../choices.js';
import type { ChannelAdapter, Conversation } from '../types.js';

/** Settings of the terminal chat (merged into the environment parse by main). */
export const terminalEnvSchema = z.object({
  /** Language of the terminal user before they choose one (also read from LANG, e.g. sw_KE.UTF-8). */
  TERMINAL_LOCALE: z.enum(['en', 'sw']).optional(),
  /** After the input ends, keep printing late messages (order updates) until this long passes quietly. */
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

interface Menu {
  buttons: Button[];
  labels: string[];
  turn: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A label as a person would type it: no emoji, single spaces, lower case. */
export function normalizeLabel(label: string): string {
  return label
    .normalize('NFKC')
    .replace(/\p{Extended_Pictographic}|\uFE0F|\u200D/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLocaleLowerCase();
}

/** Parses `/buy 500 usdt` (and `/buy@bot …`) into a command input. */
export function parseCommand(line: string): Input | undefined {
  const m = /^\/([A-Za-z0-9_]+)(?:@\S+)?(?:\s+([\s\S]*))?$/.exec(line);
  if (!m) return undefined;
  return { kind: 'command', command: (m[1] ?? '').toLowerCase(), args: (m[2] ?? '').trim() };
}

/** Creates the terminal channel. */
export function createTerminalChannel(opts: TerminalChannelOptions): TerminalChannel {
  const { i18n, output } = opts;
  const user: UserRef = { channel: 'terminal', id: opts.userId ?? 'local' };
  const menus = new Map<string, Menu>();
  const notices = new Map<string, Menu>();
  const turns = new Map<string, number>();
  let lastOutputAt = Date.now();
  let rl: ReturnType<typeof createInterface> | undefined;

  const write = (text: string) => {
    lastOutputAt = Date.now();
    output.write(`${text}\n`);
  };

  function render(message: OutMessage, locale: Locale, userId: string): string {
    const lines = message.texts.map((t) => i18n.t(locale, t));
    const pressable: Button[] = [];
    const labels: string[] = [];
    for (const row of message.buttons ?? []) {
      for (const b of row) {
        const label = i18n.t(locale, b.label);
        if (b.url) {
          lines.push(`${label}: ${b.url}`);
          continue;
        }
        if (message.notice && pressable.length >= 26) continue;
        pressable.push(b);
        labels.push(label);
        lines.push(`[${choiceKey(pressable.length - 1, message.notice === true)}] ${label}`);
      }
    }
    const turn = turns.get(userId) ?? 0;
    if (message.notice) {
      if (pressable.length) notices.set(userId, { buttons: pressable, labels, turn });
    } else if (pressable.length) menus.set(userId, { buttons: pressable, labels, turn });
    else if (menus.get(userId)?.turn !== turn) menus.delete(userId);
    if (message.requestPhone) lines.push(i18n.t(locale, { id: 'terminal-phone-hint' }));
    return lines.join('\n');
  }

  /** A number answers the question's menu, a letter the last notice's; a label either (question first). */
  function toInput(userId: string, line: string): Input {
    const menu = menus.get(userId);
    const notice = notices.get(userId);
    if (/^\d+$/.test(line)) {
      const b = menu?.buttons[Number(line) - 1];
      if (b) return { kind: 'button', id: b.id };
    }
    if (/^[a-zA-Z]$/.test(line) && notice) {
      const b = notice.buttons[line.toUpperCase().charCodeAt(0) - 65];
      if (b) return { kind: 'button', id: b.id };
    }
    const wanted = normalizeLabel(line);
    for (const m of [menu, notice]) {
      const i = wanted && m ? m.labels.findIndex((l) => normalizeLabel(l) === wanted) : -1;
      if (i >= 0) return { kind: 'button', id: m!.buttons[i]!.id };
    }
    return parseCommand(line) ?? { kind: 'text', text: line };
  }

  let closed = false;

  return {
    name: 'terminal',
    capabilities: { editMessages: false, buttons: false },
    user,

    async send(userId, message, locale) {
      write(`${render(message, locale, userId)}\n`);
    },

    say(id, args) {
      write(i18n.t(opts.locale ?? 'en', { id, args }));
    },

    async run(conversation) {
      // Created here: readline drops lines emitted before its async iterator exists.
      rl = createInterface({ input: opts.input, terminal: false, crlfDelay: Number.POSITIVE_INFINITY });
      for await (const raw of rl) {
        if (closed) break;
        const line = raw.trim();
        if (!line) continue;
        turns.set(user.id, (turns.get(user.id) ?? 0) + 1);
        const input = toInput(user.id, line);
        await conversation.handle(user, input, { hints: opts.locale ? { locale: opts.locale } : undefined });
      }
      await conversation.idle?.();
      const grace = opts.eofGraceMs ?? 0;
      if (grace > 0 && !closed) {
        const deadline = Date.now() + (opts.maxGraceMs ?? grace * 10);
        while (!closed && Date.now() < deadline) {
          const quietFor = Date.now() - lastOutputAt;
          if (quietFor >= grace) break;
          await sleep(Math.min(grace - quietFor, deadline - Date.now()));
        }
        await conversation.idle?.();
      }
    },

    close() {
      closed = true;
      rl?.close();
    },
  };
}
