/** The outbound line's vocabulary: message classes, what a send may answer, and the line's options. */
import type { Logger } from '../log/logger.js';
import type { Lane, Reservation, ReserveGuard, SlotBook } from './reserve.js';

/** What a message is to its user, most urgent first. */
export const OUTBOUND_CLASSES = ['reply', 'outcome', 'progress', 'desk'] as const;
export type OutboundClass = (typeof OUTBOUND_CLASSES)[number];

/**
 * How far ahead each class may book the line. A reply always books; the others book a short way
 * ahead only, so a reply that comes later still goes out within about this long.
 */
export const DEFAULT_HORIZONS: Record<OutboundClass, number> = {
  reply: 120_000,
  outcome: 400,
  progress: 250,
  desk: 150,
};

/**
 * The platform refused a paid send (no balance, not allowed): paid sending stops for a while and the
 * message goes back to its place on the free lanes.
 */
export class PaidRefused {
  constructor(readonly reason: string) {}
}

/** The platform said to wait (429 with retry_after): `own` holds only the message's own lanes. */
export class Throttled {
  constructor(
    readonly retryAfterMs: number,
    readonly scope: 'line' | 'own',
  ) {}
}

export interface OutboundMessage {
  /** Messages with one key (a chat) go one at a time, in order within a class. */
  key: string;
  cls: OutboundClass;
  /** The message's own lanes (its chat's rate), besides the line's. */
  own: Lane[];
  /** The send can go as a paid one (the line's `paid` lanes) when it has waited long enough. */
  payable?: boolean;
}

/** How a send was let through: `paid` on the paid lanes (the sender marks the call as paid). */
export interface Turn {
  paid: boolean;
}

/**
 * Paid sending (Telegram's paid broadcast): a payable message of one of `classes` that has waited
 * `afterMs` while the line was booked beyond its class's horizon goes on the `line` lanes instead.
 */
export interface PaidOverflow {
  line: Lane[];
  afterMs: number;
  classes: readonly OutboundClass[];
  /** How long paid sending stays off after the platform refused one (default 10 min). */
  offAfterRefusalMs?: number;
  /** Called for every send that went paid (metrics). */
  onPaid?: () => void;
}

export interface OutboundLine {
  /**
   * Runs `send` at the message's turn. `send` returning `Throttled` puts the message back in its
   * place after the wait; anything else settles the call. `signal` gives up a message still waiting.
   * A payable message's `send` is told whether its turn is a paid one; returning `PaidRefused` puts
   * it back on the free lanes.
   */
  run<T>(
    m: OutboundMessage,
    send: (turn: Turn) => Promise<T | Throttled | PaidRefused>,
    signal?: AbortSignal,
    pre?: Prebooked,
  ): Promise<T>;
  /**
   * Asks the shared book for the message's slot now, when nothing waits in the line and nothing of
   * its chat is under way (so it passes nobody), in the round trip of a write just made (the
   * `guard` books only if that write made the message its chat's next). The answer goes to `run`
   * as `pre`, or back with `abandon`; until then the chat sends nothing. `loose`: booked only when
   * due within `horizonMs` (a burst books nothing ahead that could be lost when given back), and its
   * chat may send meanwhile (the slot is used only if it still sends nothing then).
   */
  prebook(m: OutboundMessage, guard?: ReserveGuard, loose?: { horizonMs: number }): Prebooked | undefined;
  abandon(pre: Prebooked): void;
  /**
   * Gives up the sends whose message was given up (its signal aborted) while they waited for the
   * slot they booked, and gives those slots back, so a successor is not held up by them.
   */
  release(): Promise<void>;
}

/** A slot asked for ahead of `run`. */
export interface Prebooked {
  readonly m: OutboundMessage;
  readonly booked: Promise<Reservation>;
  readonly loose?: boolean;
}

export interface OutboundLineOptions {
  /** The line's own lanes (the bot's or the number's rate). */
  line: Lane[];
  book?: SlotBook;
  horizons?: Partial<Record<OutboundClass, number>>;
  /** A message still waiting after this long is given up (default 15 min). */
  maxWaitMs?: number;
  logger?: Logger;
  /** Paid sending when the line is deep (off without). */
  paid?: PaidOverflow;
}
