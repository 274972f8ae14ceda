/**
 * A webhook post is answered 200 only once its update was handled. A chat whose lock another replica
 * holds past the lock wait (a replica that died mid-update) is answered 503, nothing done, and handled
 * on the redelivery once the lock is gone; a post whose handling outlasts the webhook timeout is
 * answered 503 too, never 200 while it still runs. Real grammY against the fake Bot API, real HTTP,
 * the real engine on real Redis.
 */
import { describe, expect, it } from 'vitest';
import { createTelegramChannel, type TelegramChannel } from '../../../src/channels/telegram/index.js';
import type { Conversation } from '../../../src/channels/types.js';
import { createHttpServer, type HttpServer } from '../../../src/http/index.js';
import { loadI18n } from '../../../src/i18n/index.js';
import { createLogger } from '../../../src/log/logger.js';
import { FakeTelegramBotApi } from '../../fakes/telegram-bot-api.js';
import { redisForFile, uniquePrefix } from '../../helpers/redis.js';
import { redisEngine, ScriptedConversation } from './helpers.js';

const TOKEN = '123456789:test-token-webhook-ack-not-real';
const SECRET = 'hook-secret_ack_42';
const logger = createLogger({ level: 'silent' });

const file = redisForFile();
const { prefixes, cleanups } = file;

/** A webhook replica: the channel mounted on an HTTP server, the fake Bot API posting to it. */
async function replica(conversation: Conversation, webhookTimeoutMs?: number) {
  const fake = await FakeTelegramBotApi.start({ token: TOKEN });
  const http: HttpServer = createHttpServer({
    health: async () => ({ ok: true, details: {} }),
    processMetrics: false,
  });
  const { url } = await http.listen(0, '127.0.0.1');
  const channel: TelegramChannel = createTelegramChannel({
    token: TOKEN,
    apiRoot: fake.url,
    conversation,
    i18n: loadI18n(),
    logger,
    webhook: { url: `${url}/telegram/hook`, secretToken: SECRET },
    ...(webhookTimeoutMs ? { webhookTimeoutMs } : {}),
  });
  http.addRoute({ method: 'POST', path: channel.webhookPath!, handler: channel.webhookHandler! });
  await channel.start();
  cleanups.push(async () => {
    await channel.stop();
    await http.close();
    await fake.close();
  });
  return { fake, channel };
}

const statusOf = (fake: FakeTelegramBotApi, updateId: number) => () =>
  fake.webhookDeliveries.find((d) => d.updateId === updateId)?.status;

describe('webhook acknowledgement', () => {
  it('a chat held by another replica past the lock wait is answered 503, then handled on redelivery', async () => {
    const prefix = uniquePrefix('whack');
    prefixes.push(prefix);
    const engine = await redisEngine(file.redis, prefix, logger);
    const { fake, channel } = await replica(engine);
    engine.registerChannel(channel.adapter);
    const chat = 6161;
    // A replica that died mid-update left the chat's lock (it lapses after its time to live).
    await file.redis.set(`${prefix}chat-lock:telegram:${chat}`, 'dead-replica', {
      expiration: { type: 'PX', value: 60_000 },
    });
    const started = Date.now();
    const id = fake.sendText(chat, '/help');
    const status = await fake.waitFor(statusOf(fake, id), 20_000, 'the webhook answer');
    expect(status).toBe(503);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(fake.sentMessages(chat).filter((m) => m.from === 'bot')).toEqual([]);

    await file.redis.del(`${prefix}chat-lock:telegram:${chat}`);
    fake.redeliver(id);
    await fake.waitFor(() => fake.webhookDeliveries.filter((d) => d.updateId === id).length === 2, 10_000);
    expect(fake.webhookDeliveries.map((d) => d.status)).toEqual([503, 200]);
    expect(fake.sentMessages(chat).filter((m) => m.from === 'bot').length).toBeGreaterThan(0);
    await engine.idle();
  }, 30_000);

  it('an update still running when the webhook times out is answered 503, not 200', async () => {
    const conversation = new ScriptedConversation();
    let finished = false;
    conversation.script = async () => {
      await new Promise((r) => setTimeout(r, 1500));
      finished = true;
    };
    const { fake } = await replica(conversation, 500);
    const id = fake.sendText(6262, 'hello');
    const status = await fake.waitFor(statusOf(fake, id), 5000, 'the webhook answer');
    expect(status).toBe(503);
    expect(finished).toBe(false);
  });
});
