/**
 * WhatsApp through Meta's official Cloud API: real reply buttons and lists, a webhook on the app's
 * HTTP server, the same flows and texts as every channel. A second transport behind the same
 * `whatsapp` channel as baileys (src/channels/whatsapp), chosen by WHATSAPP_TRANSPORT.
 */
import { Registry } from 'prom-client';
import type { RedisClientType } from 'redis';
import type { Locale, UserRef } from '../../chat/types.js';
import { normalizeKenyanPhone } from '../../domain/phone.js';
import type { HttpRoute } from '../../http/index.js';
import type { Logger } from '../../log/logger.js';
import { StoreUnavailableError } from '../../store/errors.js';
import type { ChannelAdapter, Conversation } from '../types.js';
import type { Translator } from '../whatsapp/menu.js';
import { createGraphClient } from './graph.js';
import { isStaleTap, readMessage, typedChoice, typedMenuSchema } from './inbound.js';
import { cloudKeys } from './keys.js';
import { createCloudMetrics } from './metrics.js';
import { createOutbound, type RetryOptions, type UndeliverableEscalation } from './outbound.js';
import { createCloudPacer, type PacingOptions } from './pacer.js';
import type { TypedMenu } from './render.js';
import type { InboundMessage, WebhookBatch } from './schemas.js';
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

const SEEN_TTL_SECONDS = 7 * 24 * 3600;

/** A per-key chain: one user's work in order, different users side by side. */
function createQueues() {
  const queues = new Map<string, Promise<void>>();
  return {
    run<T>(key: string, work: () => Promise<T>): Promise<T> {
      const previous = queues.get(key) ?? Promise.resolve();
      const result = previous.then(work);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      queues.set(key, tail);
      void tail.then(() => {
        if (queues.get(key) === tail) queues.delete(key);
      });
      return result;
    },
    async idle() {
      while (queues.size) await Promise.allSettled([...queues.values()]);
    },
  };
}

/** Creates the Cloud API channel; mount `routes`, register `adapter`, then `start()`. */
export function createWhatsAppCloudChannel(opts: WhatsAppCloudOptions): WhatsAppCloudChannel {
  const { conversation, i18n, redis, logger } = opts;
  const keys = cloudKeys(opts.keyPrefix ?? 'rampchat:wa-cloud:', opts.phoneNumberId);
  const log = logger.child({ channel: 'whatsapp', transport: 'cloud' });
  const metrics = createCloudMetrics(opts.registry ?? new Registry());
  const graph = createGraphClient({
    baseUrl: opts.graphUrl,
    phoneNumberId: opts.phoneNumberId,
    token: opts.token,
    timeoutMs: opts.graphTimeoutMs,
  });
  const book = createWindowBook(redis, keys);
  const outbound = createOutbound({
    graph,
    pacer: createCloudPacer(redis, keys, opts.pacing),
    book,
    redis,
    keys,
    i18n,
    template: opts.template,
    metrics,
    logger,
    retry: opts.retry,
    onUndeliverable: opts.onUndeliverable,
    now: opts.now,
  });
  const inbound = createQueues();
  const sends = createQueues();
  let taking = false;

  const adapter: ChannelAdapter = {
    name: 'whatsapp',
    capabilities: { editMessages: false, buttons: true },
    send: (waId, message, locale) => sends.run(waId, () => outbound.send(waId, message, locale)),
  };

  async function localeOf(waId: string): Promise<Locale> {
    return (await redis.hGet(keys.locales, waId)) === 'sw' ? 'sw' : 'en';
  }

  async function readMenu(key: string): Promise<TypedMenu | undefined> {
    const raw = await redis.get(key);
    if (!raw) return undefined;
    try {
      const parsed = typedMenuSchema.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  /** One message from a user, in that user's order. */
  async function handleMessage(msg: InboundMessage): Promise<void> {
    const waId = msg.from;
    await book.noteInbound(waId, Number(msg.timestamp) * 1000);
    const incoming = readMessage(msg);
    if (incoming.kind === 'ignore') return;
    // Blue ticks and "typing…" while the answer (often a ramp call) is prepared.
    graph.markRead(msg.id, true).catch((err) => log.debug({ err: err.message }, 'mark-as-read failed'));
    // Messages a template stood in for while the window was closed come first, in full.
    for (const held of await book.takeHeld(waId))
      await adapter.send(waId, { ...held.message, notice: true }, held.locale);
    const say = async (id: string) =>
      sends.run(waId, async () => outbound.say(waId, i18n.t(await localeOf(waId), { id })));
    if (incoming.kind === 'unsupported') return say('wa-text-only');

    let input = incoming.input;
    if (input.kind === 'button') {
      const question = (await redis.get(keys.question(waId))) ?? undefined;
      if (isStaleTap(input.id, incoming.tapOn, question)) return say('wa-cloud-button-stale');
    } else if (input.kind === 'text') {
      const [question, notice] = await Promise.all([
        readMenu(keys.menu(waId)),
        readMenu(keys.noticeMenu(waId)),
      ]);
      const id = typedChoice(input.text, question, notice);
      if (id) input = { kind: 'button', id };
    }
    const user: UserRef = { channel: 'whatsapp', id: waId };
    const phone = normalizeKenyanPhone(waId);
    try {
      await conversation.handle(user, input, { updateId: msg.id, ...(phone ? { hints: { phone } } : {}) });
    } catch (err) {
      // Redis went down after the message was taken: the user was asked to try again.
      if (!(err instanceof StoreUnavailableError)) throw err;
      log.warn({ phone: waId }, 'Redis is down: the user was asked to send the message again');
    }
  }

  async function accept(batch: WebhookBatch): Promise<WebhookBatch> {
    const fresh = [];
    for (const msg of batch.messages) {
      const claimed = await redis.set(keys.seen(msg.id), '1', {
        condition: 'NX',
        expiration: { type: 'EX', value: SEEN_TTL_SECONDS },
      });
      if (claimed === 'OK') fresh.push(msg);
      else log.debug({ messageId: msg.id }, 'a redelivered WhatsApp message was dropped');
    }
    return { messages: fresh, statuses: batch.statuses };
  }

  function process(batch: WebhookBatch): void {
    const fail = (err: unknown) =>
      log.error(
        { err: err instanceof Error ? err.message : String(err) },
        'failed to handle a WhatsApp webhook item',
      );
    for (const msg of batch.messages) inbound.run(msg.from, () => handleMessage(msg)).catch(fail);
    for (const status of batch.statuses)
      sends.run(status.recipient_id, () => outbound.onStatus(status)).catch(fail);
  }

  const webhookPath = opts.webhookPath ?? '/whatsapp/webhook';
  const routes = webhookRoutes({
    path: webhookPath,
    appSecret: opts.appSecret,
    verifyToken: opts.verifyToken,
    phoneNumberId: opts.phoneNumberId,
    accept: async (batch) => {
      if (!taking) throw new Error('the WhatsApp Cloud channel is not running');
      return accept(batch);
    },
    process,
    metrics,
    logger,
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
