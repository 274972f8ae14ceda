/**
 * The chat channels the settings ask for, on the core parts: WhatsApp (baileys or the Cloud API),
 * Telegram, else the terminal chat. Each is imported on demand, so the terminal chat starts without
 * loading a bot library. Their stops are pushed last, so they stop first: no new input arrives while
 * the rest winds down.
 */
import type { Readable, Writable } from 'node:stream';
import type { TelegramChannel } from '../channels/telegram/index.js';
import { createTerminalChannel, type TerminalConfig } from '../channels/terminal/index.js';
import type { MakeWhatsAppSocket, PacingOptions, WhatsAppChannel } from '../channels/whatsapp/index.js';
import type { CloudSeams } from '../channels/whatsapp-cloud/wire.js';
import type { Config } from '../config/env.js';
import { pickLocale } from '../i18n/index.js';
import { type AppParts, mediaOf } from './extensions.js';
import type { Stops } from './stops.js';

/** What the terminal chat and the WhatsApp transports take from the caller (tests pass their own). */
export interface ChannelIo {
  stdin?: Readable;
  stdout?: Writable;
  /** Terminal chat settings (`terminalEnvSchema`). */
  terminal?: Partial<TerminalConfig>;
  /** The LANG of the environment, a fallback for the terminal's language. */
  lang?: string;
  /** Test seams of the WhatsApp transports: baileys' socket and pacing, the Cloud API's pacing and retries. */
  whatsapp?: { makeSocket?: MakeWhatsAppSocket; pacing?: PacingOptions; cloud?: CloudSeams };
}

/** Creates the channels and registers them on the engine (sets `parts.telegram` and the others). */
export async function wireChannels(
  config: Config,
  parts: AppParts,
  io: ChannelIo,
  stops: Stops,
): Promise<void> {
  if (config.WHATSAPP_ENABLED && config.WHATSAPP_TRANSPORT === 'cloud') {
    const { wireWhatsAppCloud } = await import('../channels/whatsapp-cloud/wire.js');
    const cloud = wireWhatsAppCloud(parts, io.whatsapp?.cloud);
    parts.whatsappCloud = cloud;
    stops.push(() => cloud.stop());
  } else if (config.WHATSAPP_ENABLED) {
    const whatsapp = await wireWhatsApp(config, parts, io.whatsapp);
    parts.whatsapp = whatsapp;
    stops.push(() => whatsapp.stop());
  }
  if (config.TELEGRAM_BOT_TOKEN) {
    const telegram = await wireTelegram(config, parts);
    parts.telegram = telegram;
    stops.push(() => telegram.stop());
    return;
  }
  const terminal = createTerminalChannel({
    input: io.stdin ?? process.stdin,
    output: io.stdout ?? process.stdout,
    i18n: parts.i18n,
    locale:
      io.terminal?.TERMINAL_LOCALE ??
      (io.lang ? pickLocale(io.lang.split('.')[0]?.replace('_', '-')) : undefined),
    eofGraceMs: io.terminal?.TERMINAL_EOF_GRACE_MS ?? 0,
    media: mediaOf(parts),
    openOrders: async (user) => {
      const { orders } = await parts.tracker.ordersOf(user, 1, 20);
      return orders.filter((o) => o.outcome === 'pending').length;
    },
  });
  parts.terminal = terminal;
  parts.engine.registerChannel(terminal);
  stops.push(async () => terminal.close());
}

/** Telegram: long polling, or a webhook served on HTTP_PORT when TELEGRAM_WEBHOOK_URL is set. */
async function wireTelegram(config: Config, parts: AppParts): Promise<TelegramChannel> {
  const { createTelegramChannel } = await import('../channels/telegram/index.js');
  const token = config.TELEGRAM_BOT_TOKEN as string;
  const webhook = config.TELEGRAM_WEBHOOK_URL
    ? { url: config.TELEGRAM_WEBHOOK_URL, secretToken: config.TELEGRAM_WEBHOOK_SECRET ?? '' }
    : undefined;
  if (webhook && !webhook.secretToken)
    throw new Error('TELEGRAM_WEBHOOK_URL is set, so TELEGRAM_WEBHOOK_SECRET is needed too');
  const telegram = createTelegramChannel({
    token,
    conversation: parts.engine,
    i18n: parts.i18n,
    logger: parts.logger,
    apiRoot: config.TELEGRAM_API_ROOT,
    startTimeoutMs: config.START_TIMEOUT_MS,
    registry: parts.tracker.registry,
    redis: parts.redis,
    redisPrefix: parts.prefix,
    media: mediaOf(parts),
    webhook,
    pacing: {
      redis: parts.redis,
      perSecond: config.TELEGRAM_SENDS_PER_SECOND,
      paidAfterMs: config.TELEGRAM_PAID_BROADCAST_AFTER_MS,
      paidPerSecond: config.TELEGRAM_PAID_SENDS_PER_SECOND,
    },
  });
  parts.engine.registerChannel(telegram.adapter);
  const handler = telegram.webhookHandler;
  if (handler && telegram.webhookPath)
    parts.http.addRoute({ method: 'POST', path: telegram.webhookPath, name: 'telegram-webhook', handler });
  return telegram;
}

/** WhatsApp (baileys) keeps its auth state and number lease in Redis, so it needs REDIS_URL. */
async function wireWhatsApp(
  config: Config,
  parts: AppParts,
  seams: ChannelIo['whatsapp'] = {},
): Promise<WhatsAppChannel> {
  // Refused by the settings check at start (src/config/production.ts); this guards in-process starts.
  if (!parts.redis)
    throw new Error('WHATSAPP_ENABLED=1 needs REDIS_URL (auth state and number lease live there)');
  const { createWhatsAppChannel } = await import('../channels/whatsapp/index.js');
  const whatsapp = createWhatsAppChannel({
    conversation: parts.engine,
    i18n: parts.i18n,
    redis: parts.redis,
    logger: parts.logger,
    keyPrefix: `${parts.prefix}wa:`,
    media: mediaOf(parts),
    registry: parts.tracker.registry,
    pairingNumber: config.WHATSAPP_PAIRING_NUMBER,
    ...(seams.makeSocket ? { makeSocket: seams.makeSocket } : {}),
    ...(seams.pacing ? { pacing: seams.pacing } : {}),
  });
  parts.engine.registerChannel(whatsapp.adapter);
  return whatsapp;
}
