/**
 * A notice and the mark that records it sent, written together: the mark (plain Redis writes) rides
 * in the send's scope (src/outbound/scope.ts) and goes in the same Redis step as the first message
 * the work puts in the outbox (src/outbound/outbox.ts), so no outage or kill between the two sends
 * it twice or never.
 */

/**
 * Writes that belong with putting a message (a notice's "sent" mark), keys absolute: done only when
 * `guard`'s member was still in its sorted set (it is removed), or without a guard.
 */
export interface OutboxAlso {
  guard?: { key: string; member: string };
  set?: Array<{ key: string; value: string; ttlMs?: number }>;
  hset?: Array<{ key: string; field: string; value: string }>;
  zadd?: Array<{ key: string; score: number; member: string }>;
  zrem?: Array<{ key: string; member: string }>;
  sadd?: Array<{ key: string; member: string }>;
}

/** A mark waiting to be written with the next message put in the outbox, and whether it was. */
export interface MarkSlot {
  readonly also: OutboxAlso;
  written: boolean;
}

/** A send scope carrying `also`, to be written with the first message its work puts in the outbox. */
export const markScope = (also: OutboxAlso): { mark: MarkSlot } => ({ mark: { also, written: false } });

/** The mark for the message being put, once (`undo` when the put failed). */
export function takeMark(
  slot: MarkSlot | undefined,
  writes: boolean,
): { also: OutboxAlso; undo(): void } | undefined {
  if (!slot || slot.written || !writes) return undefined;
  slot.written = true;
  return {
    also: slot.also,
    undo: () => {
      slot.written = false;
    },
  };
}

/** Whether a mark is not written yet (its notice must not go without it). */
export const markPending = (slot: MarkSlot | undefined): boolean => slot !== undefined && !slot.written;
