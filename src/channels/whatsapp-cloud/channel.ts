/**
 * WhatsApp through Meta's official Cloud API: real reply buttons and lists, a webhook on the app's
 * HTTP server, the same flows and texts as every channel. A second transport behind the same
 * `whatsapp` channel as baileys (src/channels/whatsapp), chosen by WHATSAPP_TRANSPORT.
 * The parts: webhook.ts (verification, signature, body), intake.ts (de-duplication, per-user
 * queues), handle-message.ts (one message in), outbound.ts (messages out).
 */
import { Registry } from 'prom-client';
import type { RedisClientType } from 'redis';
import type { HttpRoute } from '../../http/index.js';
import type { Logger } from '../../log/logger.js';
import { classOfMessage } from '../outbound-class.js';
import type { ChannelAdapter, Conversation } from '../types.js';
import type { Translator } from '../whatsapp/menu.js';
import { type CloudChannelContext, sendQueue } from './channel-context.js';
import { createGraphClient } from './graph.js';
import { claimFresh, dispatch } from './intake.js';
import { type CloudKeys, cloudKeys } from './keys.js';
import { type CloudMetrics, createCloudMetrics } from './metrics.js';
import { createOutbound, type RetryOptions, type UndeliverableEscalation } from './outbound.js';
import { createCloudPacing, type PacingOptions } from './pacing.js';
import { createQueues } from './queues.js';
import type { TemplateSettings } from './template.js';
import { webhookRoutes } from './webhook.js';
import { createWindowBook } from './window.js';

export interface WhatsAppCloudOptions {
  conversation: Conversation;
  i18n: Translator;
  redis: RedisClientType;
  logger: Logger;
  /** The business phone number's ID (not the number). */
  phoneNumberId: string;
  /** Access token (Authorization header only; never logged). */
  token: string;
  appSecret: string;
  verifyToken: string;
  /** Graph API root with its version, e.g. `https://graph.facebook.com/v23.0`. */
  graphUrl: string;
  template: TemplateSettings;
  /** Prefix of every Redis key (default `rampchat:wa-cloud:`). */
  keyPrefix?: string;
  /** Where the webhook is served (default `/whatsapp/webhook`). */
  webhookPath?: string;
  pacing?: PacingOptions;
  retry?: RetryOptions;
  graphTimeoutMs?: number;
  registry?: Registry;
  /** Where an order update goes when its user can no longer be told (the support desk). */
  onUndeliverable?: (e: UndeliverableEscalation) => Promise<void>;
  now?: () => number;
}

export interface WhatsAppCloudChannel {
  readonly adapter: ChannelAdapter;
  /** The webhook's GET (verification) and POST routes, for the app's HTTP server. */
  readonly routes: HttpRoute[];
  readonly webhookPath: string;
  /** Starts taking webhook posts (before, and after stop, they are answered 503). */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Resolves once every message taken so far is handled and every send is done. */
  idle(): Promise<void>;
}

/** The Graph client, the window book and the outbound side, built from the options. */
function createClients(opts: WhatsAppCloudOptions, keys: CloudKeys, metrics: CloudMetrics) {
  const graph = createGraphClient({
    baseUrl: opts.graphUrl,
    phoneNumberId: opts.phoneNumberId,
    token: opts.token,
    timeoutMs: opts.graphTimeoutMs,
  });
  const book = createWindowBook(opts.redis, keys);
  const outbound = createOutbound({
    graph,
    pacing: createCloudPacing(
      opts.redis,
      keys,
      opts.pacing,
      opts.logger.child({ channel: 'whatsapp', transport: 'cloud' }),
    ),
    book,
    redis: opts.redis,
    keys,
    i18n: opts.i18n,
    template: opts.template,
    metrics,
    logger: opts.logger,
    retry: opts.retry,
    onUndeliverable: opts.onUndeliverable,
    now: opts.now,
  });
  return { graph, book, outbound };
}

/** Creates the Cloud API channel; mount `routes`, register `adapter`, then `start()`. */
export function createWhatsAppCloudChannel(opts: WhatsAppCloudOptions): WhatsAppCloudChannel {
  const keys = cloudKeys(opts.keyPrefix ?? 'rampchat:wa-cloud:', opts.phoneNumberId);
  const log = opts.logger.child({ channel: 'whatsapp', transport: 'cloud' });
  const metrics = createCloudMetrics(opts.registry ?? new Registry());
  const { graph, book, outbound } = createClients(opts, keys, metrics);
  const inbound = createQueues();
  const sends = createQueues();
  const adapter: ChannelAdapter = {
    name: 'whatsapp',
    capabilities: { editMessages: false, buttons: true },
    // One queue per user and class: a reply need not wait for the user's queued progress or notices.
    send: (waId, message, locale) =>
      sends.run(sendQueue(waId, classOfMessage(message)), () => outbound.send(waId, message, locale)),
  };
  const ctx: CloudChannelContext = {
    conversation: opts.conversation,
    i18n: opts.i18n,
    redis: opts.redis,
    keys,
    log,
    graph,
    book,
    outbound,
    adapter,
    inbound,
    sends,
  };
  let taking = false;

  const webhookPath = opts.webhookPath ?? '/whatsapp/webhook';
  const routes = webhookRoutes({
    path: webhookPath,
    appSecret: opts.appSecret,
    verifyToken: opts.verifyToken,
    phoneNumberId: opts.phoneNumberId,
    accept: async (batch) => {
      if (!taking) throw new Error('the WhatsApp Cloud channel is not running');
      return claimFresh(ctx, batch);
    },
    process: (batch) => dispatch(ctx, batch),
    metrics,
    logger: opts.logger,
  });

  return {
    adapter,
    routes,
    webhookPath,
    async start() {
      taking = true;
      log.info({ path: webhookPath }, 'WhatsApp Cloud API webhook ready');
    },
    async stop() {
      taking = false;
      await inbound.idle();
      await sends.idle();
    },
    async idle() {
      await inbound.idle();
      await sends.idle();
      await inbound.idle();
    },
  };
}
