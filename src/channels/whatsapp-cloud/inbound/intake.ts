/**
 * A webhook batch taken in: a message older than `maxAgeMs` by its own timestamp (24 h by default:
 * Meta stops redelivering well before) is dropped unanswered, and does not touch its user's 24-hour
 * window, so a signed body replayed later gets nothing. Each younger message is marked seen by its id
 * (Meta redelivers; a message seen before is dropped) for a week, and at least `maxAgeMs` and an hour:
 * a message is never old enough to pass the age check while its mark is gone. In the same Redis step
 * it is kept in the inbox (./inbox.ts) until handled, so a 200 never stands for a message only in
 * memory. Then the fresh messages are queued per sender and the status reports behind what is being
 * sent to their recipient. A stop hands back what was not begun; every replica takes up what was
 * handed back or left by a replica that died.
 */
import { isStoreUnavailable } from '../../../store/errors.js';
import { type CloudChannelContext, sendQueues } from '../channel-context.js';
import { handleMessage } from './handle-message.js';
import { createInbox } from './inbox.js';
import type { InboundMessage, WebhookBatch } from './schemas.js';

const SEEN_TTL_SECONDS = 7 * 24 * 3600;
/** Default: messages older than a day are not answered. */
export const DEFAULT_MAX_MESSAGE_AGE_MS = 24 * 3600_000;
/** A message met by a Redis outage is taken up again after this. */
const OUTAGE_RETRY_MS = 2_000;

/** How long a message id's mark is kept: a week, and always longer than a message may be old. */
export const seenTtlSeconds = (maxAgeMs: number): number =>
  Math.max(SEEN_TTL_SECONDS, Math.ceil(maxAgeMs / 1000) + 3600);

export interface Intake {
  /** The batch with only the messages never seen before and young enough, kept (rejects while Redis is down). */
  claim(batch: WebhookBatch): Promise<WebhookBatch>;
  /** Queues an accepted batch's work; a failure is logged, never thrown. */
  dispatch(batch: WebhookBatch): void;
  /** Takes up handed-back messages every `pollMs`, and renews the leases of those held. */
  start(): void;
  /**
   * Begins no more messages: those queued and not begun are handed back as their turn comes (at
   * once); one cut short by the exit is taken up by another replica when its lease runs out.
   */
  stop(): Promise<void>;
}

/** The intake of the channel `ctx`; a replica holds a message `leaseMs` unrenewed. */
export function createIntake(
  ctx: CloudChannelContext,
  opts: { maxAgeMs: number; now: () => number; pollMs: number; leaseMs?: number },
): Intake {
  const leaseMs = opts.leaseMs ?? 30_000;
  const inbox = createInbox(ctx.redis, ctx.keys, leaseMs);
  const held = new Set<string>();
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  const fail = (err: unknown) =>
    ctx.log.error(
      { err: err instanceof Error ? err.message : String(err) },
      'failed to handle a WhatsApp webhook item',
    );
  const warn = (what: string) => (err: unknown) =>
    ctx.log.warn({ err: err instanceof Error ? err.message : String(err) }, what);

  /** One message at its turn in its sender's queue; off the inbox once handled. */
  const run = (msg: InboundMessage) => {
    held.add(msg.id);
    ctx.inbound
      .run(msg.from, async () => {
        if (stopping) {
          // Not begun before the stop: handed back for the next replica (or this one restarted).
          held.delete(msg.id);
          await inbox.handBack([msg.id]).catch(warn('stopping: could not hand a WhatsApp message back'));
          return;
        }
        try {
          await handleMessage(ctx, msg);
        } catch (err) {
          // Redis went away: left in the inbox, taken up again shortly (here or by another replica).
          if (isStoreUnavailable(err)) {
            held.delete(msg.id);
            await inbox.handBack([msg.id], OUTAGE_RETRY_MS).catch(() => undefined);
            return;
          }
          fail(err);
        }
        held.delete(msg.id);
        await inbox.done(msg.id).catch(warn('could not take a handled WhatsApp message off the inbox'));
      })
      .catch(fail);
  };

  let looking: Promise<void> | undefined;
  const look = () =>
    (looking ??= (async () => {
      await inbox.renew([...held]);
      for (const msg of await inbox.take(100)) if (!held.has(msg.id)) run(msg);
    })()
      .catch(warn('could not look at the WhatsApp inbox'))
      .finally(() => {
        looking = undefined;
      }));

  return {
    async claim(batch) {
      const now = opts.now();
      const young = batch.messages.filter((msg) => {
        const ageMs = now - Number(msg.timestamp) * 1000;
        if (ageMs <= opts.maxAgeMs) return true;
        ctx.log.warn(
          { messageId: msg.id, ageMinutes: Math.round(ageMs / 60_000) },
          'a WhatsApp message older than the answer window was dropped (a replay, or a very late delivery)',
        );
        return false;
      });
      const fresh = await inbox.keep(young, seenTtlSeconds(opts.maxAgeMs));
      if (fresh.length < young.length) ctx.log.debug('a redelivered WhatsApp message was dropped');
      return { messages: fresh, statuses: batch.statuses };
    },
    dispatch(batch) {
      for (const msg of batch.messages) run(msg);
      for (const status of batch.statuses) {
        const waId = status.recipient_id;
        // Behind what is being sent to the recipient (the message it reports on is remembered by then).
        const settled = ctx.sends.settled(sendQueues(waId));
        ctx.sends.run(`${waId}:status`, () => settled.then(() => ctx.outbound.onStatus(status))).catch(fail);
      }
    },
    start() {
      stopping = false;
      void look();
      timer = setInterval(() => void look(), Math.min(opts.pollMs, leaseMs / 3));
      timer.unref();
    },
    async stop() {
      stopping = true;
      clearInterval(timer);
      await looking;
    },
  };
}
