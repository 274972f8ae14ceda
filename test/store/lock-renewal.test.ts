/**
 * A chat lock is renewed while its holder works, however long past its lifetime, by one timer for
 * all the locks held (not one per update), and lapses once released or abandoned.
 */
import type { RedisClientType } from 'redis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ChatBusyError } from '../../src/store/errors.js';
import { createRedisStore } from '../../src/store/index.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';

const clients: RedisClientType[] = [];
const prefix = uniquePrefix('renew');
afterAll(async () => {
  await flushPrefix(clients[0]!, prefix);
  for (const c of clients) await c.quit();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('chat lock renewal', () => {
  it('keeps every held lock past its TTL on one timer, and lets each go once released', async () => {
    const client = await connectTestRedis();
    clients.push(client);
    const store = await createRedisStore({ client, prefix, flowTtlSeconds: 600 });
    const other = await createRedisStore({ client, prefix, flowTtlSeconds: 600 });
    // Other code in this worker uses intervals too: only the renewals' (every 600 / 3 ms) count.
    const setSpy = vi.spyOn(globalThis, 'setInterval');
    const clearSpy = vi.spyOn(globalThis, 'clearInterval');
    const ours = () =>
      setSpy.mock.results.filter((_, i) => setSpy.mock.calls[i]?.[1] === 200).map((r) => r.value);
    const armed = () => ours().length;
    const cleared = () => clearSpy.mock.calls.filter(([t]) => ours().includes(t)).length;

    const a = await store.begin('telegram:1', { updateId: 'a', ttlMs: 600 });
    const b = await store.begin('telegram:2', { updateId: 'b', ttlMs: 600 });
    await sleep(50);
    const c = await store.begin('telegram:3', { updateId: 'c', ttlMs: 600 });
    expect([a.locked, b.locked, c.locked]).toEqual([true, true, true]);
    // Three locks of one lifetime, one renewal timer.
    expect(armed()).toBe(1);

    // Three lifetimes later all three are still held: another process is refused each chat.
    await sleep(1_900);
    for (const chat of ['telegram:1', 'telegram:2', 'telegram:3'])
      await expect(other.begin(chat, { waitMs: 0, refuseWhenBusy: true })).rejects.toBeInstanceOf(
        ChatBusyError,
      );

    // Released: free at once. Still held: renewed on.
    await a.finish({ done: true });
    const next = await other.begin('telegram:1', { waitMs: 0, refuseWhenBusy: true, ttlMs: 600 });
    expect(next.locked).toBe(true);
    await next.finish({ done: true });
    await sleep(800);
    await expect(other.begin('telegram:2', { waitMs: 0, refuseWhenBusy: true })).rejects.toBeInstanceOf(
      ChatBusyError,
    );
    await b.finish({ done: true });
    await c.finish({ done: true });

    // Nothing held: the timer stops at its next tick.
    // The other process's lock had a timer of its own, stopped since.
    expect(armed()).toBe(2);
    expect(cleared()).toBe(1);
    await sleep(450);
    expect(cleared()).toBe(2);
    setSpy.mockRestore();
    clearSpy.mockRestore();
  });
});
