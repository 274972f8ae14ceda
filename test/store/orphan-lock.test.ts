/**
 * A chat lock this process could not release (Redis did not answer `finish`) does not hold up the
 * chat's next update here: the redelivered update takes its own lock back at once, where it used to
 * wait out the lock's 10 s. Another process still waits for it, as for any held lock.
 */
import type { RedisClientType } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisStore } from '../../src/store/index.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';

const clients: RedisClientType[] = [];
const prefix = uniquePrefix('orphan');
afterAll(async () => {
  await flushPrefix(clients[0]!, prefix);
  for (const c of clients) await c.quit();
});

/** A client whose next script call fails as a dropped connection would, once `drop()` is called. */
async function flakyClient() {
  const client = await connectTestRedis();
  clients.push(client);
  let failNext = false;
  const proxy = new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if ((prop === 'evalSha' || prop === 'eval') && typeof value === 'function')
        return (...args: unknown[]) => {
          if (failNext) {
            failNext = false;
            return Promise.reject(new Error('Socket closed unexpectedly'));
          }
          return value.apply(target, args);
        };
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { client: proxy as RedisClientType, drop: () => (failNext = true) };
}

describe('a chat lock left by a finish Redis did not answer', () => {
  it('is taken back at once by the same process, and still waited for by another', async () => {
    const mine = await flakyClient();
    const store = await createRedisStore({ client: mine.client, prefix, flowTtlSeconds: 600 });
    const first = await store.begin('telegram:77', { updateId: 'u1' });
    expect(first.locked).toBe(true);
    mine.drop();
    await expect(first.finish({ done: true })).rejects.toThrow(/Socket closed/);

    // The update comes again (it was never marked done): no 10 s wait for this process's own lock.
    const t0 = Date.now();
    const again = await store.begin('telegram:77', { updateId: 'u1', waitMs: 5_000 });
    expect(Date.now() - t0).toBeLessThan(1_000);
    expect(again.status).toBe('unfinished');
    expect(again.locked).toBe(true);

    // Held again, by this process: another process waits (here: gives up after its 300 ms).
    const other = await createRedisStore({
      client: (await flakyClient()).client,
      prefix,
      flowTtlSeconds: 600,
    });
    let timedOut = false;
    const t1 = Date.now();
    const theirs = await other.begin('telegram:77', {
      updateId: 'u2',
      waitMs: 300,
      onTimeout: () => {
        timedOut = true;
      },
    });
    expect(timedOut).toBe(true);
    expect(Date.now() - t1).toBeGreaterThanOrEqual(300);
    expect(theirs.locked).toBe(false);
    await theirs.finish({ done: true });

    expect(await again.finish({ done: true })).toBe(true);
    const next = await other.begin('telegram:77', { updateId: 'u3', waitMs: 300 });
    expect(next.locked).toBe(true);
    await next.finish({ done: true });
  });
});
