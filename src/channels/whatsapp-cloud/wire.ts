/**
 * The Cloud API transport in the running app (called by src/app/channels.ts when
 * WHATSAPP_TRANSPORT=cloud): settings in, the webhook on the app's HTTP server, the adapter on the
 * engine, undeliverable order updates to the support desk.
 */
import type { Config } from '../../config/env.js';
import type { HttpRoute } from '../../http/index.js';
import type { Logger } from '../../log/logger.js';
import { redisMediaStore } from '../../store/media.js';
import type { ChannelAdapter } from '../types.js';
import {
  createWhatsAppCloudChannel,
  type WhatsAppCloudChannel,
  type WhatsAppCloudOptions,
} from './channel.js';
import type { RetryOptions } from './outbound/outbound.js';
import type { PacingOptions } from './outbound/pacing.js';

/** Test seams: quicker pacing and retries than Meta's. */
export interface CloudSeams {
  pacing?: PacingOptions;
  retry?: RetryOptions;
}

/** The parts of the running app the transport uses (the app's `AppParts` satisfies it). */
export interface CloudParts {
  config: Config;
  logger: Logger;
  i18n: WhatsAppCloudOptions['i18n'];
  engine: WhatsAppCloudOptions['conversation'] & { registerChannel(adapter: ChannelAdapter): void };
  redis?: WhatsAppCloudOptions['redis'];
  prefix: string;
  tracker: { registry: NonNullable<WhatsAppCloudOptions['registry']> };
  /** Late-bound: the support desk is wired after the channels. */
  escalation: { escalate?: NonNullable<WhatsAppCloudOptions['onUndeliverable']> };
  http: { addRoute(route: HttpRoute): void };
}

/** Creates the channel, mounts its webhook and registers its adapter; `start()` it with the others. */
export function wireWhatsAppCloud(parts: CloudParts, seams: CloudSeams = {}): WhatsAppCloudChannel {
  const { config } = parts;
  const { WHATSAPP_CLOUD_TOKEN, WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_APP_SECRET, WHATSAPP_VERIFY_TOKEN } =
    config;
  // loadConfig refuses these by name; this guards callers that built a Config by hand.
  if (!WHATSAPP_CLOUD_TOKEN || !WHATSAPP_PHONE_NUMBER_ID || !WHATSAPP_APP_SECRET || !WHATSAPP_VERIFY_TOKEN)
    throw new Error(
      'WHATSAPP_TRANSPORT=cloud needs WHATSAPP_CLOUD_TOKEN, WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_APP_SECRET and WHATSAPP_VERIFY_TOKEN',
    );
  if (!parts.redis) throw new Error('WHATSAPP_TRANSPORT=cloud needs REDIS_URL');
  const channel = createWhatsAppCloudChannel({
    conversation: parts.engine,
    i18n: parts.i18n,
    redis: parts.redis,
    logger: parts.logger,
    phoneNumberId: WHATSAPP_PHONE_NUMBER_ID,
    token: WHATSAPP_CLOUD_TOKEN,
    appSecret: WHATSAPP_APP_SECRET,
    verifyToken: WHATSAPP_VERIFY_TOKEN,
    graphUrl: config.WHATSAPP_GRAPH_API_URL,
    template: {
      name: config.WHATSAPP_TEMPLATE_NAME,
      languages: { en: config.WHATSAPP_TEMPLATE_LANGUAGE_EN, sw: config.WHATSAPP_TEMPLATE_LANGUAGE_SW },
    },
    keyPrefix: `${parts.prefix}wa-cloud:`,
    // The app's media store (the same keys as src/app's): pictures the flows named.
    media: redisMediaStore(parts.redis, parts.prefix),
    pacing: { mps: config.WHATSAPP_CLOUD_MPS, ...seams.pacing },
    retry: seams.retry,
    registry: parts.tracker.registry,
    maxMessageAgeMs: config.WHATSAPP_MAX_MESSAGE_AGE_MS,
    // The app's stop drains HTTP for up to half of SHUTDOWN_TIMEOUT_MS; the channel gets a quarter.
    stopTimeoutMs: Math.floor(config.SHUTDOWN_TIMEOUT_MS / 4),
    // Late-bound: the support desk is wired after the channels.
    onUndeliverable: async (e) => {
      if (!parts.escalation.escalate) throw new Error('the support desk is not wired yet');
      await parts.escalation.escalate(e);
    },
  });
  parts.engine.registerChannel(channel.adapter);
  for (const route of channel.routes) parts.http.addRoute(route);
  parts.logger.info(
    { path: channel.webhookPath },
    'WhatsApp: Cloud API transport (set this path as the webhook in the Meta app)',
  );
  return channel;
}
