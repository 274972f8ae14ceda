/**
 * Reading the terminal: each non-empty line handed to the conversation and waited for, one after
 * another; after the input ends, work still running is awaited, then (with a grace set) late
 * messages are printed until the output has been quiet that long, within an upper bound.
 */
import { createInterface, type Interface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { Locale, UserRef } from '../../chat/types.js';
import type { Conversation } from '../types.js';
import { type MenuBook, toInput } from './menus.js';

/** The terminal channel's running state, shared by its reading and printing sides. */
export interface TerminalSession {
  readonly user: UserRef;
  readonly input: Readable;
  readonly locale?: Locale;
  readonly eofGraceMs: number;
  readonly maxGraceMs?: number;
  readonly book: MenuBook;
  /** When the last line was printed (epoch ms). */
  lastOutputAt: number;
  closed: boolean;
  rl?: Interface;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Hands each line to the conversation until the input ends or the channel is closed. */
export async function readLines(session: TerminalSession, conversation: Conversation): Promise<void> {
  const { user, book } = session;
  // Created here: readline drops lines emitted before its async iterator exists.
  session.rl = createInterface({
    input: session.input,
    terminal: false,
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const raw of session.rl) {
    if (session.closed) break;
    const line = raw.trim();
    if (!line) continue;
    book.turns.set(user.id, (book.turns.get(user.id) ?? 0) + 1);
    const input = toInput(book, user.id, line);
    await conversation.handle(user, input, {
      hints: session.locale ? { locale: session.locale } : undefined,
    });
  }
}

/** After the input ended: waits until nothing was printed for the grace, at most `maxGraceMs`. */
export async function waitQuiet(session: TerminalSession): Promise<void> {
  const grace = session.eofGraceMs;
  const deadline = Date.now() + (session.maxGraceMs ?? grace * 10);
  while (!session.closed && Date.now() < deadline) {
    const quietFor = Date.now() - session.lastOutputAt;
    if (quietFor >= grace) break;
    await sleep(Math.min(grace - quietFor, deadline - Date.now()));
  }
}
