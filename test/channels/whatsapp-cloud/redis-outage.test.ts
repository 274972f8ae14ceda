/**
 * Redis down under the Cloud API webhook (a redis-server of this test's own): a post is answered
 * 503 with nothing taken, so Meta delivers it again; once Redis is back the redelivery is handled,
 * once.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RedisClientType } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import { createWhatsAppCloudChannel } from '../../../src/channels/whatsapp-cloud/index.js';
import { createHttpServer } from '../../../src/http/index.js';
import { loadI18n } from '../../../src/i18n/index.js';
import { createLogger } from '../../../src/log/logger.js';
import { connectRedis } from '../../../src/store/index.js';
import { FakeWhatsAppGraphApi } from '../../fakes/whatsapp-graph-api.js';
import { freePort, type OwnRedis, ownRedis } from '../../helpers/redis-server.js';
import { recordingConversation, waitFor } from '../whatsapp/helpers.js';
import { APP_SECRET, PHONE_NUMBER_ID, TOKEN, VERIFY_TOKEN } from './helpers.js';

let redis: OwnRedis | undefined;
afterAll(async () => redis?.kill());

describe('the Cloud API webhook while Redis is down', () => {
  it('answers 503 and takes nothing; the redelivery after Redis is back is handled once', async () => {
    redis = ownRedis({
      port: await freePort(),
      dir: mkdtempSync(join(tmpdir(), 'rampchat-wa-outage-')),
      aof: false,
    });
    await redis.start();
    const client = (await connectRedis({ url: redis.url, name: 'test' })) as RedisClientType;
    const fake = await FakeWhatsAppGraphApi.start({
      token: TOKEN,
      phoneNumberId: PHONE_NUMBER_ID,
      appSecret: APP_SECRET,
    });
    const conversation = recordingConversation();
    const channel = createWhatsAppCloudChannel({
      conversation,
      i18n: loadI18n(),
      redis: client,
      logger: createLogger({ level: 'silent' }),
      phoneNumberId: PHONE_NUMBER_ID,
      token: TOKEN,
      appSecret: APP_SECRET,
      verifyToken: VERIFY_TOKEN,
      graphUrl: fake.graphUrl,
      template: { name: 'rampchat_update', languages: { en: 'en', sw: 'sw' } },
    });
    const http = createHttpServer({ health: async () => ({ ok: true, details: {} }), processMetrics: false });
    for (const route of channel.routes) http.addRoute(route);
    fake.webhookUrl = `${(await http.listen(0, '127.0.0.1')).url}${channel.webhookPath}`;
    await channel.start();
    try {
      await redis.kill();
      await new Promise((r) => setTimeout(r, 300));
      const during = await fake.sendText('254711000009', 'hi');
      expect(during.status).toBe(503);
      await new Promise((r) => setTimeout(r, 100));
      expect(conversation.handled).toEqual([]);

      await redis.start();
      await waitFor(() => client.isReady, 10_000, 'the client to reconnect');
      expect(await fake.post(during.body)).toBe(200);
      await waitFor(() => conversation.handled.length === 1, 5000, 'the redelivered message');
      expect(await fake.post(during.body)).toBe(200);
      await new Promise((r) => setTimeout(r, 100));
      await channel.idle();
      expect(conversation.handled).toHaveLength(1);
      expect(conversation.handled[0]).toMatchObject({
        updateId: during.id,
        input: { kind: 'text', text: 'hi' },
      });
    } finally {
      await channel.stop();
      await http.close();
      await fake.close();
      await client.quit().catch(() => {});
    }
  });
});
