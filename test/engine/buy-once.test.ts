/**
 * The production flows through the engine against the sandbox over real HTTP and real Redis:
 * however Confirm is tapped (twice at once, redelivered, or in two processes), one STK push.
 */
import type { RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/app/flows.js';
import type { UserRef } from '../../src/chat/types.js';
import type { Engine } from '../../src/engine/index.js';
import { createLogger } from '../../src/log/logger.js';
import { createRampClient } from '../../src/ramp/index.js';
import type { RampClient } from '../../src/ramp/types.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { createRedisStore } from '../../src/store/index.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';
import { recordingChannel } from './fixtures.js';

const logger = createLogger({ level: 'silent' });
let sandbox: Sandbox;
let ramp: RampClient;
let redisA: RedisClientType;
let redisB: RedisClientType;
const prefixes: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, settleMs: 60_000 });
  ramp = createRampClient({ baseUrl: sandbox.url, apiKey: 'sandbox-key', apiSecret: 'sandbox-secret' });
  redisA = await connectTestRedis();
  redisB = await connectTestRedis();
});
afterAll(async () => {
  for (const p of prefixes) await flushPrefix(redisA, p);
  await redisA.quit();
  await redisB.quit();
  await sandbox.close();
});

let walletSeq = 0;
/** A fresh wallet per test, so the sandbox's history shows only that test's orders. */
const freshWallet = () => `0x${(0x5290840009852788n + BigInt(++walletSeq)).toString(16).padStart(40, '0')}`;

async function makeEngine(client: RedisClientType, prefix: string) {
  const channel = recordingChannel('telegram');
  const engine = createEngine({
    store: await createRedisStore({ client, prefix, flowTtlSeconds: 600 }),
    ramp,
    logger,
    config: { rateTolerancePct: 1, project: 'test' },
    channels: [channel],
  });
  return { engine, channel };
}

/** Walks the buy flow to its summary and returns the Confirm button's id. */
async function toSummary(
  engine: Engine,
  channel: ReturnType<typeof recordingChannel>,
  user: UserRef,
  wallet: string,
) {
  let update = 0;
  const say = (text: string) =>
    engine.handle(user, { kind: 'text', text }, { updateId: `${user.id}-${++update}` });
  await engine.handle(user, { kind: 'command', command: 'buy', args: '500 USDT polygon' });
  await say(wallet);
  await say('0712345678');
  const confirm = channel.sent
    .at(-1)
    ?.message.buttons?.flat()
    .find((b) => b.label.id.startsWith('buy-button-confirm'));
  expect(
    confirm,
    `summary not reached; last texts: ${JSON.stringify(channel.sent.at(-1)?.message.texts)}`,
  ).toBeDefined();
  return confirm!.id;
}

const orderCount = async (wallet: string) => {
  try {
    return (await ramp.getHistory('onramp', wallet)).records.length;
  } catch (err) {
    if ((err as { kind?: string }).kind === 'not_found') return 0;
    throw err;
  }
};

const stkTexts = (channel: ReturnType<typeof recordingChannel>) =>
  channel.ids().filter((id) => id === 'buy-stk-sent' || id === 'buy-stk-sent-short');

describe('a double Confirm', () => {
  it('tapped twice at once in one process creates one order', async () => {
    const prefix = uniquePrefix('buyonce');
    prefixes.push(prefix);
    const { engine, channel } = await makeEngine(redisA, prefix);
    const user: UserRef = { channel: 'telegram', id: '1001' };
    const wallet = freshWallet();
    const confirm = await toSummary(engine, channel, user, wallet);
    await Promise.all([
      engine.handle(user, { kind: 'button', id: confirm }, { updateId: 'tap-1' }),
      engine.handle(user, { kind: 'button', id: confirm }, { updateId: 'tap-2' }),
    ]);
    expect(await orderCount(wallet)).toBe(1);
    expect(stkTexts(channel)).toHaveLength(1);
  });

  it('redelivered by the channel is ignored', async () => {
    const prefix = uniquePrefix('buyonce');
    prefixes.push(prefix);
    const { engine, channel } = await makeEngine(redisA, prefix);
    const user: UserRef = { channel: 'telegram', id: '1002' };
    const wallet = freshWallet();
    const confirm = await toSummary(engine, channel, user, wallet);
    const sentBefore = channel.sent.length;
    await engine.handle(user, { kind: 'button', id: confirm }, { updateId: 'tap' });
    const sentAfterFirst = channel.sent.length;
    await engine.handle(user, { kind: 'button', id: confirm }, { updateId: 'tap' });
    expect(channel.sent.length).toBe(sentAfterFirst);
    expect(sentAfterFirst).toBeGreaterThan(sentBefore);
    expect(await orderCount(wallet)).toBe(1);
  });

  it('handled by two processes at once creates one order', async () => {
    const prefix = uniquePrefix('buyonce');
    prefixes.push(prefix);
    const a = await makeEngine(redisA, prefix);
    const b = await makeEngine(redisB, prefix);
    const user: UserRef = { channel: 'telegram', id: '1003' };
    const wallet = freshWallet();
    const confirm = await toSummary(a.engine, a.channel, user, wallet);
    await Promise.all([
      a.engine.handle(user, { kind: 'button', id: confirm }, { updateId: 'a-tap' }),
      b.engine.handle(user, { kind: 'button', id: confirm }, { updateId: 'b-tap' }),
    ]);
    expect(await orderCount(wallet)).toBe(1);
    expect([...stkTexts(a.channel), ...stkTexts(b.channel)]).toHaveLength(1);
  });
});
