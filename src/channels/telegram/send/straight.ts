/**
 * Straight replies: the reply of an update whose step only sends messages goes to Telegram at its
 * slot without passing through the outbox. Its slot is asked for just before the update is handed
 * over, so it rides in the round trip of the update's `begin` (one Redis connection), and is booked
 * only while none of the chat's replies waits in the outbox, and only when due within `NEAR_MS` (in
 * a burst nothing is booked ahead, to be lost when given back). Safe without the outbox because such a
 * step is saved by the update's `finish`: a kill before that leaves the update unfinished, and its
 * redelivery does the step, and so the reply, again. Everything else (no slot due, a second message,
 * a picture, another class) goes through the outbox as before, and an unused slot is given back.
 */
import type {
  Lane,
  OutboundClass,
  OutboundLine,
  Outbox,
  Prebooked,
  SendScope,
  StraightSlot,
} from '../../../outbound/index.js';

/** What of the bot's pacing (./pacing.ts) a straight reply uses. */
interface Pacing {
  line: OutboundLine;
  lanesOf(chatId: string): Lane[];
  outbox?: Outbox;
}

/** A slot is taken only when due within this much of the reply, before or after. */
const NEAR_MS = 50;

/**
 * Updates in hand beyond which none goes straight: a process that busy answers Redis late, so a
 * reply it thinks on time at its slot would reach Telegram bunched with the next ones (a burst's
 * replies wait their turn in the outbox, as before straight replies).
 */
const QUIET_UPDATES = 4;

/** Asks for a reply slot for the update about to be handled (private chats, Redis pacing only). */
export function bookStraightSlot(pacing: Pacing, chatId: string, inHand: number): StraightSlot | undefined {
  if (chatId.startsWith('-') || inHand > QUIET_UPDATES) return undefined;
  const guard = pacing.outbox?.quietGuard?.(chatId, 'reply');
  if (!guard) return undefined;
  const m = { key: chatId, cls: 'reply' as const, own: pacing.lanesOf(chatId) };
  const pre = pacing.line.prebook(m, guard, { horizonMs: NEAR_MS });
  if (!pre) return undefined;
  const slot: StraightSlot = { chatId, pre, done: false };
  pre.booked.then(
    (r) => {
      slot.answered = { r, at: Date.now() };
    },
    () => undefined,
  );
  return slot;
}

/**
 * The slot for this call, when it is the first reply of a step a redelivery redoes and the slot is
 * due now; otherwise the slot (if any) is given back and the call goes the outbox's way.
 */
export async function takeStraightSlot(
  pacing: Pacing,
  method: string,
  chatId: string | number,
  cls: OutboundClass,
  scope: SendScope | undefined,
): Promise<Prebooked | undefined> {
  const slot = scope?.straight;
  if (!slot || slot.done || slot.chatId !== String(chatId)) return undefined;
  slot.done = true;
  if (method === 'sendMessage' && cls === 'reply' && scope?.redo) {
    await slot.pre.booked.catch(() => undefined);
    const a = slot.answered;
    if (a?.r.kind === 'go' && Math.abs(a.at + a.r.waitMs - Date.now()) <= NEAR_MS) return slot.pre;
  }
  pacing.line.abandon(slot.pre);
  return undefined;
}

/** The update ended: a slot no reply took is given back. */
export function endStraightSlot(pacing: Pacing, slot: StraightSlot | undefined): void {
  if (!slot || slot.done) return;
  slot.done = true;
  pacing.line.abandon(slot.pre);
}
