/**
 * The whole app in-process: a buy typed into the terminal chat, the STK push in the sandbox, the
 * tracker (the sweep on real Redis) polling it, releasing the crypto once and printing the hash and the
 * explorer link in the same chat.
 */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { type App, startApp } from '../../src/app/start.js';
import type { Locale } from '../../src/chat/types.js';
import { loadConfig } from '../../src/config/env.js';
import { explorerTxUrl } from '../../src/domain/networks.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';
import { waitFor } from './helpers.js';

const WALLET = '0x52908400098527886e0f7030069857d2e4169ee7';

let app: App | undefined;
let prefix: string | undefined;
afterEach(async () => {
  await app?.stop();
  app = undefined;
  if (prefix) {
    const redis = await connectTestRedis();
    await flushPrefix(redis, prefix);
    await redis.quit();
  }
});

describe.each<{ locale: Locale; redis: boolean }>([
  { locale: 'en', redis: true },
  { locale: 'sw', redis: false },
])('a buy from the terminal chat to the deposit hash ($locale, redis: $redis)', ({ locale, redis }) => {
  it('prints the hash and explorer link once, after exactly one deposit', async () => {
    const config = loadConfig({
      HTTP_PORT: '0',
      LOG_LEVEL: 'silent',
      SANDBOX_SETTLE_MS: '100',
      POLL_INTERVAL_MS: '100',
      ...(redis ? { REDIS_URL: testRedisUrl() } : {}),
    });
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let printed = '';
    stdout.on('data', (d) => {
      printed += String(d);
    });
    prefix = uniquePrefix('journey-trk');
    app = await startApp(config, {
      stdin,
      stdout,
      terminal: { TERMINAL_LOCALE: locale },
      redisPrefix: prefix,
    });
    expect(app.tracker.mode).toBe(redis ? 'redis' : 'local');
    stdin.write(`${['/buy 500 USDT polygon', WALLET, '0712345678', '1'].join('\n')}\n`);

    const url = await waitFor(
      'the explorer link in the chat',
      () => /https:\/\/polygonscan\.com\/tx\/(0x[0-9a-fA-F]{64})/.exec(printed) ?? undefined,
      20_000,
    );
    const hash = url[1]!;
    const history = await app.ramp.getHistory('onramp', WALLET);
    const orderId = history.records[0]?.orderId ?? '';
    expect(orderId).toMatch(/^D-/);
    expect(history.records[0]?.txHash).toBe(hash);
    expect(app.sandbox?.depositCallCount(orderId)).toBe(1);
    expect(printed).toContain(hash);
    await new Promise((r) => setTimeout(r, 500));
    expect(printed.split(explorerTxUrl('polygon', hash)).length - 1).toBeGreaterThanOrEqual(1);
    // One final message: the hash line is printed once however many polls ran.
    const hashLines = printed.split('\n').filter((l) => l.includes(hash) && !l.includes('polygonscan'));
    expect(hashLines).toHaveLength(1);
    if (process.env.SHOW_CHAT) console.log(printed);
    stdin.end();
  });
});
