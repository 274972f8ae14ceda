/**
 * WhatsApp through Meta's official Cloud API: real reply buttons and lists, a webhook on the app's
 * HTTP server, the same flows and texts as every channel. A second transport behind the same
 * `whatsapp` channel as baileys (src/channels/whatsapp), chosen by WHATSAPP_TRANSPORT.
 *
 * Every Graph message goes through the number's outbox (src/outbound/outbox.ts): one a stopping or
 * dead replica had not sent is sent by another. A stop (bounded by `stopTimeoutMs`) hands the outbox
 * over at once; a message not in it yet goes back through Redis (`handback`), for any running
 * replica (each looks every `handbackPollMs`) to send.
 */
import { Registry } from 'prom-client';
import type { RedisClientType } from 'redis';
import * as z from 'zod';
import { HandedOverError, type Locale, type OutMessage } from '../../chat/types.js';
import type { HttpRoute } from '../../http/index.js';
import type { Logger } from '../../log/logger.js';
import type { SendScope } from '../../outbound/index.js';
import { classOfMessage } from '../outbound-class.js';
import type { ChannelAdapter, Conversation } from '../types.js';
import type { Translator } from '../whatsapp/send/menu.js';
import { type CloudChannelContext, sendQueue } from './channel-context.js';
import { createGraphClient } from './graph.js';
import { safeJson } from './inbound/inbox.js';
import { createIntake, DEFAULT_MAX_MESSAGE_AGE_MS } from './inbound/intake.js';
import { webhookRoutes } from './inbound/webhook.js';
import { type CloudKeys, cloudKeys } from './keys.js';
import { type CloudMetrics, createCloudMetrics } from './metrics.js';
import { createOutbound, type RetryOptions, type UndeliverableEscalation } from './outbound/outbound.js';
import type { OutboundDeps } from './outbound/outbound-types.js';
import { createCloudPacing, type PacingOptions } from './outbound/pacing.js';
import { createQueues } from './outbound/queues.js';
import { createWindowBook } from './outbound/window.js';
import type { TemplateSettings } from './render/template.js';

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
  /** Messages older than this by their timestamp are not answered (default 24 h). */
  maxMessageAgeMs?: number;
  /** How long `stop()` may take; then the paced backlog is handed back to another replica (default 10 s). */
  stopTimeoutMs?: number;
  /** How often a running channel looks for messages another process handed back (default 2 s). */
  handbackPollMs?: number;
  /** Where the pictures messages name are kept (src/store/media.ts). */
  media?: OutboundDeps['media'];
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
function createClients(
  opts: WhatsAppCloudOptions,
  keys: CloudKeys,
  metrics: CloudMetrics,
  signal: AbortSignal,
) {
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
    signal,
    media: opts.media,
  });
  return { graph, book, outbound };
}

