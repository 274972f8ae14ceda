/** Which class the messages sent within a piece of work belong to (see OUTBOUND_CLASSES). */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { OutboundClass } from './line-types.js';

const scope = new AsyncLocalStorage<OutboundClass>();

/** Runs `work` with its messages counted as `cls`. */
export function withClass<T>(cls: OutboundClass, work: () => T): T {
  return scope.run(cls, work);
}

/** The class of the work in progress, if one was given. */
export function currentClass(): OutboundClass | undefined {
  return scope.getStore();
}
