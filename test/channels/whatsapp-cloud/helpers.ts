/**
 * The Cloud API channel on a real HTTP server (the app's own server module), real Redis and the
 * fake Graph API at the wire; Meta's side posts signed webhooks to it. Pacing and retry pauses are
 * shortened so tests run fast; the code paths are the production ones.
 */
import type { Writable } from 'node:stream';
import type { RedisClientType } from 'redis';
import type { Conversation } from '../../../src/channels/types.js';
import {
  createWhatsAppCloudChannel,
  type UndeliverableEscalation,
  type WhatsAppCloudChannel,
} from '../../../src/channels/whatsapp-cloud/index.js';
import { createHttpServer, type HttpServer } from '../../../src/http/index.js';
import { loadI18n } from '../../../src/i18n/index.js';
import { createLogger } from '../../../src/log/logger.js';
import { type FakeGraphOptions, FakeWhatsAppGraphApi } from '../../fakes/whatsapp-graph-api.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../../helpers/redis.js';
import { recordingConversation } from '../whatsapp/helpers.js';

export const TOKEN = 'EAAG-test-cloud-token-0123456789';
export const PHONE_NUMBER_ID = '106540352242922';
export const APP_SECRET = 'test-app-secret-abcdef0123456789';
export const VERIFY_TOKEN = 'verify-token-for-tests-0123';

/** The options every test replica shares: the fake's Graph API, the test template, one key prefix. */
export const replicaOptions = (fake: FakeWhatsAppGraphApi, redis: RedisClientType, keyPrefix: string) => ({
  i18n: loadI18n(),
  redis,
  logger: createLogger({ level: 'silent' }),
  phoneNumberId: PHONE_NUMBER_ID,
  token: TOKEN,
  appSecret: APP_SECRET,
  verifyToken: VERIFY_TOKEN,
  graphUrl: fake.graphUrl,
  template: { name: 'rampchat_update', languages: { en: 'en' as const, sw: 'sw' as const } },
  keyPrefix,
});

/** Serves `channel`'s webhook on a server of its own, points the fake at it, and starts the channel. */
export async function serveReplica(
  channel: WhatsAppCloudChannel,
  fake: FakeWhatsAppGraphApi,
): Promise<HttpServer> {
  const http = createHttpServer({ health: async () => ({ ok: true, details: {} }), processMetrics: false });
  for (const route of channel.routes) http.addRoute(route);
  const { url } = await http.listen(0, '127.0.0.1');
  fake.webhookUrl = `${url}${channel.webhookPath}`;
  await channel.start();
  return http;
}

export interface CloudRig {
  fake: FakeWhatsAppGraphApi;
  channel: WhatsAppCloudChannel;
  conversation: ReturnType<typeof recordingConversation>;
  redis: RedisClientType;
  http: HttpServer;
  prefix: string;
  escalations: UndeliverableEscalation[];
  stop(): Promise<void>;
}

export interface CloudRigOptions {
  windowFailure?: FakeGraphOptions['windowFailure'];
  /** What the conversation does with each input (default: nothing). */
  answer?: Parameters<typeof recordingConversation>[0];
  /** Use this conversation instead of a recording one. */
  conversation?: Conversation;
  /** Logs at trace level go here (default: no logs). */
  logs?: Writable;
}

export async function startCloudRig(opts: CloudRigOptions = {}): Promise<CloudRig> {
  const fake = await FakeWhatsAppGraphApi.start({
    token: TOKEN,
    phoneNumberId: PHONE_NUMBER_ID,
    appSecret: APP_SECRET,
    windowFailure: opts.windowFailure,
  });
  const redis = await connectTestRedis();
  const prefix = uniquePrefix('wacloud');
  const escalations: UndeliverableEscalation[] = [];
  const recording = recordingConversation(opts.answer);
  const channel = createWhatsAppCloudChannel({
    ...replicaOptions(fake, redis, prefix),
    conversation: opts.conversation ?? recording,
    ...(opts.logs ? { logger: createLogger({ level: 'trace', destination: opts.logs }) } : {}),
    pacing: { mps: 200, pairIntervalMs: 10, pairBurst: 50 },
    retry: { baseMs: 20, pairMs: 40 },
    onUndeliverable: async (e) => {
      escalations.push(e);
    },
  });
  const http = await serveReplica(channel, fake);
  return {
    fake,
    channel,
    conversation: recording,
    redis,
    http,
    prefix,
    escalations,
    async stop() {
      await channel.stop();
      await http.close();
      await fake.close();
      await flushPrefix(redis, prefix);
      await redis.quit();
    },
  };
}