/** Creates the Cloud API channel; mount `routes`, register `adapter`, then `start()`. */
export function createWhatsAppCloudChannel(opts: WhatsAppCloudOptions): WhatsAppCloudChannel {
  const keys = cloudKeys(opts.keyPrefix ?? 'rampchat:wa-cloud:', opts.phoneNumberId);
  const log = opts.logger.child({ channel: 'whatsapp', transport: 'cloud' });
  const metrics = createCloudMetrics(opts.registry ?? new Registry());
  const stopping = new AbortController();
  const { graph, book, outbound } = createClients(opts, keys, metrics, stopping.signal);
  const inbound = createQueues();
  const sends = createQueues();
  const now = opts.now ?? Date.now;
  let handedBack = 0;

  /** A message this process will not send: for another replica (the `handback` list). */
  const handBack = async (item: HandedBack) => {
    try {
      await opts.redis.rPush(keys.handback, JSON.stringify(item));
      handedBack += 1;
    } catch (err) {
      log.error(
        { phone: item.waId, err: err instanceof Error ? err.message : String(err) },
        'stopping: could not hand a WhatsApp message back (Redis down); it is lost',
      );
    }
  };
  /** One message at its turn; given up at a stop before any part went out, it is handed back. */
  const sendOrHandBack = async (waId: string, message: OutMessage, locale: Locale, scope?: SendScope) => {
    const item: HandedBack = { waId, message, locale, at: now() };
    if (stopping.signal.aborted) return handBack(item);
    const posted = { n: 0 };
    try {
      await outbound.send(waId, message, locale, Object.assign({}, scope, { posted }));
    } catch (err) {
      // In the outbox: another replica sends it.
      if (err instanceof HandedOverError) return;
      if (!stopping.signal.aborted || err !== stopping.signal.reason) throw err;
      if (posted.n === 0) return handBack(item);
      log.warn({ phone: waId, sent: posted.n }, 'stopping: a message was cut short after some of its parts');
    }
  };
  const adapter: ChannelAdapter = {
    name: 'whatsapp',
    capabilities: { editMessages: false, buttons: true },
    // One queue per user and class: a reply need not wait for the user's queued progress or notices.
    send: (waId, message, locale, _scratch, scope) =>
      sends.run(sendQueue(waId, classOfMessage(message)), () => sendOrHandBack(waId, message, locale, scope)),
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
  const maxAgeMs = opts.maxMessageAgeMs ?? DEFAULT_MAX_MESSAGE_AGE_MS;
  const intake = createIntake(ctx, { maxAgeMs, now, pollMs: opts.handbackPollMs ?? 2000 });

  /** Takes up what stopping processes handed back (a batch per look), into this process's line. */
  let takingBack: Promise<void> | undefined;
  const takeBack = () =>
    (takingBack ??= (async () => {
      for (let i = 0; i < 500 && taking; i++) {
        const raw = await opts.redis.lPop(keys.handback);
        if (!raw) break;
        const parsed = handedBackSchema.safeParse(safeJson(raw));
        if (!parsed.success) continue;
        const { waId, message, locale, at } = parsed.data;
        if (now() - at > HANDBACK_MAX_AGE_MS) {
          log.warn({ phone: waId }, 'a handed-back WhatsApp message was too old to send; dropped');
          continue;
        }
        adapter
          .send(waId, message as OutMessage, locale)
          .catch((err: unknown) =>
            log.error({ phone: waId, err: (err as Error).message }, 'could not send a handed-back message'),
          );
      }
    })()
      .catch((err: unknown) =>
        log.warn({ err: (err as Error).message }, 'could not look for handed-back WhatsApp messages'),
      )
      .finally(() => {
        takingBack = undefined;
      }));
  let takeBackTimer: NodeJS.Timeout | undefined;

  const webhookPath = opts.webhookPath ?? '/whatsapp/webhook';
  const routes = webhookRoutes({
    path: webhookPath,
    appSecret: opts.appSecret,
    verifyToken: opts.verifyToken,
    phoneNumberId: opts.phoneNumberId,
    accept: async (batch) => {
      if (!taking) throw new Error('the WhatsApp Cloud channel is not running');
      return intake.claim(batch);
    },
    process: (batch) => intake.dispatch(batch),
    metrics,
    logger: opts.logger,
  });

  return {
    adapter,
    routes,
    webhookPath,
    async start() {
      await outbound.outbox.start();
      taking = true;
      intake.start();
      void takeBack();
      takeBackTimer = setInterval(() => void takeBack(), opts.handbackPollMs ?? 2000);
      takeBackTimer.unref();
      log.info({ path: webhookPath }, 'WhatsApp Cloud API webhook ready');
    },
    async stop() {
      taking = false;
      clearInterval(takeBackTimer);
      await intake.stop();
      await takingBack;
      const budget = opts.stopTimeoutMs ?? 10_000;
      // Nothing waits for its turn here any more: what is in the outbox is the other replicas' now,
      // and what had not reached it yet is handed back.
      stopping.abort(new Error('the WhatsApp Cloud channel is stopping'));
      await outbound.outbox.handOver(Math.floor(budget / 2));
      await within(
        (async () => {
          await inbound.idle();
          await sends.idle();
        })(),
        budget - Math.floor(budget / 2),
      );
      log.info(
        { handedBack, budgetMs: budget },
        'WhatsApp Cloud stopped: its backlog is for another replica',
      );
    },
    async idle() {
      await inbound.idle();
      await sends.idle();
      await inbound.idle();
    },
  };
}

/** A message handed back by a stopping process. */
const handedBackSchema = z.object({
  waId: z.string().regex(/^\d{5,20}$/),
  locale: z.enum(['en', 'sw']),
  at: z.number(),
  message: z.custom<OutMessage>((v) => typeof v === 'object' && v !== null && 'texts' in v),
});
type HandedBack = z.infer<typeof handedBackSchema>;
/** A handed-back message older than this is not sent (its news is stale). */
const HANDBACK_MAX_AGE_MS = 24 * 3600_000;

/** Resolves true when `work` settles within `ms`, false when the time runs out first. */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      work.then(
        () => true as const,
        () => true as const,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
