/**
 * The Telegram channel on grammY: inbound updates become conversation inputs, outbound messages
 * become HTML messages with inline keyboards, and `replaceKey` messages are edited in place.
 *
 * Long polling uses @grammyjs/runner with `sequentialize` by chat id rather than plain
 * `bot.start()`: `bot.start()` handles one update at a time for the whole bot, so one user's slow
 * step (an STK push waits on the ramp for seconds) would hold every other user. The runner
 * handles different chats concurrently while `sequentialize` keeps each chat's updates in order,
 * which also keeps replies in order. The engine still serialises per user and uses optimistic
 * concurrency, so this is about latency, not correctness. The same `sequentialize` middleware
 * orders webhook deliveries, which Telegram may send in parallel.
 */
import { setMaxListeners } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { autoRetry } from '@grammyjs/auto-retry';
import { type RunnerHandle, run, sequentialize } from '@grammyjs/runner';
import { Bot, BotError, type Context, webhookCallback } from 'grammy';
import type {
  InlineKeyboardMarkup,
  ReplyKeyboardMarkup,
  ReplyKeyboardRemove,
  UserFromGetMe,
} from 'grammy/types';
import type { Locale, OutMessage, Text } from '../../chat/types.js';
import type { Input } from '../../flows/types.js';
import type { Logger } from '../../log/logger.js';
import { StoreUnavailableError } from '../../store/errors.js';
import type { ChannelAdapter, ChatScratch, Conversation } from '../types.js';
import { ReplaceQueue } from './edits.js';
import {
  describeError,
  isMessageGone,
  isNotModified,
  isParseError,
  scrubTokenTransformer,
} from './errors.js';
import {
  htmlToPlain,
  inlineKeyboard,
  joinParagraphs,
  MAX_MESSAGE_LENGTH,
  phoneKeyboard,
  renderHtml,
  renderPlain,
  type TelegramI18n,
  TelegramRenderError,
} from './render.js';
import { type ChatState, memoryChatState, redisChatState, type TelegramRedis } from './state.js';
import { checkedHttpAdapter, MalformedUpdateError } from './webhook.js';

export { escapeHtml, sanitizeHtml, type TelegramI18n, TelegramRenderError } from './render.js';
export type { TelegramRedis } from './state.js';

/** Bot commands offered in the menu; each needs `tg-command-<name>` in locales/<lang>/telegram.ftl. */
export const DEFAULT_COMMANDS = [
  'start',
  'menu',
  'buy',
  'sell',
  'quote',
  'history',
  'settings',
  'help',
  'support',
  'cancel',
] as const;

/** Update kinds the bot asks Telegram for. */
export const DEFAULT_ALLOWED_UPDATES = ['message', 'callback_query'] as const;

/** grammY types its signal with the abort-controller polyfill; node-fetch accepts Node's own. */
type ApiSignal = Parameters<Bot['api']['sendMessage']>[3];

type AllowedUpdate = Exclude<keyof import('grammy/types').Update, 'update_id'>;

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
  webhook?: { url: string; secretToken: string };
  /** Commands for the menu (default DEFAULT_COMMANDS). */
  commands?: readonly string[];
  /** Update kinds to receive (default DEFAULT_ALLOWED_UPDATES); add more when other middleware needs them. */
  allowedUpdates?: readonly AllowedUpdate[];
  /** Minimum spacing of edits in one chat (default 1000 ms). */
  editIntervalMs?: number;
  /** Long-poll timeout in seconds (default 30). */
  pollTimeoutSeconds?: number;
  /** Retries of failed API calls (429 after retry_after, 5xx and network errors with backoff). */
  retry?: {
    /** Attempts after a 429 or 5xx (default 5). */
    maxRetryAttempts?: number;
    /** Longest `retry_after` honoured; a longer one fails the call (default 120 s). */
    maxDelaySeconds?: number;
    /** A send or edit still failing after this long is given up (default 60 000 ms). */
    deadlineMs?: number;
  };
  /** Known bot info: skips getMe (handy in tests). */
  botInfo?: UserFromGetMe;
}

