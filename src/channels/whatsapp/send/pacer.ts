/**
 * The number's outbound line (src/outbound): messages to one chat leave one at a time, about
 * `intervalMs` apart, so a burst never floods a chat, and they take their turn by class, so a reply
 * to what the user just did overtakes the notices and progress queued for them. Different chats do
 * not wait on each other. The slots live in Redis, so an instance taking over the number's lease
 * keeps the pace of the one before.
 *
 * The jitter is kept, as the spacing itself: each message books its chat's lane with its own
 * interval drawn in `intervalMs ± jitterMs`, so the gap after it is that long, as before the line.
 * A random extra wait inside the turn would instead bunch the next message closer to it.
 *
 * WhatsApp answering `rate-overlimit` holds every chat's sends for `overlimitHoldMs`, and the message
 * keeps its place and is sent after it.
 */
import type { RedisClientType } from 'redis';
import type { Logger } from '../../../log/logger.js';
import {
  createOutboundLine,
  type Lane,
  type OutboundLine,
  redisSlotBook,
  Throttled,
} from '../../../outbound/index.js';
import type { WhatsAppKeys } from '../redis.js';

export interface PacingOptions {
  /** Mean gap between two messages to the same chat (default 1000). */
  intervalMs?: number;
  /** Random spread around the gap, ± (default 300). */
  jitterMs?: number;
  /** How long WhatsApp's `rate-overlimit` holds every chat's sends (default 30 s). */
  overlimitHoldMs?: number;
}

/** The number's line and the lane of one chat. */
export interface WhatsAppPacing {
  line: OutboundLine;
  /** The chat's lane, with this message's gap drawn anew. */
  lanesOf(jid: string): Lane[];
  /** WhatsApp's `rate-overlimit` as a hold of the whole number; undefined for anything else. */
  throttleOf(err: unknown): Throttled | undefined;
}

/** Creates the line; on Redis when given, in this process otherwise. */
export function createWhatsAppPacing(
  opts: PacingOptions,
  keys: WhatsAppKeys,
  redis?: Pick<RedisClientType, 'eval' | 'evalSha'>,
  logger?: Logger,
): WhatsAppPacing {
  const intervalMs = opts.intervalMs ?? 1000;
  const jitterMs = Math.min(opts.jitterMs ?? 300, intervalMs);
  const line = createOutboundLine({
    // No number-wide lane: the pace that matters to WhatsApp is each chat's.
    line: [],
    book: redis ? redisSlotBook(redis, { hold: keys.paceHold, slow: keys.paceSlow }) : undefined,
    logger,
  });
  const overlimitHoldMs = opts.overlimitHoldMs ?? 30_000;
  return {
    line,
    // Baileys throws WhatsApp's error node as a Boom: text `rate-overlimit`, code 429 in `data`.
    throttleOf: (err) => {
      const e = err as { message?: unknown; data?: unknown } | undefined;
      return e?.message === 'rate-overlimit' || e?.data === 429
        ? new Throttled(overlimitHoldMs, 'line')
        : undefined;
    },
    lanesOf: (jid) => [
      { key: keys.paceChat(jid), intervalMs: intervalMs + (Math.random() * 2 - 1) * jitterMs, burst: 1 },
    ],
  };
}
