/**
 * Per-user limits on a sale's costly parts (real Redis, the sell flow through the engine): signing
 * links created per hour (a double Confirm counts once) and distinct transaction hashes sent in per
 * hour (each pending one is re-checked against the chain for the link's whole life).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevChain, startDevChain } from '../../src/chains/evm/index.js';
import { createMemoryLimiter, createRedisLimiter, type Limiter } from '../../src/limits/index.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';
import { findButton, lastText, newUser, type SellHarness, startSellHarness } from './helpers.js';

let chain: DevChain;
let h: SellHarness;

beforeAll(async () => {
  chain = await startDevChain();
  h = await startSellHarness({
    devChain: chain,
    env: { LIMIT_SELL_LINKS_PER_USER: '2', LIMIT_SELL_HASHES_PER_USER: '2' },
  });
});
afterAll(async () => {
  await h?.close();
  await chain?.close();
});

const ids = (user: Parameters<SellHarness['texts']>[0]) => h.texts(user).map((t) => t.id);
const randomHash = () =>
  `0x${Array.from({ length: 64 }, () => Math.floor(Math.random() * 16).toString(16)).join('')}`;

describe('signing links per user', () => {
  it('makes at most the configured number per hour; a double Confirm counts once', async () => {
    const user = newUser();
    for (let i = 0; i < 2; i++) {
      await h.say(user, { kind: 'command', command: 'sell', args: `${600 + i} KES USDT polygon 0712345678` });
      const confirm = findButton(h, user, 'sell-button-confirm');
      await h.say(user, { kind: 'button', id: confirm });
      await h.say(user, { kind: 'button', id: confirm });
      expect(lastText(h, user, 'sell-evm-sign')).toBeDefined();
      await h.say(user, { kind: 'command', command: 'cancel', args: '' });
    }
    expect(ids(user).filter((id) => id === 'sell-evm-sign')).toHaveLength(2);

    await h.say(user, { kind: 'command', command: 'sell', args: '650 KES USDT polygon 0712345678' });
    await h.say(user, { kind: 'button', id: findButton(h, user, 'sell-button-confirm') });
    const refused = lastText(h, user, 'sell-rate-limited');
    expect(refused?.args?.minutes).toBeGreaterThanOrEqual(59);
    expect(ids(user).filter((id) => id === 'sell-evm-sign')).toHaveLength(2);

    const other = newUser();
    await h.say(other, { kind: 'command', command: 'sell', args: '650 KES USDT polygon 0712345678' });
    await h.say(other, { kind: 'button', id: findButton(h, other, 'sell-button-confirm') });
    expect(lastText(h, other, 'sell-evm-sign')).toBeDefined();
  });
});

describe('transaction hashes sent in per user', () => {
  it('checks the configured number of distinct hashes, then refuses more; a repeat is not counted', async () => {
    const user = newUser();
    await h.say(user, { kind: 'command', command: 'sell', args: '700 KES USDT polygon 0712345678' });
    await h.say(user, { kind: 'button', id: findButton(h, user, 'sell-button-confirm') });
    const [first, second, third] = [randomHash(), randomHash(), randomHash()];
    for (const hash of [first, second, first]) await h.say(user, { kind: 'text', text: hash! });
    expect(ids(user)).not.toContain('sell-refused-too-many');

    await h.say(user, { kind: 'text', text: third! });
    expect(lastText(h, user, 'sell-refused-too-many')).toBeDefined();
    const token = String(lastText(h, user, 'sell-evm-sign')!.args!.url)
      .split('/')
      .at(-1)!;
    const intent = await h.sell.service.intentByLink(token);
    expect(intent!.pending.map((p) => p.hash)).not.toContain(third);
  });
});

describe('the limiter', () => {
  const limit = { key: 'k', max: 2, windowMs: 1000 };
  const cases: Array<[string, () => Promise<{ limiter: Limiter; close(): Promise<void> }>]> = [
    ['in memory', async () => ({ limiter: createMemoryLimiter(), close: async () => {} })],
    [
      'in Redis',
      async () => {
        const redis = await connectTestRedis();
        const prefix = uniquePrefix('limiter');
        return {
          limiter: createRedisLimiter(redis, prefix),
          close: async () => {
            await flushPrefix(redis, prefix);
            await redis.quit();
          },
        };
      },
    ],
  ];
  for (const [name, make] of cases) {
    it(`${name}: a named action taken again is allowed without counting; the window slides`, async () => {
      const { limiter, close } = await make();
      try {
        expect(await limiter.take([limit], 0, 'a')).toEqual({ ok: true });
        expect(await limiter.take([limit], 10, 'a')).toEqual({ ok: true });
        expect(await limiter.take([limit], 20, 'b')).toEqual({ ok: true });
        expect(await limiter.take([limit], 30, 'a')).toEqual({ ok: true });
        expect(await limiter.take([limit], 40, 'c')).toEqual({ ok: false, retryAt: 1000, key: 'k' });
        expect(await limiter.take([limit], 1001, 'c')).toEqual({ ok: true });
      } finally {
        await close();
      }
    });
  }
});
