/** A support group's edge for desk tests that run the desk without Telegram. */
import type { Text } from '../../src/chat/types.js';
import type { DeskTopics } from '../../src/support/ports.js';

export const GROUP = '-100777';

/** A desk budget for tests: quick gathering and cards, a short window for the room rule. */
export const quick = {
  gatherMs: 20,
  maxGatherMs: 50,
  cardIntervalMs: 20,
  cardMaxLagMs: 30,
  quietMs: 10,
  windowMs: 1000,
};

/** A support group's edge as one replica sees it: posts are recorded, or hang (`stuck`). */
export function group(posts: string[][], stuck: boolean): DeskTopics {
  let id = 100;
  return {
    chatId: GROUP,
    create: async () => 7,
    post: (_thread, texts: Text[]) =>
      stuck
        ? new Promise<number>(() => {})
        : Promise.resolve().then(() => {
            posts.push(texts.map((x) => String(x.args?.text ?? x.id)));
            return ++id;
          }),
    postCard: async () => ++id,
    pin: async () => {},
    react: async () => {},
    editCard: async () => {},
    close: async () => {},
    reopen: async () => {},
    rename: async () => {},
  };
}
