import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp } from '../../src/app/start.js';
import { loadConfig } from '../../src/config/env.js';
import { checkRedis } from '../../src/doctor/redis.js';
import { createResilientClient } from '../../src/store/connection/connect.js';
import { FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { telegramAppConfig } from '../helpers/app-config.js';
import { SENTINEL_NAME, type SentinelSet, startSentinelSet } from '../helpers/sentinel-set.js';

const TOKEN = '123456789:test-token-sentinel-not-real';
const CHAT = 838383;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let set: SentinelSet;
beforeAll(async () => {
  set = await startSentinelSet();
}, 40_000);
afterAll(async () => {
  await set?.stop();
});

describe('Redis failover behind Sentinel', () => {
  it('the doctor reaches the primary through the Sentinels and says how many answer', async () => {
    const config = loadConfig({ REDIS_URL: set.url });
    const rows = await checkRedis(config, { env: {}, timeoutMs: 2_000 });
    expect(rows.find((r) => r.part === 'redis sentinel')).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining(
        `3 of 3 Sentinels name primary "mymaster" as 127.0.0.1:${set.ports.primary}`,
      ),
    });
    expect(rows.find((r) => r.part === 'redis')).toMatchObject({ status: 'ok' });
  });

  it('the primary SIGKILLed: the bot answers again within 10 s of the promotion, with what was replicated', async () => {
    const fake = await FakeTelegramBotApi.start({ token: TOKEN });
    const config = telegramAppConfig({ token: TOKEN, apiRoot: fake.url }, set.url);
    const app = await startApp(config, { stdin: new PassThrough(), stdout: new PassThrough() });
    try {
      fake.sendText(CHAT, '/alert USDT polygon below 128');
      await fake.waitFor(() => fake.sentMessages(CHAT).find((m) => /Alert 1 set/.test(m.text ?? '')), 10_000);
      // Replication is asynchronous: the test waits for it, as the last moment's writes are lost otherwise.
      await sleep(1500);
      const old = (await set.primaryPort())!;
      expect(old).toBe(set.ports.primary);
      await set.kill(old);
      const promotedAt = await set.promotedFrom(old);

      let answeredAt: number | undefined;
      let listed = '';
      while (!answeredAt && Date.now() - promotedAt < 15_000) {
        const seen = fake.sentMessages(CHAT).length;
        fake.sendText(CHAT, '/alerts');
        const reply = await fake
          .waitFor(
            () =>
              fake
                .sentMessages(CHAT)
                .slice(seen)
                .find((m) => /Your rate alerts/.test(m.text ?? '')),
            1_000,
          )
          .catch(() => undefined);
        if (reply) {
          answeredAt = Date.now();
          listed = reply.text ?? '';
        }
      }
      expect(answeredAt, 'an answer after the promotion').toBeDefined();
      expect(answeredAt! - promotedAt).toBeLessThan(10_000);
      expect(listed).toMatch(/USDT.*128|128.*USDT/s);
    } finally {
      await app.stop();
      await fake.close();
    }
  }, 90_000);

  it('a primary demoted alive (manual failover): connections move to the new primary and writes succeed', async () => {
    const own = await startSentinelSet();
    const client = createResilientClient({ url: own.url, name: 'demoted' });
    await client.connect();
    try {
      await client.set('sentinel-test:k', '1');
      const before = (await own.primaryPort())!;
      // Any Sentinel may run it; it demotes the primary without killing it.
      const { createClient } = await import('redis');
      const s = createClient({ socket: { port: own.ports.sentinels[0]!, host: '127.0.0.1' } });
      s.on('error', () => {});
      await s.connect();
      await s.sendCommand(['SENTINEL', 'failover', SENTINEL_NAME]);
      s.destroy();
      await own.promotedFrom(before);
      const end = Date.now() + 10_000;
      let wrote = false;
      while (!wrote && Date.now() < end) {
        try {
          await client.incr('sentinel-test:k');
          wrote = true;
        } catch {
          await sleep(200);
        }
      }
      expect(wrote).toBe(true);
      const role = (await client.sendCommand(['ROLE'])) as unknown[];
      expect(role[0]).toBe('master');
      expect(await client.get('sentinel-test:k')).toBe('2');
    } finally {
      client.destroy();
      await own.stop();
    }
  }, 60_000);
});
