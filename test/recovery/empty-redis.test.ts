/**
 * Redis comes back empty under a running deployment (the whole app on Telegram's fake Bot API, the
 * ramp sandbox as a separate service, real Redis): an order created before the loss is found again
 * through the order journal (outside Redis) and the ramp's history, tracked to its end, and the user
 * gets the final message. An order the journal never saw is not invented.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { startApp } from '../../src/app/start.js';
import { loadConfig } from '../../src/config/env.js';
import { createRampClient } from '../../src/ramp/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';
import { buyUntilPushed } from './helpers.js';

const TOKEN = '123456789:test-token-empty-redis-not-real';
const CHAT = 616161;
const WALLET = '0x52908400098527886e0f7030069857d2e4169ee7';
const prefix = uniquePrefix('empty-redis');
let sandbox: Sandbox | undefined;

afterAll(async () => {
  const redis = await connectTestRedis();
  await flushPrefix(redis, prefix);
  await redis.quit();
  await sandbox?.close();
});

describe('Redis restarted empty', () => {
  it('an order the ramp created is found again, tracked, and the user gets the final message', async () => {
    sandbox = await startSandbox({ port: 0, settleMs: 2_500 });
    const dataDir = mkdtempSync(join(tmpdir(), 'rampchat-journal-'));
    const fake = await FakeTelegramBotApi.start({ token: TOKEN });
    const config = loadConfig({
      HTTP_PORT: '0',
      LOG_LEVEL: 'silent',
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: fake.url,
      REDIS_URL: testRedisUrl(),
      RAMP_BASE_URL: sandbox.url,
      RAMP_API_KEY: sandbox.options.apiKey,
      RAMP_API_SECRET: sandbox.options.apiSecret,
      DATA_DIR: dataDir,
      POLL_INTERVAL_MS: '200',
    });
    const io = { stdin: new PassThrough(), stdout: new PassThrough(), redisPrefix: prefix };
    try {
      const first = await startApp(config, io);
      expect(await first.recovery).toMatchObject({ resumed: 0 });
      await buyUntilPushed(fake, CHAT, WALLET);
      await first.stop();

      // Redis loses everything of this deployment; the journal on disk remains.
      const redis = await connectTestRedis();
      await flushPrefix(redis, prefix);
      await redis.quit();
      // The journal on disk: private, and no phone number (0712345678 -> 254712345678) in clear.
      const files = readdirSync(dataDir).filter((n) => /^orders-.*\.jsonl$/.test(n));
      const bytes = files.map((n) => readFileSync(join(dataDir, n), 'utf8')).join('');
      expect(bytes).toContain('"kind":"order"');
      expect(bytes).not.toMatch(/2547\d{8}|712345678/);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      for (const n of files) expect(statSync(join(dataDir, n)).mode & 0o777).toBe(0o600);

      const second = await startApp(config, io);
      try {
        expect(await second.recovery).toMatchObject({ wallets: 1, resumed: 1, escalated: 0 });
        const done = await fake.waitFor(
          () => fake.sentMessages(CHAT).find((m) => /Done!/.test(m.text ?? '')),
          15_000,
          'the final message',
        );
        expect(done.text).toMatch(/sent [\d.]+ USDT/);
        expect(sandbox.stkPushCount()).toBe(1);
      } finally {
        await second.stop();
      }
    } finally {
      await fake.close();
    }
  }, 60_000);
});

describe('Redis emptied under a running process', () => {
  it('is noticed by the running process, which finds the order again and finishes it', async () => {
    const box = await startSandbox({ port: 0, settleMs: 2_500 });
    const dataDir = mkdtempSync(join(tmpdir(), 'rampchat-journal-'));
    const fake = await FakeTelegramBotApi.start({ token: TOKEN });
    const livePrefix = uniquePrefix('emptied-live');
    const chat = CHAT + 1;
    const config = loadConfig({
      HTTP_PORT: '0',
      LOG_LEVEL: 'silent',
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: fake.url,
      REDIS_URL: testRedisUrl(),
      RAMP_BASE_URL: box.url,
      RAMP_API_KEY: box.options.apiKey,
      RAMP_API_SECRET: box.options.apiSecret,
      DATA_DIR: dataDir,
      POLL_INTERVAL_MS: '200',
      RECOVERY_CHECK_MS: '1000',
    });
    const app = await startApp(config, {
      stdin: new PassThrough(),
      stdout: new PassThrough(),
      redisPrefix: livePrefix,
    });
    const redis = await connectTestRedis();
    try {
      await buyUntilPushed(fake, chat, WALLET);
      await flushPrefix(redis, livePrefix);
      const done = await fake.waitFor(
        () => fake.sentMessages(chat).find((m) => /Done!/.test(m.text ?? '')),
        20_000,
        'the final message',
      );
      expect(done.text).toMatch(/sent [\d.]+ USDT/);
      expect(box.stkPushCount()).toBe(1);
    } finally {
      await app.stop();
      await flushPrefix(redis, livePrefix);
      await redis.quit();
      await fake.close();
      await box.close();
    }
  }, 60_000);
});

/** A ramp client on the sandbox, and the Polygon USDT it lists. */
async function clientOf(box: Sandbox) {
  const ramp = createRampClient({
    baseUrl: box.url,
    apiKey: box.options.apiKey,
    apiSecret: box.options.apiSecret,
    timeoutMs: 5_000,
  });
  const usdt = (await ramp.listAssets()).tokens.find((t) => t.network === 'polygon' && t.symbol === 'USDT')!;
  return { ramp, usdt };
}

