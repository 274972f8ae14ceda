/**
 * A step of messages only is saved by the update's `finish` (one script with the de-duplication
 * mark and the lock's release), on real Redis. What this must not weaken:
 * - killed after the reply went out but before `finish`: the redelivery redoes the step from the
 *   state before it (the input counts once), and a further redelivery is ignored;
 * - the session saved by someone else meanwhile (the lock lost to a stall): `finish` saves nothing,
 *   and the input is redone on the fresh session, so neither write is lost;
 * - a step with any other effect still saves before carrying it out.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { UserRef } from '../../src/chat/types.js';
import { createConversationEngine } from '../../src/engine/index.js';
import { createLogger } from '../../src/log/logger.js';
import type { RampClient } from '../../src/ramp/types.js';
import { createRedisStore, decodeSession, encodeSession, type SessionStore } from '../../src/store/index.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';
import { counterFlow, recordingChannel } from './fixtures.js';

const logger = createLogger({ level: 'silent' });
const user: UserRef = { channel: 'telegram', id: 'finish' };
const KEY = 'telegram:finish';
const clients: Array<Awaited<ReturnType<typeof connectTestRedis>>> = [];
const prefixes: string[] = [];
afterAll(async () => {
  for (const c of clients) {
    for (const p of prefixes) await flushPrefix(c, p);
    await c.quit();
  }
});

/** One replica: an engine on the Redis store; `killBeforeFinish` makes its next update end as a kill would. */
async function replica(prefix: string, store?: SessionStore) {
  const client = await connectTestRedis();
  clients.push(client);
  const inner = store ?? (await createRedisStore({ client, prefix, flowTtlSeconds: 600 }));
  let killBeforeFinish = false;
  const wrapped: SessionStore = {
    ...inner,
    async begin(userKey, opts) {
      const begun = await inner.begin(userKey, opts);
      if (!killBeforeFinish) return begun;
      killBeforeFinish = false;
      // What a SIGKILL leaves once the lock lapsed: no save, no mark, no scratch; only the lock goes.
      return { ...begun, finish: async () => begun.finish({ done: false }) };
    },
  };
  const channel = recordingChannel('telegram');
  const engine = createConversationEngine({
    store: wrapped,
    ramp: {} as RampClient,
    logger,
    config: { rateTolerancePct: 1, project: 'test' },
    flow: counterFlow,
    channels: [channel],
  });
  return {
    engine,
    channel,
    store: inner,
    kill: () => {
      killBeforeFinish = true;
    },
    session: async () => decodeSession(counterFlow, await inner.load(KEY)).session,
  };
}

describe('a step of messages only, saved by finish', () => {
  it('killed after the reply went out: the redelivery counts the input once, and is then done', async () => {
    const prefix = uniquePrefix('finish-kill');
    prefixes.push(prefix);
    const a = await replica(prefix);
    const b = await replica(prefix);
    a.kill();
    await a.engine.handle(user, { kind: 'text', text: 'hello' }, { updateId: '700' });
    expect(a.channel.ids()).toEqual(['t-echo']);
    expect((await a.session()).seen).toEqual([]);
    expect(await a.store.isUpdateDone('telegram:700')).toBe(false);

    await b.engine.handle(user, { kind: 'text', text: 'hello' }, { updateId: '700' });
    expect(b.channel.ids()).toEqual(['t-echo']);
    expect((await b.session()).seen).toEqual(['hello']);
    expect(await b.store.isUpdateDone('telegram:700')).toBe(true);
    await b.engine.handle(user, { kind: 'text', text: 'hello' }, { updateId: '700' });
    expect(b.channel.ids()).toEqual(['t-echo']);
    expect((await b.session()).seen).toEqual(['hello']);
  });

  it('the session saved elsewhere before finish: nothing is lost, the input is redone on it', async () => {
    const prefix = uniquePrefix('finish-cas');
    prefixes.push(prefix);
    const a = await replica(prefix);
    // While the reply goes out, another writer (a replica that went on without the lock) saves.
    const send = a.channel.send.bind(a.channel);
    let interfered = false;
    a.channel.send = async (...args) => {
      if (!interfered) {
        interfered = true;
        const stored = await a.store.load(KEY);
        const s = decodeSession(counterFlow, stored).session;
        expect(await a.store.save(KEY, stored.rev, encodeSession({ ...s, count: 41 }))).toBe(stored.rev + 1);
      }
      return send(...args);
    };
    await a.engine.handle(user, { kind: 'text', text: 'hi' }, { updateId: '701' });
    const s = await a.session();
    expect(s.count).toBe(41);
    expect(s.seen).toEqual(['hi']);
    expect(a.channel.ids()).toEqual(['t-echo', 't-echo']);
    expect(await a.store.isUpdateDone('telegram:701')).toBe(true);
    // The lock was released: the next update is not kept waiting for it.
    const t0 = Date.now();
    await a.engine.handle(user, { kind: 'text', text: 'inc' }, { updateId: '702' });
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect((await a.session()).count).toBe(42);
  });

  it('a step with another effect is saved before it runs', async () => {
    const prefix = uniquePrefix('finish-effect');
    prefixes.push(prefix);
    const a = await replica(prefix);
    let seenByEffect: string[] | undefined;
    a.engine.registerEffect('echo', async () => {
      seenByEffect = (await a.session()).seen;
      return undefined;
    });
    await a.engine.handle(user, { kind: 'text', text: 'loop' }, { updateId: '703' });
    expect(seenByEffect).toEqual(['loop']);
  });

  it("only such a step's messages are sent as work a redelivery redoes (they may skip the outbox)", async () => {
    const prefix = uniquePrefix('finish-redo');
    prefixes.push(prefix);
    const a = await replica(prefix);
    const redone: Array<[string, boolean]> = [];
    const send = a.channel.send.bind(a.channel);
    a.channel.send = async (userId, message, locale, scratch, scope) => {
      for (const t of message.texts) redone.push([t.id, scope?.redo === true]);
      return send(userId, message, locale, scratch, scope);
    };
    await a.engine.handle(user, { kind: 'text', text: 'hello' }, { updateId: '704' });
    // A quote is fetched between its messages: saved first, so neither it nor the step after it is redone.
    await a.engine.handle(user, { kind: 'text', text: 'quote' }, { updateId: '705' });
    // Without an update id (no redelivery to redo it), nothing is.
    await a.engine.handle(user, { kind: 'text', text: 'again' });
    expect(redone).toEqual([
      ['t-echo', true],
      ['t-asking', false],
      ['t-after-fetch', false],
      ['t-failed', false],
      ['t-echo', false],
    ]);
  });
});
