/**
 * Per-chat outgoing queue: messages to one chat leave in order, about `intervalMs` apart with
 * ±`jitterMs` of randomness, so a burst never floods a chat. Different chats do not wait on each other.
 */
export interface PacingOptions {
  /** Mean gap between two messages to the same chat (default 1000). */
  intervalMs?: number;
  /** Random spread around the gap, ± (default 300). */
  jitterMs?: number;
}

export interface Pacer {
  /** Runs `send` when the chat's turn comes; resolves or rejects with its result. */
  enqueue<T>(chat: string, send: () => Promise<T>): Promise<T>;
  /** Chats with messages waiting or sent within the last gap. */
  readonly activeChats: number;
}

interface ChatQueue {
  tail: Promise<unknown>;
  lastSentAt: number;
  pending: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function createPacer(opts: PacingOptions = {}): Pacer {
  const intervalMs = opts.intervalMs ?? 1000;
  const jitterMs = Math.min(opts.jitterMs ?? 300, intervalMs);
  const chats = new Map<string, ChatQueue>();
  const gap = () => intervalMs + (Math.random() * 2 - 1) * jitterMs;

  return {
    get activeChats() {
      return chats.size;
    },
    enqueue<T>(chat: string, send: () => Promise<T>): Promise<T> {
      let queue = chats.get(chat);
      if (!queue) {
        queue = { tail: Promise.resolve(), lastSentAt: 0, pending: 0 };
        chats.set(chat, queue);
      }
      const q = queue;
      q.pending++;
      const run = q.tail.then(async () => {
        const wait = q.lastSentAt + gap() - Date.now();
        if (wait > 0) await sleep(wait);
        try {
          return await send();
        } finally {
          q.lastSentAt = Date.now();
          q.pending--;
          if (q.pending === 0) {
            // Forget an idle chat once its gap has passed, keeping the map small.
            setTimeout(() => {
              if (q.pending === 0 && chats.get(chat) === q) chats.delete(chat);
            }, intervalMs + jitterMs).unref?.();
          }
        }
      });
      q.tail = run.catch(() => undefined);
      return run;
    },
  };
}
