/**
 * Redis lost while an order was between two steps, seen from the chat (the whole app on Telegram's
 * fake Bot API, the ramp sandbox over HTTP, real Redis, the journal on disk):
 * - released at the ramp, but the process died before posting "Done": after Redis comes back empty,
 *   the user still gets the message, and the crypto is not released twice;
 * - "Done" already posted: it is not posted again;
 * - the ramp does not answer the history at the first recovery pass: a later pass reads it again.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { startApp } from '../../src/app/start.js';
import { loadConfig } from '../../src/config/env.js';
import { createRampClient } from '../../src/ramp/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';
import { waitFor } from '../helpers/wait.js';
import { buyUntilPushed, pushedOrderId } from './helpers.js';

const TOKEN = '123456789:test-token-unfinished-not-real';
const WALLET = '0x52908400098527886e0f7030069857d2e4169ee7';
const DONE = /Done!/;

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

/** A sandbox, a fake Bot API, a journal folder and a Redis prefix, all closed after the test. */
async function rig(opts: { rampUrl?: (sandbox: Sandbox) => Promise<string> } = {}) {
  const sandbox = await startSandbox({ port: 0, settleMs: 500 });
  closers.push(() => sandbox.close());
  const fake = await FakeTelegramBotApi.start({ token: TOKEN });
  closers.push(() => fake.close());
  const prefix = uniquePrefix('unfinished');
  const redis = await connectTestRedis();
  closers.push(async () => {
    await flushPrefix(redis, prefix);
    await redis.quit();
  });
  const config = loadConfig({
    HTTP_PORT: '0',
    LOG_LEVEL: process.env.DBG ? 'info' : 'silent',
    TELEGRAM_BOT_TOKEN: TOKEN,
    TELEGRAM_API_ROOT: fake.url,
    REDIS_URL: testRedisUrl(),
    RAMP_BASE_URL: opts.rampUrl ? await opts.rampUrl(sandbox) : sandbox.url,
    RAMP_API_KEY: sandbox.options.apiKey,
    RAMP_API_SECRET: sandbox.options.apiSecret,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'rampchat-journal-')),
    POLL_INTERVAL_MS: '200',
    RECOVERY_CHECK_MS: '1000',
  });
  const start = async () => {
    const app = await startApp(config, {
      stdin: new PassThrough(),
      stdout: new PassThrough(),
      redisPrefix: prefix,
    });
    closers.push(() => app.stop());
    return app;
  };
  const ramp = createRampClient({
    baseUrl: sandbox.url,
    apiKey: sandbox.options.apiKey,
    apiSecret: sandbox.options.apiSecret,
    timeoutMs: 5_000,
  });
  const emptyRedis = () => flushPrefix(redis, prefix);
  return { sandbox, fake, start, ramp, emptyRedis };
}

const doneMessages = (fake: FakeTelegramBotApi, chat: number) =>
  fake.sentMessages(chat).filter((m) => DONE.test(m.text ?? ''));

describe('Redis lost between the release and the final message', () => {
  it('the user still gets "Done" with the release hash, and the crypto goes out once', async () => {
    const { sandbox, fake, start, ramp, emptyRedis } = await rig();
    const chat = 717171;
    const first = await start();
    await buyUntilPushed(fake, chat, WALLET);
    const orderId = pushedOrderId(fake, chat);
    await first.stop();

    // The process released the crypto and died before telling the user; then Redis came back empty.
    await waitFor(
      'the payment',
      async () => (await ramp.getOnrampStatus(orderId)).status === 'SUCCESS',
      10_000,
    );
    const { hash } = await ramp.deposit({ chain: 'polygon', address: WALLET, orderId, project: 'rampchat' });
    await emptyRedis();

    const second = await start();
    expect(await second.recovery).toMatchObject({ wallets: 1, resumed: 1, finished: 0 });
    const done = await fake.waitFor(() => doneMessages(fake, chat)[0], 15_000, 'the final message');
    expect(done.text).toContain(hash);
    expect(sandbox.order(orderId)).toMatchObject({ release: { hash } });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(doneMessages(fake, chat)).toHaveLength(1);
  }, 60_000);

  it('an order whose "Done" was posted is not told again', async () => {
    const { fake, start, emptyRedis } = await rig();
    const chat = 727272;
    const first = await start();
    await buyUntilPushed(fake, chat, WALLET);
    await fake.waitFor(() => doneMessages(fake, chat)[0], 15_000, 'the final message');
    await first.stop();
    await emptyRedis();

    const second = await start();
    expect(await second.recovery).toMatchObject({ wallets: 1, resumed: 0, finished: 1 });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(doneMessages(fake, chat)).toHaveLength(1);
  }, 60_000);
});

describe('the ramp does not answer the history at the first recovery pass', () => {
  it('a later pass reads it again, and the order still ends in "Done"', async () => {
    let refused = 0;
    const { fake, start, emptyRedis } = await rig({
      // The deposit history fails while `failing` holds; everything else passes through.
      rampUrl: async (sandbox) => {
        const proxy = await startProxy(sandbox.url, (path) => {
          if (!failing || !path.startsWith('/api/deposit-transactions/')) return false;
          refused += 1;
          return true;
        });
        closers.push(() => new Promise((r) => proxy.close(r)));
        return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      },
    });
    let failing = false;
    const chat = 737373;
    const first = await start();
    await buyUntilPushed(fake, chat, WALLET);
    await first.stop();
    await emptyRedis();

    failing = true;
    const second = await start();
    expect(await second.recovery).toMatchObject({ wallets: 1, unreadable: 1, resumed: 0 });
    expect(refused).toBeGreaterThan(0);
    failing = false;
    const done = await fake.waitFor(() => doneMessages(fake, chat)[0], 20_000, 'the final message');
    expect(done.text).toMatch(/sent [\d.]+ USDT/);
  }, 60_000);
});

/** Forwards to `target`, answering 503 itself where `refuse(path)` says so. */
async function startProxy(target: string, refuse: (path: string) => boolean): Promise<Server> {
  const to = new URL(target);
  const server = createServer((req, res) => {
    if (refuse(req.url ?? '')) {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ statusCode: 503, message: 'Service unavailable' }));
      return;
    }
    const out = request(
      { host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return server;
}
