/**
 * The Telegram channel on grammY: inbound updates become conversation inputs, outbound messages
 * become HTML messages with inline keyboards, and `replaceKey` messages are edited in place.
 *
 * Long polling is our own loop (./polling.ts) rather than `bot.start()` or @grammyjs/runner:
 * `bot.start()` handles one update at a time for the whole bot, so one user's slow step (an STK push
 * waits on the ramp for seconds) would hold every other user, and the runner acknowledges a batch at
 * Telegram (the next fetch's offset) while it is still being handled, so a killed process loses it.
 * The loop handles different chats concurrently, one middleware (./receive/in-order.ts) keeps each
 * chat's updates in order, which also keeps replies in order, and the offset moves only past handled
 * updates. The same middleware orders webhook deliveries, which Telegram may send in parallel.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Bot } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import { Counter, type Registry } from 'prom-client';
import type { Logger } from '../../log/logger.js';
import type { MediaStore } from '../../store/media.js';
import type { ChannelAdapter, Conversation } from '../types.js';
import { boundedCalls, createBot, type TelegramRetryOptions } from './api.js';
import type { TelegramDeps } from './deps.js';
import {
  type AllowedUpdate,
  createLifecycle,
  createWebhookHandler,
  type WebhookSettings,
} from './lifecycle.js';
import { ChatLocales } from './locale.js';
import { installInbound } from './receive/inbound.js';
import { createTelegramAdapter, deliverReplace } from './send/outbound.js';
import { createTelegramOutbox } from './send/outbox.js';
import { createTelegramPacing, type TelegramPacing, type TelegramPacingOptions } from './send/pacing.js';
import { sendPhoto } from './send/photo.js';
import type { TelegramI18n } from './send/render.js';
import { memoryChatState, redisChatState, type TelegramRedis } from './state.js';

export { TelegramRenderError } from './send/render.js';

/** Bot commands offered in the menu; each needs `tg-command-<name>` in locales/<lang>/telegram.ftl. */
export const DEFAULT_COMMANDS = [
  'start',
  'menu',
  'buy',
  'sell',
  'quote',
  'price',
  'history',
  'statement',
  'receipt',
  'save',
  'alerts',
  'settings',
  'help',
  'support',
  'cancel',
] as const;

/** Update kinds the bot asks Telegram for. */
export const DEFAULT_ALLOWED_UPDATES = ['message', 'callback_query'] as const;

export interface TelegramChannelOptions {
  token: string;
  conversation: Conversation;
  i18n: TelegramI18n;
  logger: Logger;
  /** Bot API root (a local fake in tests); default https://api.telegram.org. */
  apiRoot?: string;
  /** node-redis client for replaceKey message ids and keyboard state; memory without it. */
  redis?: TelegramRedis;
  /** Redis key prefix (default `rampchat:`). */
  redisPrefix?: string;
  /** Webhook mode: Telegram posts updates to `url`, each carrying `secretToken` in a header. */
  webhook?: WebhookSettings;
  /** Webhook mode: a post not handled within this is answered 503 (default WEBHOOK_TIMEOUT_MS, 50 s). */
  webhookTimeoutMs?: number;
  /** Commands for the menu (default DEFAULT_COMMANDS). */
  commands?: readonly string[];
  /** Update kinds to receive (default DEFAULT_ALLOWED_UPDATES); add more when other middleware needs them. */
  allowedUpdates?: readonly AllowedUpdate[];
  /** @deprecated Unused: edits are spaced by the chat's lane in the outbound line (one a second). */
  editIntervalMs?: number;
  /** Long-poll timeout in seconds (default 30). */
  pollTimeoutSeconds?: number;
  /** Retries of failed API calls (429 after retry_after, 5xx and network errors with backoff). */
  retry?: TelegramRetryOptions;
  /** Where the channel's metrics go (rampchat_telegram_throttled_total); none without it. */
  registry?: Registry;
  /** How long each call of `start()` (getMe, setWebhook, deleteWebhook) may take; default 15 s. */
  startTimeoutMs?: number;
  /** Known bot info: skips getMe (handy in tests). */
  botInfo?: UserFromGetMe;
  /**
   * Pacing within Telegram's limits. Its `redis` (a node-redis client) shares it with every replica;
   * without one it holds for this process only.
   */
  pacing?: Omit<TelegramPacingOptions, 'prefix'>;
  /** Where the pictures messages name are kept (src/store/media.ts). */
  media?: MediaStore;
}

