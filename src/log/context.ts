/**
 * Values the app carries across awaits (a send's class, a turn in the line, a deadline, …), all in
 * one AsyncLocalStorage. Node 20 runs every enabled storage's hook on every promise the process
 * makes, so each storage of its own cost every update a little; slots of one storage cost it once.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

type Values = Readonly<Record<symbol, unknown>>;

const storage = new AsyncLocalStorage<Values>();

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
    // Not `{ ...store, [id]: value }`: Node 20's V8 adds to a spread copy on a slow path (0.8 µs
    // against 0.05), and every send runs a few of these.
    run: (value, work) => storage.run(Object.assign({}, storage.getStore(), { [id]: value }), work),
    getStore: () => storage.getStore()?.[id] as T | undefined,
  };
}
