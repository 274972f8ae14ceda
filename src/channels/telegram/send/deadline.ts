/**
 * The deadline of one of the channel's own calls, which a paced call pauses while it waits for its
 * turn: the deadline is about Telegram not answering, not about the queue being long.
 */
import { contextSlot } from '../../../log/context.js';

export interface Deadline {
  pause(): void;
  /** Starts the full deadline again. */
  resume(): void;
}

/** The deadline of the call in progress, if it has one. */
export const deadlines = contextSlot<Deadline>('deadlines');
