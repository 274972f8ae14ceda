/**
 * "Can't take messages for a moment" across replicas: two engines on one Redis prefix, each given
 * the same refused update (a webhook redelivers it to any replica). While Redis answers the mark,
 * one of them tells the user; while it answers nothing, only the first delivery (a fresh message)
 * tells, a redelivery does not.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { UserRef } from '../../src/chat/types.js';
import { createConversationEngine } from '../../src/engine/index.js';
import { createLogger } from '../../src/log/logger.js';
import type { RampClient } from '../../src/ramp/types.js';
import { StoreUnavailableError } from '../../src/store/errors.js';
import { createRedisStore, type SessionStore } from '../../src/store/index.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';
import { counterFlow, recordingChannel } from './fixtures.js';

const logger = createLogger({ level: 'silent' });
const redis = await connectTestRedis();
const prefixes: string[] = [];
afterAll(async () => {
  for (const p of prefixes) await flushPrefix(redis, p);
  await redis.quit();
});

/** A replica whose store cannot begin an update (Redis down), and cannot set marks either when `allDown`. */
async function replica(prefix: string, allDown: boolean) {
  const inner = await createRedisStore({ client: redis, prefix, flowTtlSeconds: 600 });
  const down = new Set<string | symbol>(allDown ? ['begin', 'markOnce'] : ['begin']);
  const store = new Proxy(inner, {
    get: (target, prop, receiver) =>
      down.has(prop)
        ? async () => {
            throw new StoreUnavailableError();
          }
        : Reflect.get(target, prop, receiver),
  }) as SessionStore;
  const channel = recordingChannel('telegram');
  const engine = createConversationEngine({
    store,
    ramp: {} as RampClient,
    logger,
    config: { rateTolerancePct: 1, project: 'test' },
    flow: counterFlow,
    channels: [channel],
  });
  const deliver = (user: UserRef, updateId: string, sentAt: number) =>
    engine.handle(user, { kind: 'text', text: 'hi' }, { updateId, hints: { sentAt } }).then(
      () => 'handled',
      (err: unknown) => (err instanceof StoreUnavailableError ? 'refused' : String(err)),
    );
  const told = () =>
    channel.sent.flatMap((s) => s.message.texts).filter((t) => t.id === 'engine-store-down').length;
  return { deliver, told };
}

describe('the "store is down" notice across replicas', () => {
  it('while Redis answers the mark: one replica tells the user, not each', async () => {
    const prefix = uniquePrefix('notice');
    prefixes.push(prefix);
    const [a, b] = [await replica(prefix, false), await replica(prefix, false)];
    const user: UserRef = { channel: 'telegram', id: '515' };
    const sentAt = Date.now();
    expect(await a.deliver(user, '9001', sentAt)).toBe('refused');
    expect(await b.deliver(user, '9001', sentAt)).toBe('refused');
    expect(a.told() + b.told()).toBe(1);
  });

  it('while Redis answers nothing: the first delivery tells, a later redelivery elsewhere does not', async () => {
    const prefix = uniquePrefix('notice');
    prefixes.push(prefix);
    const [a, b] = [await replica(prefix, true), await replica(prefix, true)];
    const user: UserRef = { channel: 'telegram', id: '616' };
    const sentAt = Date.now() - 500;
    expect(await a.deliver(user, '9002', sentAt)).toBe('refused');
    // Telegram sends it again 10 s after the refused attempt (the same message, 10 s older), elsewhere.
    expect(await b.deliver(user, '9002', sentAt - 10_000)).toBe('refused');
    expect([a.told(), b.told()]).toEqual([1, 0]);
  });
});
