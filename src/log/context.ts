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
    run: (value, work) => storage.run({ ...storage.getStore(), [id]: value }, work),
    getStore: () => storage.getStore()?.[id] as T | undefined,
  };
}
