/**
 * A reminder and its "sent" record go together (real Redis, a real outbox): the reminder is put in
 * the outbox under a name of its plan and period, so when its own "sent" write fails (a Redis blip,
 * as in issue 31: three users reminded twice) the holder that takes the run over finds it already
 * in the outbox and nothing goes twice. With Redis not answering, the reminder does not go around
 * the outbox either: it fails, and the run is tried again.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.js';
import {
  createOutboundLine,
  createOutbox,
  redisOutboxStore,
  type SendScope,
} from '../../src/outbound/index.js';
import { handleDue } from '../../src/savings/remind.js';
import { createPlanStore } from '../../src/savings/store.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';
import { weeklyPlan } from './plan-fixture.js';

const logger = createLogger({ level: 'silent' });
const redisReady = connectTestRedis();
const prefixes: string[] = [];
afterAll(async () => {
  const redis = await redisReady;
  for (const p of prefixes) await flushPrefix(redis, p);
  await redis.quit();
});

describe('a standing buy reminder', () => {
  it('is sent once when its "sent" record fails after it went into the outbox', async () => {
    const redis = await redisReady;
    const p = uniquePrefix('remind1');
    prefixes.push(p);
    const store = createPlanStore(
      async () => redis,
      p,
      () => {},
    );
    const created = await store.create(weeklyPlan('telegram:4242', Date.now() - 1000), 5);
    if (!created) throw new Error('no plan');
    const sent: unknown[] = [];
    const outbox = createOutbox({
      store: redisOutboxStore(redis, `${p}outbox:`),
      line: createOutboundLine({ line: [] }),
      lanesOf: () => [],
      send: async (body) => {
        sent.push(body);
        return 'ok';
      },
    });
    // The first holder: the reminder goes into the outbox, then its "sent" write is lost.
    const blipping = {
      ...store,
      finishRun: async () => {
        throw new Error('the connection to Redis was lost');
      },
    };
    const deps = {
      notify: async (u: { id: string }, message: unknown, scope?: SendScope) =>
        void (await outbox.submit(u.id, 'progress', message, { scope })),
      estimate: async () => '3.86',
      windowMs: 3600_000,
      now: Date.now,
      logger,
    };
    await expect(handleDue({ ...deps, store: blipping }, created.id)).rejects.toThrow(/lost/);
    expect(sent).toHaveLength(1);
    // The next holder (the lease lapsed) takes the run over: the reminder is the one in the outbox.
    const wake = await handleDue({ ...deps, store }, created.id);
    expect(wake).toBeGreaterThan(Date.now());
    expect(sent).toHaveLength(1);
    const after = await store.get(created.id);
    expect(after?.run?.s).toBe('sent');
    await outbox.handOver(100);
  });
});
