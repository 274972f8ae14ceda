/**
 * Several replicas on one Redis: updates of one chat landing on different processes are handled one
 * at a time (the per-chat lock in Redis), different chats in parallel; a lock left by a dead holder
 * expires on its own.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { UserRef } from '../../src/chat/types.js';
import type { Quote } from '../../src/domain/types.js';
import { createConversationEngine } from '../../src/engine/index.js';
import { createLogger } from '../../src/log/logger.js';
import type { RampClient } from '../../src/ramp/types.js';
import { createRedisStore } from '../../src/store/index.js';
import { counterFlow, recordingChannel } from '../engine/fixtures.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';

const logger = createLogger({ level: 'silent' });
const prefixes: string[] = [];
afterAll(async () => {
  const redis = await connectTestRedis();
  for (const p of prefixes) await flushPrefix(redis, p);
  await redis.quit();
});

const quote: Quote = {
  type: 'onramp',
  network: 'polygon',
  inputAmount: '500',
  inputCurrency: 'KES',
  outputAmount: '3.8',
  outputCurrency: 'USDT',
  exchangeRate: 129.5,
  fee: { amount: '0.05', kes: 6 },
  receivedAt: new Date(0).toISOString(),
};

/** Two "replicas": two engines with their own Redis clients on one prefix; a slow quote records when it ran. */
async function replicas() {
  const prefix = uniquePrefix('replicas');
  prefixes.push(prefix);
  const spans: Array<{ user: string; start: number; end: number }> = [];
  const make = async () => {
    const client = await connectTestRedis();
    const store = await createRedisStore({ client, prefix, flowTtlSeconds: 600 });
    const ramp = {
      async getQuote() {
        const start = Date.now();
        await new Promise((r) => setTimeout(r, 150));
        spans.push({ user: current, start, end: Date.now() });
        return quote;
      },
    } as unknown as RampClient;
    let current = '';
    const channel = recordingChannel('telegram');
    const engine = createConversationEngine({
      store,
      ramp: new Proxy(ramp, {
        get: (t, p) => (p === 'getQuote' ? t.getQuote : undefined),
      }),
      logger,
      config: { rateTolerancePct: 1, project: 'test' },
      flow: counterFlow,
      channels: [channel],
    });
    return {
      prefix,
      store,
      say: (user: UserRef, text: string, updateId?: string) => {
        current = user.id;
        return engine.handle(user, { kind: 'text', text }, updateId ? { updateId } : undefined);
      },
      sent: () => channel.sent,
      close: () => client.quit(),
    };
  };
  const [a, b] = await Promise.all([make(), make()]);
  return { a: a!, b: b!, spans };
}

const prefixOf = (r: { prefix: string }) => r.prefix;

const overlap = (x: { start: number; end: number }, y: { start: number; end: number }) =>
  x.start < y.end && y.start < x.end;

describe('one chat across replicas', () => {
  it('is handled one update at a time; two chats run side by side', async () => {
    const { a, b, spans } = await replicas();
    try {
      const alice: UserRef = { channel: 'telegram', id: 'alice' };
      await Promise.all([a.say(alice, 'quote'), b.say(alice, 'quote')]);
      expect(spans).toHaveLength(2);
      expect(overlap(spans[0]!, spans[1]!)).toBe(false);

      spans.length = 0;
      await Promise.all([
        a.say({ channel: 'telegram', id: 'bob' }, 'quote'),
        b.say({ channel: 'telegram', id: 'carol' }, 'quote'),
      ]);
      expect(spans).toHaveLength(2);
      expect(overlap(spans[0]!, spans[1]!)).toBe(true);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('a lock whose holder died expires on its own; a held lock makes the next one wait', async () => {
    const { a, b } = await replicas();
    try {
      // What a SIGKILLed replica leaves: its lock, no longer renewed, lapses after its TTL.
      const redis = await connectTestRedis();
      await redis.set(`${prefixOf(a)}chat-lock:telegram:dave`, 'dead-replica', {
        expiration: { type: 'PX', value: 300 },
      });
      await redis.quit();
      const t0 = Date.now();
      const release = await b.store.lockChat('telegram:dave', { waitMs: 5_000 });
      const waited = Date.now() - t0;
      expect(waited).toBeGreaterThanOrEqual(200);
      expect(waited).toBeLessThan(2_000);
      let second = false;
      const waiting = a.store.lockChat('telegram:dave', { waitMs: 5_000 }).then((r) => {
        second = true;
        return r;
      });
      await new Promise((r) => setTimeout(r, 100));
      expect(second).toBe(false);
      const t1 = Date.now();
      await release();
      await (await waiting)();
      expect(second).toBe(true);
      expect(Date.now() - t1).toBeLessThan(1_000);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('an update whose first taker died is handled by the replica it is redelivered to; a finished one is not', async () => {
    const { a, b } = await replicas();
    try {
      const erin: UserRef = { channel: 'telegram', id: 'erin' };
      // Replica A took update 501 (marked it seen) and was killed before handling it.
      expect(await a.store.markUpdateSeen('telegram:501')).toBe(true);
      await b.say(erin, 'hello', '501');
      expect(b.sent().filter((s) => s.userId === 'erin')).toHaveLength(1);
      // Handled to the end: a further redelivery, on either replica, is ignored.
      await a.say(erin, 'hello', '501');
      await b.say(erin, 'hello', '501');
      expect(a.sent().filter((s) => s.userId === 'erin')).toHaveLength(0);
      expect(b.sent().filter((s) => s.userId === 'erin')).toHaveLength(1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
