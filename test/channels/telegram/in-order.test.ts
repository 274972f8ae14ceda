/**
 * The inbound order (src/channels/telegram/receive/in-order.ts) on a real grammY bot: one chat's
 * updates one at a time in arrival order, even when one fails; other chats meanwhile; the set in
 * hand empties as they end.
 */
import { Bot } from 'grammy';
import type { Update, UserFromGetMe } from 'grammy/types';
import { describe, expect, it } from 'vitest';
import { inChatOrder } from '../../../src/channels/telegram/receive/in-order.js';

const botInfo = {
  id: 1,
  is_bot: true,
  first_name: 'Test',
  username: 'test_bot',
} as UserFromGetMe;

let nextId = 1;
const text = (chat: number, body: string): Update => ({
  update_id: nextId++,
  message: {
    message_id: nextId,
    date: 0,
    chat: { id: chat, type: 'private', first_name: 'U' },
    from: { id: chat, is_bot: false, first_name: 'U' },
    text: body,
  },
});

describe('inChatOrder', () => {
  it("runs a chat's updates in order, one at a time, while other chats go on; a failure does not stop the next", async () => {
    const bot = new Bot('1:x', { botInfo });
    const { middleware, inflight, inHand } = inChatOrder();
    bot.use(middleware);
    const log: string[] = [];
    const gates = new Map<string, () => void>();
    let running = 0;
    let most = 0;
    bot.on('message:text', async (ctx) => {
      const t = ctx.message.text;
      if (ctx.chat.id === 1) {
        running++;
        most = Math.max(most, running);
      }
      log.push(`start ${t}`);
      if (t.startsWith('wait')) await new Promise<void>((r) => gates.set(t, r));
      if (ctx.chat.id === 1) running--;
      log.push(`end ${t}`);
      if (t === 'wait-fail') throw new Error('boom');
    });
    // What each handleUpdate came to: undefined, or the error it threw.
    const handled = [
      bot.handleUpdate(text(1, 'wait-fail')),
      bot.handleUpdate(text(1, 'wait-b')),
      bot.handleUpdate(text(1, 'c')),
      bot.handleUpdate(text(2, 'other')),
    ].map((p) =>
      p.then(
        () => undefined,
        (e: Error & { error?: Error }) => e.error?.message,
      ),
    );
    await new Promise((r) => setTimeout(r, 20));
    // Chat 2 went on while chat 1's first update waits; chat 1's others wait their turn.
    expect(log).toEqual(['start wait-fail', 'start other', 'end other']);
    expect(inflight.size).toBe(3);
    expect(inHand()).toBe(3);
    gates.get('wait-fail')!();
    await new Promise((r) => setTimeout(r, 20));
    expect(log.slice(3)).toEqual(['end wait-fail', 'start wait-b']);
    gates.get('wait-b')!();
    // The failure reaches its own caller only.
    expect(await Promise.all(handled)).toEqual(['boom', undefined, undefined, undefined]);
    expect(log.slice(5)).toEqual(['end wait-b', 'start c', 'end c']);
    expect(most).toBe(1);
    await new Promise((r) => setTimeout(r, 0));
    expect(inflight.size).toBe(0);
    expect(inHand()).toBe(0);
  });

  it('an update with nothing before it in its chat runs at once, in the same tick', async () => {
    const bot = new Bot('1:x', { botInfo });
    const { middleware } = inChatOrder();
    bot.use(middleware);
    let started = false;
    bot.on('message:text', () => {
      started = true;
    });
    const p = bot.handleUpdate(text(3, 'hi'));
    await Promise.resolve();
    await Promise.resolve();
    await Promise.resolve();
    expect(started).toBe(true);
    await p;
  });
});
