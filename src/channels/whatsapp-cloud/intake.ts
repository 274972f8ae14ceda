/**
 * A webhook batch taken in: each message claimed in Redis by its id for a week (Meta redelivers;
 * a message seen before is dropped), then the fresh messages queued per sender and the status
 * reports queued behind what is being sent to their recipient.
 */
import { type CloudChannelContext, sendQueues } from './channel-context.js';
import { handleMessage } from './handle-message.js';
import type { WebhookBatch } from './schemas.js';

const SEEN_TTL_SECONDS = 7 * 24 * 3600;

/** The batch with only the messages never seen before (rejects while Redis is down). */
export async function claimFresh(ctx: CloudChannelContext, batch: WebhookBatch): Promise<WebhookBatch> {
  const fresh = [];
  for (const msg of batch.messages) {
    const claimed = await ctx.redis.set(ctx.keys.seen(msg.id), '1', {
      condition: 'NX',
      expiration: { type: 'EX', value: SEEN_TTL_SECONDS },
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
