/**
 * A Confirm whose create call never reached the ramp (the ramp not listening, its name not
 * resolved): the claim is closed at once (nothing listed for the reconciler, the key free again) and
 * the user is told at once that the order was not created and nothing was charged, never left on
 * "we could not confirm it" for the reconciler's margin.
 */
import { createServer } from 'node:net';
import type { RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/app/flows.js';
import type { UserRef } from '../../src/chat/types.js';
import { createLogger } from '../../src/log/logger.js';
import { createRampClient } from '../../src/ramp/index.js';
import type { RampClient } from '../../src/ramp/types.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { createRedisStore } from '../../src/store/index.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';
import { recordingChannel } from './fixtures.js';

const logger = createLogger({ level: 'silent' });
let sandbox: Sandbox;
let redis: RedisClientType;
const prefixes: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, settleMs: 300 });
  redis = await connectTestRedis();
});
afterAll(async () => {
  for (const p of prefixes) await flushPrefix(redis, p);
  await redis.quit();
  await sandbox.close();
});

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** The sandbox for everything but the order POST, which goes to `deadUrl`. */
function rampWithDeadCreate(deadUrl: string): RampClient {
  const keys = { apiKey: 'sandbox-key', apiSecret: 'sandbox-secret' };
  const live = createRampClient({ baseUrl: sandbox.url, ...keys });
  const dead = createRampClient({ baseUrl: deadUrl, ...keys, retryDelayMs: 10 });
  return new Proxy(live, {
    get: (target, prop, receiver) =>
      prop === 'createOnrampOrder' ? dead.createOnrampOrder.bind(dead) : Reflect.get(target, prop, receiver),
  });
}

describe('an order whose create call surely never reached the ramp', () => {
  it.each([
    ['connection refused', async () => `http://127.0.0.1:${await closedPort()}`],
    ['name not resolved', async () => 'http://ramp.rampchat-test.invalid'],
  ])('(%s) is closed at once and the user told it was not created', async (_, deadUrl) => {
    const prefix = uniquePrefix('notsent');
    prefixes.push(prefix);
    const store = await createRedisStore({ client: redis, prefix, flowTtlSeconds: 600 });
    const channel = recordingChannel('telegram');
    const engine = createEngine({
      store,
      ramp: rampWithDeadCreate(await deadUrl()),
      logger,
      config: { rateTolerancePct: 1, project: 'test' },
      channels: [channel],
    });
    const user: UserRef = { channel: 'telegram', id: `88${Date.now() % 1e6}` };
    await engine.handle(user, { kind: 'command', command: 'buy', args: '500 USDT polygon' });
    await engine.handle(user, { kind: 'text', text: '0x7a11ce0000000000000000000000000000000042' });
    await engine.handle(user, { kind: 'text', text: '0712345678' });
    const confirm = channel.sent
      .at(-1)
      ?.message.buttons?.flat()
      .find((b) => b.label.id.startsWith('buy-button-confirm'));
    expect(confirm, `no summary; texts ${JSON.stringify(channel.ids())}`).toBeDefined();
    channel.sent.length = 0;
    await engine.handle(user, { kind: 'button', id: confirm!.id });

    const ids = channel.sent.flatMap((s) => s.message.texts.map((t) => t.id));
    expect(ids).toContain('buy-order-failed');
    expect(ids).not.toContain('buy-order-uncertain');
    // Nothing is left for the reconciler: no claim in flight, no "already being processed".
    expect(await store.listPendingClaims()).toEqual([]);
    await engine.idle();
  });
});
