/** A per-key chain: one user's work in order, different users side by side. */

export interface Queues {
  /** Runs `work` after every earlier piece of work for `key` has settled. */
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
  /** Resolves once the work queued so far under each of `keys` has settled. */
  settled(keys: string[]): Promise<void>;
  /** Resolves once no key has work left (work added meanwhile included). */
  idle(): Promise<void>;
}

/** Creates an empty set of per-key chains. */
export function createQueues(): Queues {
  const queues = new Map<string, Promise<void>>();
  return {
    run<T>(key: string, work: () => Promise<T>): Promise<T> {
      const previous = queues.get(key) ?? Promise.resolve();
      const result = previous.then(work);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      queues.set(key, tail);
      void tail.then(() => {
        if (queues.get(key) === tail) queues.delete(key);
      });
      return result;
    },
    async settled(keys) {
      await Promise.allSettled(keys.map((key) => queues.get(key)));
    },
    async idle() {
      while (queues.size) await Promise.allSettled([...queues.values()]);
    },
  };
}
