/**
 * A notice and the mark that records it sent, written together: the mark (plain Redis writes) waits
 * in the work's context and goes in the same Redis step as the first message the work puts in the
 * outbox (src/outbound/outbox.ts), so no outage or kill between the two sends it twice or never.
 */
import { contextSlot } from '../log/context.js';

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
const marks = contextSlot<{ also: OutboxAlso; written: boolean }>('marks');

/**
 * Runs `work` with `also` written in the same Redis step as the first message it puts in the
 * outbox; resolves with whether it was (false: the outbox could not, the caller writes the mark).
 */
export async function withMark(also: OutboxAlso, work: () => Promise<void>): Promise<boolean> {
  const scope = { also, written: false };
  await marks.run(scope, work);
  return scope.written;
}

/** The mark for the message being put, once (`undo` when the put failed). */
export function takeMark(writes: boolean): { also: OutboxAlso; undo(): void } | undefined {
  const scope = marks.getStore();
  if (!scope || scope.written || !writes) return undefined;
  scope.written = true;
  return {
    also: scope.also,
    undo: () => {
      scope.written = false;
    },
  };
}

/** Whether the work in progress has a mark not written yet (its notice must not go without it). */
export function markPending(): boolean {
  const scope = marks.getStore();
  return scope !== undefined && !scope.written;
}
