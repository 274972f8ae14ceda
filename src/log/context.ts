/**
 * Values the app carries across awaits (a send's class, a turn in the line, a deadline, …), all in
 * one AsyncLocalStorage. Node 20 runs every enabled storage's hook on every promise the process
 * makes, so each storage of its own cost every update a little; slots of one storage cost it once.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** One slot's value, over the values set around it: a run adds a frame, a read walks up to its slot's. */
interface Frame {
  readonly id: symbol;
  readonly value: unknown;
  readonly up: Frame | undefined;
}

const storage = new AsyncLocalStorage<Frame>();

/** One value of the context, used as an AsyncLocalStorage of its own would be. */
export interface ContextSlot<T> {
  /** Runs `work` (and all it awaits) with this slot set to `value`; the other slots are kept. */
  run<R>(value: T, work: () => R): R;
  /** The slot's value in the work in progress, if it was given one. */
  getStore(): T | undefined;
}

export function contextSlot<T>(name: string): ContextSlot<T> {
  const id = Symbol(name);
  return {
    // A frame of one shape, not a copy of every slot's value (an object with symbol keys added one
    // by one is built on V8's slow paths); an update nests a few, so a read walks a few.
    run: (value, work) => storage.run({ id, value, up: storage.getStore() }, work),
    getStore: () => {
      for (let f = storage.getStore(); f !== undefined; f = f.up) if (f.id === id) return f.value as T;
      return undefined;
    },
  };
}