export interface TelegramChannel {
  adapter: ChannelAdapter;
  /** The grammY bot: add middleware (support chat, …) before `start()`. */
  bot: Bot;
  /** Sets the command menus, then starts long polling or registers the webhook. */
  start(): Promise<void>;
  /** Stops polling, waits for updates being handled and for pending edits to land. */
  stop(): Promise<void>;
  /** Webhook mode only: the node:http handler to mount at `webhookPath` (401 on a wrong secret). */
  webhookHandler?: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /** Webhook mode only: the path of the webhook URL. */
  webhookPath?: string;
}

interface ReplaceContent {
  html: string;
  keyboard: InlineKeyboardMarkup | undefined;
}

/** The locale hint for a new user from their Telegram client language. */
export function localeFromLanguageCode(code: string | undefined): Locale {
  return code?.toLowerCase().split('-')[0] === 'sw' ? 'sw' : 'en';
}

/** Creates the Telegram channel. Nothing talks to Telegram until `start()` (or a webhook request). */
export function createTelegramChannel(opts: TelegramChannelOptions): TelegramChannel {
  const { token, conversation, i18n, logger } = opts;
  const log = logger.child({ channel: 'telegram' });
  const state: ChatState = opts.redis
    ? redisChatState(opts.redis, opts.redisPrefix ?? 'rampchat:')
    : memoryChatState();
  const allowedUpdates = [...(opts.allowedUpdates ?? DEFAULT_ALLOWED_UPDATES)];
  const bot = new Bot(token, {
    ...(opts.botInfo ? { botInfo: opts.botInfo } : {}),
    client: { ...(opts.apiRoot ? { apiRoot: opts.apiRoot } : {}) },
  });
  // Installed first, so it sits inside auto-retry and scrubs every failed attempt.
  bot.api.config.use(
    scrubTokenTransformer(token, (method, error) => {
      if (method === 'getUpdates')
        log.warn({ err: describeError(error, token) }, 'fetching updates failed; retrying');
    }),
  );
  bot.api.config.use(
    autoRetry({
      maxRetryAttempts: opts.retry?.maxRetryAttempts ?? 5,
      maxDelaySeconds: opts.retry?.maxDelaySeconds ?? 120,
    }),
  );
  // Auto-retry repeats network failures without limit; our own calls give up at a deadline or on stop().
  const stopping = new AbortController();
  // Every API call in flight listens for the stop; a busy bot has far more than Node's default 10.
  setMaxListeners(0, stopping.signal);
  const deadlineMs = opts.retry?.deadlineMs ?? 60_000;
  async function bounded<T>(call: (signal: ApiSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const abort = () => controller.abort();
    const timer = setTimeout(abort, deadlineMs);
    stopping.signal.addEventListener('abort', abort, { once: true });
    try {
      return await call(controller.signal as unknown as ApiSignal);
    } finally {
      clearTimeout(timer);
      stopping.signal.removeEventListener('abort', abort);
    }
  }
  bot.catch((err) => {
    if (err.error instanceof StoreUnavailableError) {
      // Webhook: answered non-2xx, so Telegram redelivers. Long polling cannot un-take an update:
      // the user was asked to send it again.
      if (opts.webhook) throw err.error;
      return;
    }
    log.error({ err: describeError(err, token) }, 'handling a Telegram update failed');
  });

  const chatLocales = new Map<string, Locale>();
  const rememberLocale = (chatId: string, locale: Locale) => {
    if (chatLocales.get(chatId) === locale) return;
    chatLocales.delete(chatId);
    chatLocales.set(chatId, locale);
    if (chatLocales.size > 50_000) chatLocales.delete(chatLocales.keys().next().value as string);
  };
  const ownLocale = (chatId: string, languageCode: string | undefined) =>
    chatLocales.get(chatId) ?? localeFromLanguageCode(languageCode);
  const t = (locale: Locale, id: string, args?: Text['args']) =>
    renderHtml(i18n, locale, args ? { id, args } : { id });

  // ------------------------------------------------------------------ outbound

  async function sendHtml(
    chatId: string,
    html: string,
    markup: InlineKeyboardMarkup | ReplyKeyboardMarkup | ReplyKeyboardRemove | undefined,
  ): Promise<number> {
    const extra = {
      link_preview_options: { is_disabled: true },
      ...(markup ? { reply_markup: markup } : {}),
    };
    try {
      const sent = await bounded((signal) =>
        bot.api.sendMessage(chatId, html, { parse_mode: 'HTML', ...extra }, signal),
      );
      return sent.message_id;
    } catch (error) {
      if (!isParseError(error)) throw error;
      log.warn(
        { err: describeError(error, token) },
        'Telegram refused the HTML of a message; sending it as plain text',
      );
      const sent = await bounded((signal) => bot.api.sendMessage(chatId, htmlToPlain(html), extra, signal));
      return sent.message_id;
    }
  }

  async function deliverReplace(chatId: string, messageId: number | undefined, content: ReplaceContent) {
    if (messageId !== undefined) {
      try {
        await bounded((signal) =>
          bot.api.editMessageText(
            chatId,
            messageId,
            content.html,
            {
              parse_mode: 'HTML',
              link_preview_options: { is_disabled: true },
              ...(content.keyboard ? { reply_markup: content.keyboard } : {}),
            },
            signal,
          ),
        );
        return messageId;
      } catch (error) {
        if (isNotModified(error)) return messageId;
        if (!isMessageGone(error)) throw error;
        log.info({ chatId, messageId }, 'message to edit is gone; sending a new one');
      }
    }
    return sendHtml(chatId, content.html, content.keyboard);
  }

  const replace = new ReplaceQueue<ReplaceContent>(state, deliverReplace, opts.editIntervalMs ?? 1000);

  const adapter: ChannelAdapter = {
    name: 'telegram',
    capabilities: { editMessages: true, buttons: true },
    async send(userId, message, locale, scratch) {
      const chatId = parseChatId(userId);
      rememberLocale(chatId, locale);
      const paragraphs = message.texts.map((text) => renderHtml(i18n, locale, text));
      const keyboard = inlineKeyboard(
        message.buttons,
        (label) => renderPlain(i18n, locale, label),
        (issue) => log.warn({ chatId, ...issue }, 'button left out'),
      );
      const chunks = joinParagraphs(paragraphs);
      if (!chunks.length)
        throw new TelegramRenderError('A Telegram message needs at least one non-empty text');
      if (message.replaceKey) {
        const html = chunks.length === 1 ? (chunks[0] as string) : fitOne(chunks);
        await replace.submit(chatId, message.replaceKey, { html, keyboard });
        return;
      }
      await sendChunks(chatId, chunks, keyboard, message, locale, marks(chatId, scratch));
    },
  };

  /**
   * The chat's question message and phone-keyboard mark: in the engine's chat scratch when it is
   * given (saved with the session, no round trip of its own), else in `state`.
   */
  function marks(chatId: string, scratch?: ChatScratch) {
    if (!scratch)
      return {
        keyboardShown: () => state.phoneKeyboardShown(chatId),
        setKeyboardShown: (shown: boolean) => state.setPhoneKeyboardShown(chatId, shown),
        question: () => state.questionMessage(chatId),
        setQuestion: (messageId: number) => state.setQuestionMessage(chatId, messageId),
      };
    return {
      keyboardShown: async () => scratch.get('kbd') === '1',
      setKeyboardShown: async (shown: boolean) => scratch.set('kbd', shown ? '1' : undefined),
      question: async () => {
        const id = Number(scratch.get('q'));
        return Number.isSafeInteger(id) && id > 0 ? id : undefined;
      },
      setQuestion: async (messageId: number) => scratch.set('q', String(messageId)),
    };
  }

  async function sendChunks(
    chatId: string,
    chunks: string[],
    keyboard: InlineKeyboardMarkup | undefined,
    message: OutMessage,
    locale: Locale,
    mark: ReturnType<typeof marks>,
  ) {
    const phoneButton = phoneKeyboard(
      renderPlain(i18n, locale, { id: 'tg-share-phone' }),
      renderPlain(i18n, locale, { id: 'tg-share-phone-placeholder' }),
    );
    let removeKeyboard = !message.requestPhone && (await mark.keyboardShown());
    for (const [i, chunk] of chunks.entries()) {
      const last = i === chunks.length - 1;
      let markup: InlineKeyboardMarkup | ReplyKeyboardMarkup | ReplyKeyboardRemove | undefined = last
        ? keyboard
        : undefined;
      if (last && message.requestPhone && !markup) markup = phoneButton;
      const removing = !markup && removeKeyboard;
      if (removing) markup = { remove_keyboard: true };
      const sentId = await sendHtml(chatId, chunk, markup);
      // The question being answered: buttons on an older question's message are stale.
      if (last && keyboard && !message.notice) await mark.setQuestion(sentId);
      if (removing) {
        removeKeyboard = false;
        await mark.setKeyboardShown(false);
      }
    }
    if (message.requestPhone) {
      // A message carries one keyboard: with inline buttons too, the phone button comes in its own message.
      if (keyboard) await sendHtml(chatId, t(locale, 'tg-share-phone-hint'), phoneButton);
      await mark.setKeyboardShown(true);
    }
  }

  // ------------------------------------------------------------------ inbound

  const inflight = new Set<Promise<unknown>>();
  bot.use(async (_ctx, next) => {
    const p = next();
    inflight.add(p);
    try {
      await p;
    } finally {
      inflight.delete(p);
    }
  });
  bot.use(sequentialize((ctx: Context) => (ctx.chat?.id ?? ctx.from?.id)?.toString()));

  async function handleInput(
    ctx: Context,
    chatId: string,
    input: Input,
    accept?: (scratch: ChatScratch) => boolean | Promise<boolean>,
  ) {
    const user = { channel: 'telegram' as const, id: chatId };
    const updateId = String(ctx.update.update_id);
    try {
      await conversation.handle(user, input, {
        updateId,
        hints: { locale: localeFromLanguageCode(ctx.from?.language_code) },
        ...(accept ? { accept } : {}),
      });
    } catch (error) {
      // Redis is down and nothing was done (the user was asked to try again): fail the update, so a
      // webhook delivery answers non-2xx and Telegram sends it again.
      if (error instanceof StoreUnavailableError) throw error;
      log.error(
        { err: describeError(error, token), updateId, input: input.kind },
        'the conversation failed on an update',
      );
      const locale = ownLocale(chatId, ctx.from?.language_code);
      await sendHtml(chatId, t(locale, 'tg-error'), undefined).catch((e) =>
        log.warn({ err: describeError(e, token) }, 'could not tell the user about a failure'),
      );
    }
  }

  const privateChats = bot.chatType('private');

  privateChats.on('callback_query:data', async (ctx) => {
    const chatId = String(ctx.chat.id);
    const data = ctx.callbackQuery.data;
    const from = ctx.callbackQuery.message?.message_id;
    let answered = false;
    const answer = async (stale: boolean) => {
      answered = true;
      const toast = stale ? t(ownLocale(chatId, ctx.from?.language_code), 'tg-button-stale') : undefined;
      await bounded((signal) =>
        ctx.answerCallbackQuery(toast ? { text: htmlToPlain(toast) } : undefined, signal),
      ).catch((e) => log.warn({ err: describeError(e, token) }, 'answering a callback query failed'));
    };
    try {
      if (selfContained(data)) await answer(false);
      // A tap on an older question's buttons is stale: judged from the chat's scratch, which the
      // engine loads with the session (no round trip of its own).
      await handleInput(ctx, chatId, { kind: 'button', id: data }, async (scratch) => {
        if (answered) return true;
        const current = await marks(chatId, scratch).question();
        const stale = current !== undefined && from !== undefined && from !== current;
        await answer(stale);
        return !stale;
      });
    } finally {
      // A redelivered tap, or one Redis could not take: the spinner still stops.
      if (!answered) await answer(false);
    }
  });

  privateChats.on('message:text', async (ctx) => {
    const { text, entities } = ctx.message;
    const first = entities?.[0];
    let input: Input = { kind: 'text', text };
    if (first?.type === 'bot_command' && first.offset === 0) {
      const [name = '', mention] = text.slice(1, first.length).split('@');
      if (mention && mention.toLowerCase() !== ctx.me.username.toLowerCase()) return;
      input = { kind: 'command', command: name.toLowerCase(), args: text.slice(first.length).trim() };
    }
    await handleInput(ctx, String(ctx.chat.id), input);
  });

  privateChats.on('message:contact', async (ctx) => {
    const chatId = String(ctx.chat.id);
    const contact = ctx.message.contact;
    const locale = ownLocale(chatId, ctx.from.language_code);
    if (contact.user_id === undefined || contact.user_id !== ctx.from.id) {
      await sendHtml(chatId, t(locale, 'tg-contact-not-yours'), undefined);
      return;
    }
    await sendHtml(chatId, t(locale, 'tg-phone-received'), { remove_keyboard: true });
    await handleInput(ctx, chatId, { kind: 'contact', phone: contact.phone_number }, (scratch) => {
      void marks(chatId, scratch).setKeyboardShown(false);
      return true;
    });
  });

  privateChats.on('message', async (ctx) => {
    const chatId = String(ctx.chat.id);
    await sendHtml(chatId, t(ownLocale(chatId, ctx.from.language_code), 'tg-unsupported'), undefined);
  });

  // ------------------------------------------------------------------ lifecycle

  async function setCommands() {
    const names = opts.commands ?? DEFAULT_COMMANDS;
    const list = (locale: Locale) =>
      names
        .filter((name) => !i18n.has || i18n.has(`tg-command-${name}`))
        .map((name) => ({
          command: name,
          description: htmlToPlain(renderPlain(i18n, locale, { id: `tg-command-${name}` })).slice(0, 256),
        }));
    await Promise.all([
      bot.api.setMyCommands(list('en')),
      bot.api.setMyCommands(list('sw'), { language_code: 'sw' }),
    ]);
  }

  let runner: RunnerHandle | undefined;
  let webhookHandler: TelegramChannel['webhookHandler'];
  if (opts.webhook) {
    const callback = webhookCallback(bot, checkedHttpAdapter, {
      secretToken: opts.webhook.secretToken,
      onTimeout: 'return',
      timeoutMilliseconds: 8000,
    });
    webhookHandler = async (req, res) => {
      try {
        await callback(req, res);
      } catch (error) {
        const cause = error instanceof BotError ? error.error : error;
        if (cause instanceof StoreUnavailableError) {
          log.warn(
            { err: cause.message },
            'webhook update refused while Redis is down; Telegram will redeliver it',
          );
          if (!res.headersSent) res.writeHead(503).end();
          return;
        }
        const malformed = error instanceof MalformedUpdateError;
        if (malformed) log.warn({ err: error.message }, 'webhook post is not a Telegram update; refused');
        else log.error({ err: describeError(error, token) }, 'webhook update failed');
        if (!res.headersSent) res.writeHead(malformed ? 400 : 500).end();
      }
    };
  }

  return {
    adapter,
    bot,
    webhookHandler,
    webhookPath: opts.webhook ? new URL(opts.webhook.url).pathname : undefined,
    async start() {
      await bot.init();
      // The command menu is set beside the webhook call, not before it: one round trip to Telegram.
      const commands = setCommands().catch((e) =>
        log.warn({ err: describeError(e, token) }, 'setting the command menu failed; continuing'),
      );
      if (opts.webhook) {
        await Promise.all([
          commands,
          bot.api.setWebhook(opts.webhook.url, {
            secret_token: opts.webhook.secretToken,
            allowed_updates: allowedUpdates,
          }),
        ]);
        log.info({ path: new URL(opts.webhook.url).pathname }, 'Telegram webhook registered');
        return;
      }
      await Promise.all([commands, bot.api.deleteWebhook()]);
      runner = run(bot, {
        runner: {
          silent: true,
          fetch: { timeout: opts.pollTimeoutSeconds ?? 30, allowed_updates: allowedUpdates },
        },
      });
      runner
        .task()
        ?.catch((e) => log.error({ err: describeError(e, token) }, 'Telegram long polling stopped'));
      log.info({ bot: bot.botInfo.username }, 'Telegram long polling started');
    },
    async stop() {
      if (runner?.isRunning()) await runner.stop();
      runner = undefined;
      await Promise.allSettled([...inflight]);
      await replace.drain();
      stopping.abort();
    },
  };
}

function parseChatId(userId: string): string {
  if (!/^-?\d{1,20}$/.test(userId)) throw new TelegramRenderError(`"${userId}" is not a Telegram chat id`);
  return userId;
}

/**
 * Buttons whose meaning does not depend on the question on screen: starting a flow from the menu,
 * a notice's ticket, support or explorer buttons, and any confirm that names its own flow instance.
 * Other buttons act only on the message that holds the current question.
 */
function selfContained(data: string): boolean {
  return /^(menu|ticket|support|explorer):/.test(data) || /:confirm:/.test(data);
}

/** A replaceKey message must stay one message: keep whole paragraphs that fit and mark the cut. */
function fitOne(chunks: string[]): string {
  const first = chunks[0] as string;
  return first.length + 2 <= MAX_MESSAGE_LENGTH ? `${first}\n…` : first;
}
