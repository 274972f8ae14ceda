/**
 * Reading the terminal: each non-empty line handed to the conversation and waited for, one after
 * another; after the input ends, work still running is awaited, then (with a grace set) late
 * messages are printed while an order of this chat is still open and until the output has been
 * quiet for the grace, within an upper bound.
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
  /** How many orders of this user are still being followed (late messages are still to come). */
  readonly openOrders?: (user: UserRef) => Promise<number>;
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

/**
 * After the input ended: waits until no order of the user is open and nothing was printed for the
 * grace, at most `maxGraceMs`. An order's next update may come a whole poll interval later, longer
 * than the grace, so quiet alone does not mean done.
 */
export async function waitQuiet(session: TerminalSession): Promise<void> {
  const grace = session.eofGraceMs;
  const deadline = Date.now() + (session.maxGraceMs ?? grace * 10);
  while (!session.closed && Date.now() < deadline) {
    const quietFor = Date.now() - session.lastOutputAt;
    const open = quietFor >= grace ? await countOpen(session) : 0;
    if (quietFor >= grace && open === 0) break;
    const wait = quietFor >= grace ? Math.min(grace, 250) : grace - quietFor;
    await sleep(Math.max(1, Math.min(wait, deadline - Date.now())));
  }
}

async function countOpen(session: TerminalSession): Promise<number> {
  try {
    return (await session.openOrders?.(session.user)) ?? 0;
  } catch {
    return 0;
  }
}
