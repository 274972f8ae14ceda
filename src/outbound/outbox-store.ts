/**
 * The outbox's record: every message the line carries, in Redis before its sender is told it was
 * taken, in one queue per chat. A replica works a chat while it holds the chat (a hold is good while
 * its owner's heartbeat lives), so one chat's messages go one at a time and in order whichever
 * replica sends them; a chat whose holder died or let go is taken up by another. Once the platform
 * took a message, its answer (a message id) is recorded and the message leaves its queue in one
 * step, so no replica sends it again.
 */
import type { Logger } from '../log/logger.js';
import type { OutboxAlso } from '../store/marks.js';
import { OUTBOUND_CLASSES, type OutboundClass } from './line-types.js';
import type { ReserveGuard } from './reserve.js';

export type { OutboxAlso };

/**
 * A chat's messages wait in one queue per class (`<chat>#<class>`): a reply never waits behind the
 * chat's queued notices, and the line orders the classes as it did before the outbox (one send at
 * a time per chat, in order within a class).
 */
export const queueOf = (chat: string, cls: OutboundClass): string => `${chat}#${cls}`;

/** The chat a queue belongs to (a key without a class suffix is a chat already). */
export function chatOf(queue: string): string {
  const at = queue.lastIndexOf('#');
  return at >= 0 && (OUTBOUND_CLASSES as readonly string[]).includes(queue.slice(at + 1))
    ? queue.slice(0, at)
    : queue;
}

/** A message as any replica can send it: its chat, class and rendered, serializable body. */
export interface OutboxEntry {
  id: string;
  /** Its queue (`queueOf`): the chat and the class it was put in. */
  key: string;
  cls: OutboundClass;
  body: unknown;
  /**
   * A slot (an order's status message): a newer message for the same slot of the chat replaces
   * one still waiting (its body, and its class when more urgent), so only the newest state goes.
   */
  slot?: string;
  /** A name the message has once (a day): put again under it, the first one stands. */
  once?: string;
}

/** Where a message was put. */
export interface Placed {
  id: string;
  held: boolean;
  replaced: boolean;
  first: boolean;
  again: boolean;
}

/** What became of a message: the platform's answer, or why it was refused. */
export type OutboxResult = { ok: true; value: unknown } | { ok: false; error: string };

export interface OutboxStore {
  /**
   * Puts a message at the end of its chat's queue (with `also`, the store's extra writes go in the
   * same step); `held` when `owner` holds the chat now (it was free, or already its own), `first`
   * when it is the chat's next message, `again` when a message of that `once` name was put before.
   */
  put(m: Omit<OutboxEntry, 'id'> & { id?: string }, owner: string, also?: OutboxAlso): Promise<Placed>;
  /**
   * Redis only: what holds once `put` made message `id` the next of `queue` for `owner`, for a slot
   * booked in the same round trip (`ReserveGuard`).
   */
  guard?(queue: string, owner: string, id: string): ReserveGuard;
  /** A slot's message at its turn: its newest body; later ones for the slot queue anew. */
  begin(key: string, id: string): Promise<OutboxEntry | undefined>;
  /** Chats with messages that nobody else live holds, now held by `owner` (at most `max`). */
  claim(owner: string, max: number): Promise<string[]>;
  /** The chat's first message while `owner` holds it; none: the chat is let go. */
  head(key: string, owner: string): Promise<OutboxEntry | undefined>;
  /** Records `result` for `id`, takes it off its chat's queue, and returns the chat's next message. */
  finish(key: string, owner: string, id: string, result: OutboxResult): Promise<OutboxEntry | undefined>;
  /** What became of `id`, once some replica sent it (kept for a day). */
  result(id: string): Promise<OutboxResult | undefined>;
  /** Keeps `owner`'s holds alive for `ttlMs`. */
  beat(owner: string, ttlMs: number): Promise<void>;
  /** Lets go of every chat `owner` holds: their messages are for other replicas now. */
  release(owner: string): Promise<void>;
  /**
   * Redis: calls `onWake` when another replica let go of chats or put a message it will not send
   * (see ./outbox-wake.ts); the result stops it.
   */
  wakes?(onWake: () => void, log?: Logger): () => Promise<void>;
  /** Whether `also` is written with the message (Redis); in memory it is the caller's to write. */
  readonly writesAlso: boolean;
  /** Messages waiting, all chats (for metrics and tests). */
  depth(): Promise<number>;
}

/** How long a message's answer is kept for a waiter on another replica. */
export const RESULT_TTL_MS = 24 * 3600_000;
