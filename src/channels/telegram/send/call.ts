/**
 * One of the channel's own API calls, found again by its signal (grammY hands a call's signal to
 * every transformer): its deadline, which a paced call pauses while it waits for its turn (the
 * deadline is about Telegram not answering, not about the queue being long), and the scope of the
 * work making it (its class, its send's name, its reply slot: src/outbound/scope.ts).
 */
import type { SendScope } from '../../../outbound/index.js';

export interface Deadline {
  pause(): void;
  /** Starts the full deadline again. */
  resume(): void;
}

export interface OwnCall {
  readonly deadline: Deadline;
  readonly scope: SendScope;
}

/** The scope of a call the outbox makes at its message's turn in the line: paced already. */
export const IN_TURN: SendScope = Object.freeze({ inTurn: true });

const calls = new WeakMap<object, OwnCall>();

/** The call `signal` belongs to, while it is in flight (none for a call made without `bounded`). */
export const ownCall = (signal: unknown): OwnCall | undefined =>
  typeof signal === 'object' && signal !== null ? calls.get(signal) : undefined;

/** Makes `signal` stand for `call` until `leaveCall`. */
export const enterCall = (signal: object, call: OwnCall): void => {
  calls.set(signal, call);
};

export const leaveCall = (signal: object): void => {
  calls.delete(signal);
};

const NO_DEADLINE: Deadline = Object.freeze({ pause() {}, resume() {} });

/** Runs `call` with a signal that stands for `scope` alone (no deadline): for a call made outside `bounded`. */
export async function scopedCall<T>(scope: SendScope, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const { signal } = new AbortController();
  enterCall(signal, { deadline: NO_DEADLINE, scope });
  try {
    return await call(signal);
  } finally {
    leaveCall(signal);
  }
}