describe('the recovery pass', () => {
  it('rebuilds an order the ramp created from the intent journaled before the call; escalates one it cannot', async () => {
    const { createFileJournal, recoverLostOrders } = await import('../../src/recovery/index.js');
    const { createLogger } = await import('../../src/log/logger.js');
    const box = await startSandbox({ port: 0, settleMs: 60_000 });
    try {
      const { ramp, usdt } = await clientOf(box);
      const journal = createFileJournal(
        join(mkdtempSync(join(tmpdir(), 'rampchat-journal-')), 'orders.jsonl'),
      );
      const user = { channel: 'telegram' as const, id: '777' };
      // The process wrote its intent, the ramp created the order, then everything in Redis was lost.
      await journal.intent({
        side: 'onramp',
        user,
        network: 'polygon',
        walletAddress: WALLET,
        token: { symbol: 'USDT', address: usdt.address, decimals: usdt.decimals },
        amountKes: 700,
        phone: '254712345678',
      });
      const { orderId } = await ramp.createOnrampOrder({
        phone: '254712345678',
        amountKes: 700,
        userAddress: WALLET,
        tokenAddress: usdt.address,
      });
      // An order for the same wallet that the journal cannot explain (another chain, another amount).
      const other = (await ramp.listAssets()).tokens.find(
        (t) => t.network === 'celo' && t.symbol === 'USDT',
      )!;
      const { orderId: stray } = await ramp.createOnrampOrder({
        phone: '254712345678',
        amountKes: 900,
        userAddress: WALLET,
        tokenAddress: other.address,
      });

      // Support unreachable: the order the journal explains is still recovered; the stray is counted
      // as failed, for the next pass.
      const first: string[] = [];
      const down = await recoverLostOrders({
        journal,
        ramp,
        tracker: { track: async (o) => void first.push(o.orderId), ownerOf: async () => undefined },
        logger: createLogger({ level: 'silent' }),
        onEscalate: async () => {
          throw new Error('support desk unreachable');
        },
      });
      expect(down).toMatchObject({ resumed: 1, escalated: 0, failed: 1 });
      expect(first).toEqual([orderId]);

      const tracked: Array<{ orderId: string; user: unknown; token: unknown; amountKes: number }> = [];
      const escalated: string[] = [];
      const report = await recoverLostOrders({
        journal,
        ramp,
        tracker: {
          track: async (o) => void tracked.push(o),
          ownerOf: async () => undefined,
        },
        logger: createLogger({ level: 'silent' }),
        onEscalate: async (c) => void escalated.push(c.order.orderId),
      });
      expect(report).toMatchObject({ wallets: 1, resumed: 1, escalated: 1, failed: 0 });
      expect(tracked).toEqual([
        expect.objectContaining({
          orderId,
          user,
          amountKes: 700,
          token: expect.objectContaining({ symbol: 'USDT' }),
        }),
      ]);
      expect(escalated).toEqual([stray]);

      // Run again (the tracker now knows the first): the stray is with support, never a second case.
      const again = await recoverLostOrders({
        journal,
        ramp,
        tracker: {
          track: async (o) => void tracked.push(o),
          ownerOf: async (id) => (id === orderId ? user : undefined),
        },
        logger: createLogger({ level: 'silent' }),
        onEscalate: async (c) => void escalated.push(c.order.orderId),
      });
      expect(again).toMatchObject({ known: 1, finished: 1, resumed: 0, escalated: 0, failed: 0 });
      expect(escalated).toEqual([stray]);
    } finally {
      await box.close();
    }
  });

  it('tracks again a finished order whose "Done" the journal does not record, but not one journaled before finals were', async () => {
    const { createFileJournal, recoverLostOrders } = await import('../../src/recovery/index.js');
    const { createLogger } = await import('../../src/log/logger.js');
    const { writeFileSync } = await import('node:fs');
    const box = await startSandbox({ port: 0, settleMs: 50 });
    try {
      const { ramp, usdt } = await clientOf(box);
      const user = { channel: 'telegram' as const, id: '778' };
      const order = (orderId: string, amountKes: number) => ({
        orderId,
        createdAt: Date.now(),
        side: 'onramp',
        user,
        network: 'polygon',
        walletAddress: WALLET,
        token: { symbol: 'USDT', address: usdt.address, decimals: usdt.decimals },
        amountKes,
        phone: '254712345678',
      });
      // Two orders released at the ramp, neither told "Done" per the journal: one journaled by this
      // version (v 2), one by a version that did not journal finals.
      const ids: string[] = [];
      for (const amountKes of [300, 400]) {
        const { orderId } = await ramp.createOnrampOrder({
          phone: '254712345678',
          amountKes,
          userAddress: WALLET,
          tokenAddress: usdt.address,
        });
        await new Promise((r) => setTimeout(r, 120));
        await ramp.deposit({ chain: 'polygon', address: WALLET, orderId, project: 'rampchat' });
        ids.push(orderId);
      }
      const [current, old] = ids as [string, string];
      const path = join(mkdtempSync(join(tmpdir(), 'rampchat-journal-')), 'orders.jsonl');
      writeFileSync(
        path,
        [
          { kind: 'order', at: Date.now(), v: 2, order: order(current, 300) },
          { kind: 'order', at: Date.now(), order: order(old, 400) },
        ]
          .map((e) => JSON.stringify(e))
          .join('\n'),
      );
      const tracked: string[] = [];
      const report = await recoverLostOrders({
        journal: createFileJournal(path),
        ramp,
        tracker: { track: async (o) => void tracked.push(o.orderId), ownerOf: async () => undefined },
        logger: createLogger({ level: 'silent' }),
      });
      expect(report).toMatchObject({ resumed: 1, finished: 1, escalated: 0, failed: 0 });
      expect(tracked).toEqual([current]);
    } finally {
      await box.close();
    }
  });

  it('files again a sale Redis lost before its filing, once its filing is surely over; a younger one waits', async () => {
    const { createFileJournal, recoverLostOrders, unfiledKey } = await import('../../src/recovery/index.js');
    const { createLogger } = await import('../../src/log/logger.js');
    const box = await startSandbox({ port: 0, settleMs: 60_000 });
    try {
      const { ramp } = await clientOf(box);
      const usdc = (await ramp.listAssets()).tokens.find(
        (t) => t.network === 'polygon' && t.symbol === 'USDC',
      )!;
      const path = join(mkdtempSync(join(tmpdir(), 'rampchat-journal-')), 'orders.jsonl');
      const t0 = Date.now();
      const o779 = { channel: 'telegram' as const, id: '779' };
      const sale = (txHash: string) => ({
        side: 'offramp' as const,
        user: o779,
        network: 'polygon' as const,
        walletAddress: WALLET,
        token: { symbol: 'USDC', address: usdc.address, decimals: usdc.decimals },
        amountKes: 1_000,
        tokenAmount: '7.76834',
        phone: '254712345678',
        txHash,
      });
      const early = `0x${'e1'.repeat(32)}`;
      const late = `0x${'e2'.repeat(32)}`;
      // Journaled right before the ramp was asked; then the process died and Redis came back empty.
      await createFileJournal(path, { now: () => t0 }).intent(sale(early));
      await createFileJournal(path, { now: () => t0 + 10 * 60_000 }).intent(sale(late));
      // One the sell path handed to support (the ramp refused it, or never answered): left to them.
      const withSupport = `0x${'e3'.repeat(32)}`;
      await createFileJournal(path, { now: () => t0 }).intent(sale(withSupport));
      await createFileJournal(path, { now: () => t0 }).final(unfiledKey(withSupport));

      const tracked: Array<{ orderId: string; txHash?: string; side: string }> = [];
      const journal = createFileJournal(path);
      const pass = () =>
        recoverLostOrders({
          journal,
          ramp,
          // As the app's tracker does: tracking journals the order, and the tracker knows it after.
          tracker: {
            track: async (o) => {
              tracked.push(o);
              await journal.order(o);
            },
            ownerOf: async (id) => (tracked.some((o) => o.orderId === id) ? o779 : undefined),
          },
          logger: createLogger({ level: 'silent' }),
          project: 'rampchat',
          now: () => t0 + 11 * 60_000,
        });
      expect(await pass()).toMatchObject({ resumed: 1, waiting: 1, failed: 0 });
      expect(tracked).toEqual([expect.objectContaining({ side: 'offramp', txHash: early })]);
      const orderId = tracked[0]!.orderId;
      expect(orderId).toMatch(/^WD-/);
      expect(box.order(orderId)).toMatchObject({ hash: early, phone: '254712345678' });

      // Again: the order is known now, so it is neither filed nor tracked a second time.
      expect(await pass()).toMatchObject({ known: 1, resumed: 0, waiting: 1, failed: 0 });
      expect(tracked).toHaveLength(1);
    } finally {
      await box.close();
    }
  });
});
