/**
 * Meta's throughput, kept by one outbound line (src/outbound) shared by every replica through Redis:
 * the line's lane is the number's messages per second (Meta allows 80, inbound included), a message's
 * own lane its user's pair rate (about one message per 6 s after a burst). Messages take their turn
 * by class (a reply first, then outcomes, then progress), each user's one at a time. A refusal for
 * throughput (#130429, #80007, #4, a bare 429) holds the whole number on every replica, and a second
 * within a minute slows it for a minute; a pair-rate refusal (#131056) holds only that user. Meta
 * gives no retry_after: the holds last `RetryOptions.baseMs` and `pairMs`.
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
import { GraphError } from '../graph.js';
import type { CloudKeys } from '../keys.js';

export interface PacingOptions {
  /** Messages per second for the number (default 60). */
  mps?: number;
  /** One user: the steady gap between messages (default 6000 ms; 0: only Meta's refusals hold a user) and the burst allowed (default 20). */
  pairIntervalMs?: number;
  pairBurst?: number;
}

/** The number's line and the lanes of one user. */
export interface CloudPacing {
  line: OutboundLine;
  lanesOf(waId: string): Lane[];
}

/** Creates the number's outbound line on Redis. */
export function createCloudPacing(
  redis: Pick<RedisClientType, 'eval' | 'evalSha'>,
  keys: CloudKeys,
  opts: PacingOptions = {},
  logger?: Logger,
): CloudPacing {
  const mps = opts.mps ?? 60;
  const pairIntervalMs = opts.pairIntervalMs ?? 6000;
  const pairBurst = opts.pairBurst ?? 20;
  const line = createOutboundLine({
    // The number's burst is a tenth of a second's worth: any one second stays within 1.1x the rate.
    line: [{ key: keys.paceNumber, intervalMs: 1000 / mps, burst: Math.max(1, Math.floor(mps / 10)) }],
    book: redisSlotBook(redis, { hold: keys.paceHold, slow: keys.paceSlow }),
    logger,
  });
  return {
    line,
    // Kept at 0 ms too (then it never waits): a pair-rate refusal still holds that user alone.
    lanesOf: (waId) => [{ key: keys.pacePair(waId), intervalMs: pairIntervalMs, burst: pairBurst }],
  };
}

/** Codes Meta answers when the number (or the account, or the app) sends faster than allowed. */
const THROUGHPUT_CODES = new Set([
  4, // app-level call rate
  80007, // WhatsApp Business Account rate limit
  130429, // the number's throughput reached
]);
/** Meta's code for too many messages to one user. */
export const PAIR_RATE_CODE = 131056;

/**
 * A rate-limit refusal as a `Throttled`: the number's throughput holds the whole line for `lineMs`,
 * one user's pair rate holds only that user for `pairMs`. Anything else: undefined.
 */
export function throttleOf(err: unknown, holds: { lineMs: number; pairMs: number }): Throttled | undefined {
  if (!(err instanceof GraphError)) return undefined;
  if (err.code === PAIR_RATE_CODE) return new Throttled(holds.pairMs, 'own');
  if (
    (err.code !== undefined && THROUGHPUT_CODES.has(err.code)) ||
    (err.code === undefined && err.status === 429)
  )
    return new Throttled(holds.lineMs, 'line');
  return undefined;
}
