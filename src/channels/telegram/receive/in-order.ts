/**
 * Each chat's updates in arrival order, different chats at once: an update starts once the chat's
 * previous one has ended (failed or not). Long polling hands over updates as they come, and Telegram
 * may post a chat's webhook updates in parallel. Like @grammyjs/runner's `sequentialize` keyed by
 * chat, and also the set of updates in hand (for the stop to wait on), in one layer of middleware:
 * an update of a chat with nothing in hand goes straight on, waiting on nothing.
 */
import type { Context, MiddlewareFn } from 'grammy';

/** The chat an update belongs to, or its sender when it has no chat. */
const chatOf = (ctx: Context) => (ctx.chat?.id ?? ctx.from?.id)?.toString();

/** The middleware, the updates it has in hand, and how many (counting one about to start). */
export function inChatOrder(): {
  middleware: MiddlewareFn;
  inflight: Set<Promise<unknown>>;
  inHand: () => number;
} {
  const inflight = new Set<Promise<unknown>>();
  let inHand = 0;
  /** Each chat's last update in hand. */
  const last = new Map<string, Promise<unknown>>();
  const middleware: MiddlewareFn = (ctx, next) => {
    const key = chatOf(ctx);
    const before = key === undefined ? undefined : last.get(key);
    const run = () => next();
    inHand++;
    const task = before ? before.then(run, run) : run();
    inflight.add(task);
    if (key !== undefined) last.set(key, task);
    const settle = () => {
      inHand--;
      inflight.delete(task);
      if (key !== undefined && last.get(key) === task) last.delete(key);
    };
    task.then(settle, settle);
    return task;
  };
  return { middleware, inflight, inHand: () => inHand };
}
