/** Which class the messages sent within a piece of work belong to (see OUTBOUND_CLASSES). */
import { contextSlot } from '../log/context.js';
import type { OutboundClass } from './line-types.js';

const scope = contextSlot<OutboundClass>('scope');

/** Runs `work` with its messages counted as `cls`. */
export function withClass<T>(cls: OutboundClass, work: () => T): T {
  return scope.run(cls, work);
}

/** The class of the work in progress, if one was given. */
export function currentClass(): OutboundClass | undefined {
  return scope.getStore();
}

/** The sends of one piece of work that may run again (an update handled again after a kill). */
const sends = contextSlot<{ key: string; n: number; strict: boolean }>('sends');

/**
 * Runs `work` with its sends named `<key>:<n>` in order: run again, its sends are the same outbox
 * messages, so those the first run put in the outbox are not sent twice. `strict` (a notice its
 * sender retries: an outcome, a reminder, an alert) never goes around the outbox when Redis does not
 * answer: it fails, and its sender tries again once its name can be kept.
 */
export function withSendScope<T>(key: string, work: () => T, opts: { strict?: boolean } = {}): T {
  return sends.run({ key, n: 0, strict: opts.strict === true }, work);
}

/** The name of the next send of the work in progress, if it has a scope. */
export function nextSendName(): string | undefined {
  const s = sends.getStore();
  return s ? `${s.key}:${s.n++}` : undefined;
}

/** Whether the work in progress must not send around the outbox. */
export function sendIsStrict(): boolean {
  return sends.getStore()?.strict === true;
}

/** Work a redelivery redoes whole if this process dies first (see `withRedo`). */
const redo = contextSlot<true>('redo');

/**
 * Runs `work` as the first step of an update still unfinished, with only messages to send and its
 * save left to the update's `finish`: if the process dies before that, the redelivered update does
 * the step again, so its reply may go straight to the platform at its slot, outside the outbox.
 */
export function withRedo<T>(work: () => T): T {
  return redo.run(true, work);
}

/** Whether the work in progress is redone whole after a kill (`withRedo`). */
export function isRedone(): boolean {
  return redo.getStore() === true;
}
