/** Runs tasks one at a time per key, in arrival order; different keys run in parallel. */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key);
    let release!: () => void;
    const done = new Promise<void>((r) => {
      release = r;
    });
    // A key with nothing before it (most updates) waits for nothing: no promise made to wait on.
    const tail = previous ? previous.then(() => done) : done;
    this.tails.set(key, tail);
    if (previous) await previous;
    try {
      return await task();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Keys with a task running or waiting. */
  get size(): number {
    return this.tails.size;
  }
}