export interface TelegramChannel {
  adapter: ChannelAdapter;
  /** The grammY bot: add middleware (support chat, …) before `start()`. */
  bot: Bot;
  /** The outbound line every send of this bot waits in. */
  pacing: TelegramPacing;
  /**
   * Telegram's start calls (getMe, the command menus, the webhook registered or removed), taking no
   * update: the app wires its capabilities meanwhile. Once; `start()` makes them if not made yet.
   */
  prepare(): Promise<void>;
  /** Prepares (if not done), starts the outbox, then long polling (a webhook's posts are served). */
  start(): Promise<void>;
  /** Stops polling, leaves what still waits in the outbox to other replicas, waits for updates being handled. */
  stop(): Promise<void>;
  /** Webhook mode only: the node:http handler to mount at `webhookPath` (401 on a wrong secret). */
  webhookHandler?: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /** Webhook mode only: the path of the webhook URL. */
  webhookPath?: string;
}

/** Creates the Telegram channel. Nothing talks to Telegram until `start()` (or a webhook request). */
export function createTelegramChannel(opts: TelegramChannelOptions): TelegramChannel {
  const log = opts.logger.child({ channel: 'telegram' });
  const { bounded, abortAll } = boundedCalls(opts.retry?.deadlineMs ?? 60_000);
  const pacing = createTelegramPacing(
    { ...opts.pacing, prefix: opts.redisPrefix, onPaid: paidCounter(opts.registry) },
    log,
  );
  const deps: TelegramDeps = {
    bot: createBot(opts.token, { ...opts, pacing, onThrottled: throttledCounter(opts.registry) }, log),
    token: opts.token,
    conversation: opts.conversation,
    i18n: opts.i18n,
    log,
    state: opts.redis ? redisChatState(opts.redis, opts.redisPrefix ?? 'rampchat:') : memoryChatState(),
    locales: new ChatLocales(),
    bounded,
    pacing,
    ...(opts.media ? { media: opts.media } : {}),
  };
  const outbox = createTelegramOutbox(
    deps,
    { redis: opts.pacing?.redis, prefix: opts.redisPrefix ?? 'rampchat:' },
    (chatId, id, content, paid) => deliverReplace(deps, chatId, id, content, paid),
    (chatId, body) => sendPhoto(deps, chatId, body),
  );
  pacing.outbox = outbox;
  const adapter = createTelegramAdapter(deps, outbox);
  const inflight = installInbound(deps, { webhook: opts.webhook !== undefined });
  const lifecycle = createLifecycle(deps, {
    webhook: opts.webhook,
    commands: opts.commands ?? DEFAULT_COMMANDS,
    allowedUpdates: [...(opts.allowedUpdates ?? DEFAULT_ALLOWED_UPDATES)],
    pollTimeoutSeconds: opts.pollTimeoutSeconds ?? 30,
    inflight,
    outbox,
    abortAll,
    startTimeoutMs: opts.startTimeoutMs ?? 15_000,
    apiRoot: opts.apiRoot ?? 'https://api.telegram.org',
  });
  return {
    adapter,
    bot: deps.bot,
    pacing,
    webhookHandler: opts.webhook
      ? createWebhookHandler(deps, opts.webhook, opts.webhookTimeoutMs)
      : undefined,
    webhookPath: opts.webhook ? new URL(opts.webhook.url).pathname : undefined,
    prepare: lifecycle.prepare,
    start: lifecycle.start,
    stop: lifecycle.stop,
  };
}

/** Counts Telegram's 429 answers by method on `registry` (reused when already registered). */
function throttledCounter(registry: Registry | undefined): ((method: string) => void) | undefined {
  if (!registry) return undefined;
  const name = 'rampchat_telegram_throttled_total';
  const counter =
    (registry.getSingleMetric(name) as Counter<'method'> | undefined) ??
    new Counter({
      name,
      help: 'Telegram API calls answered 429 (Too Many Requests), by method',
      labelNames: ['method'],
      registers: [registry],
    });
  return (method) => counter.inc({ method });
}

/** Counts messages sent as Telegram's paid broadcast (0.1 Star each) on `registry`. */
function paidCounter(registry: Registry | undefined): (() => void) | undefined {
  if (!registry) return undefined;
  const name = 'rampchat_telegram_paid_messages_total';
  const counter =
    (registry.getSingleMetric(name) as Counter | undefined) ??
    new Counter({
      name,
      help: 'Messages sent as paid broadcast (0.1 Telegram Star each)',
      registers: [registry],
    });
  return () => counter.inc();
}
