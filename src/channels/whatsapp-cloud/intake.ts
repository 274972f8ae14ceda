/**
 * A webhook batch taken in: a message older than `maxAgeMs` by its own timestamp (24 h by default:
 * Meta stops redelivering well before) is dropped unanswered, and does not touch its user's 24-hour
 * window, so a signed body replayed later gets nothing. Each younger message is claimed in Redis by
 * its id (Meta redelivers; a message seen before is dropped) for a week, and at least `maxAgeMs` and
 * an hour: a message is never old enough to pass the age check while its mark is gone. Then the fresh
 * messages are queued per sender and the status reports behind what is being sent to their recipient.
 */
import { type CloudChannelContext, sendQueues } from './channel-context.js';
import { handleMessage } from './handle-message.js';
import type { WebhookBatch } from './schemas.js';

const SEEN_TTL_SECONDS = 7 * 24 * 3600;
/** Default: messages older than a day are not answered. */
export const DEFAULT_MAX_MESSAGE_AGE_MS = 24 * 3600_000;

/** How long a message id's mark is kept: a week, and always longer than a message may be old. */
export const seenTtlSeconds = (maxAgeMs: number): number =>
  Math.max(SEEN_TTL_SECONDS, Math.ceil(maxAgeMs / 1000) + 3600);

/**
 * The batch with only the messages never seen before and not older than `maxAgeMs` by their own
 * timestamp (rejects while Redis is down).
 */
export async function claimFresh(
  ctx: CloudChannelContext,
  batch: WebhookBatch,
  age: { maxAgeMs: number; now: () => number } = { maxAgeMs: DEFAULT_MAX_MESSAGE_AGE_MS, now: Date.now },
): Promise<WebhookBatch> {
  const fresh = [];
  const now = age.now();
  for (const msg of batch.messages) {
    const ageMs = now - Number(msg.timestamp) * 1000;
    if (ageMs > age.maxAgeMs) {
      ctx.log.warn(
        { messageId: msg.id, ageMinutes: Math.round(ageMs / 60_000) },
        'a WhatsApp message older than the answer window was dropped (a replay, or a very late delivery)',
      );
      continue;
    }
    const claimed = await ctx.redis.set(ctx.keys.seen(msg.id), '1', {
      condition: 'NX',
      expiration: { type: 'EX', value: seenTtlSeconds(age.maxAgeMs) },
    });
    if (claimed === 'OK') fresh.push(msg);
    else ctx.log.debug({ messageId: msg.id }, 'a redelivered WhatsApp message was dropped');
  }
  return { messages: fresh, statuses: batch.statuses };
}

/** Queues an accepted batch's work; a failure is logged, never thrown. */
export function dispatch(ctx: CloudChannelContext, batch: WebhookBatch): void {
  const fail = (err: unknown) =>
    ctx.log.error(
      { err: err instanceof Error ? err.message : String(err) },
      'failed to handle a WhatsApp webhook item',
    );
  for (const msg of batch.messages) ctx.inbound.run(msg.from, () => handleMessage(ctx, msg)).catch(fail);
  for (const status of batch.statuses) {
    const waId = status.recipient_id;
    // Behind what is being sent to the recipient (the message it reports on is remembered by then).
    const settled = ctx.sends.settled(sendQueues(waId));
    ctx.sends.run(`${waId}:status`, () => settled.then(() => ctx.outbound.onStatus(status))).catch(fail);
  }
}
