/**
 * Starting and stopping: the command menus, then long polling (./polling.ts, which acknowledges only
 * handled updates) or the webhook; and the node:http handler that takes webhook posts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BotError, webhookCallback } from 'grammy';
import type { Update } from 'grammy/types';
import type { Locale } from '../../chat/types.js';
import { waitFor } from '../../log/waiting.js';
import type { Outbox } from '../../outbound/index.js';
import type { ApiSignal } from './api.js';
import type { TelegramDeps } from './deps.js';
import { describeError } from './errors.js';
import { handedBack } from './receive/inbound.js';
import { type Polling, startPolling } from './receive/polling.js';
import { checkedHttpAdapter, MalformedUpdateError } from './receive/webhook.js';
import { htmlToPlain, renderPlain } from './send/render.js';

/** Update kinds a bot can ask Telegram for. */
export type AllowedUpdate = Exclude<keyof Update, 'update_id'>;

/** Webhook mode: Telegram posts updates to `url`, each carrying `secretToken` in a header. */
export interface WebhookSettings {
  url: string;
  secretToken: string;
}

/**
 * How long a webhook post may take before it is answered 503 (Telegram redelivers) while its
 * handling goes on: above every wait inside the handling (the chat lock's 10 s, the ramp's timeout,
 * paced replies), and under a minute.
 */
export const WEBHOOK_TIMEOUT_MS = 50_000;

/**
 * The webhook handler: 401 on a wrong secret, 400 on a post that is not an update; 503 while Redis
 * is down, while another replica holds the chat past the lock wait, or when the handling outlasts
 * the timeout (Telegram redelivers; a redelivery of a finished update is dropped); 500 on any other
 * failure. 200 only once the update was handled.
 */
export function createWebhookHandler(
  deps: TelegramDeps,
  webhook: WebhookSettings,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { log, token } = deps;
  const callback = webhookCallback(deps.bot, checkedHttpAdapter, {
    secretToken: webhook.secretToken,
    onTimeout: (_req: IncomingMessage, res: ServerResponse) => {
      log.warn({ timeoutMs }, 'webhook update not done in time; answered 503 so Telegram redelivers it');
      if (!res.headersSent) res.writeHead(503).end();
    },
    timeoutMilliseconds: timeoutMs,
  });
  return async (req, res) => {
    try {
      await callback(req, res);
    } catch (error) {
      const cause = error instanceof BotError ? error.error : error;
      if (handedBack(cause)) {
        log.warn(
          { err: cause.message },
          'webhook update handed back (Redis down, or the chat busy elsewhere); Telegram will redeliver it',
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

/** Sets the command menus in English and Swahili, leaving out commands without a text. */
async function setCommands(deps: TelegramDeps, names: readonly string[]) {
  const list = (locale: Locale) =>
    names
      .filter((name) => !deps.i18n.has || deps.i18n.has(`tg-command-${name}`))
      .map((name) => ({
        command: name,
        description: htmlToPlain(renderPlain(deps.i18n, locale, { id: `tg-command-${name}` })).slice(0, 256),
      }));
  await Promise.all([
    deps.bot.api.setMyCommands(list('en')),
    deps.bot.api.setMyCommands(list('sw'), { language_code: 'sw' }),
  ]);
}

export interface LifecycleSettings {
  webhook: WebhookSettings | undefined;
  commands: readonly string[];
  allowedUpdates: AllowedUpdate[];
  pollTimeoutSeconds: number;
  /** Updates being handled, waited on by stop(). */
  inflight: Set<Promise<unknown>>;
  /** The bot's outbox: at a stop, what still waits is left to the other replicas. */
  outbox: Pick<Outbox, 'handOver' | 'start'>;
  /** Gives up every API call still in flight. */
  abortAll: () => void;
  /** How long each call of the start (getMe, setWebhook or deleteWebhook) may take. */
  startTimeoutMs: number;
  /** The Bot API root, named in the start's log lines. */
  apiRoot: string;
}

/** How long a stop lets the sends already in flight finish (each is one HTTP call). */
const HAND_OVER_MS = 3000;

/**
 * The channel's start() and stop(). `prepare()` makes Telegram's own start calls (getMe, the command
 * menu, the webhook's registration or removal), which take no update, so the app wires its
 * capabilities meanwhile; `start()` prepares if that was not done, then takes updates.
 */
export function createLifecycle(
  deps: TelegramDeps,
  settings: LifecycleSettings,
): { prepare(): Promise<void>; start(): Promise<void>; stop(): Promise<void> } {
  const { bot, log, token } = deps;
  const { webhook, allowedUpdates } = settings;
  let polling: Polling | undefined;
  let prepared: Promise<void> | undefined;
  const prepare = async () => {
    // Each call names itself in the log before it waits, and gives up at the start timeout: an
    // unreachable Bot API is reported by name instead of holding the start in silence.
    const step = <T>(call: string, run: (signal: AbortSignal) => Promise<T>) =>
      waitFor(
        {
          what: `Telegram ${call} at ${settings.apiRoot}`,
          timeoutMs: settings.startTimeoutMs,
          logger: log,
          hint: 'check outbound access to the Bot API (TELEGRAM_API_ROOT) and TELEGRAM_BOT_TOKEN',
        },
        run,
      );
    await step('getMe', (signal) => bot.init(signal as unknown as ApiSignal));
    // The command menu is set beside the webhook call, not before it: one round trip to Telegram.
    const commands = step('setMyCommands', () => setCommands(deps, settings.commands)).catch((e) =>
      log.warn({ err: describeError(e, token) }, 'setting the command menu failed; continuing'),
    );
    // A registered webhook's posts wait for the app's HTTP server to be ready (every route and
    // middleware in place); polling only begins in start().
    const hook = webhook
      ? step('setWebhook', (signal) =>
          bot.api.setWebhook(
            webhook.url,
            { secret_token: webhook.secretToken, allowed_updates: allowedUpdates },
            signal as unknown as ApiSignal,
          ),
        )
      : step('deleteWebhook', (signal) => bot.api.deleteWebhook(undefined, signal as unknown as ApiSignal));
    await Promise.all([commands, hook]);
  };
  return {
    prepare() {
      prepared ??= prepare();
      return prepared;
    },
    async start() {
      prepared ??= prepare();
      await prepared;
      await settings.outbox.start();
      if (webhook) {
        log.info({ path: new URL(webhook.url).pathname }, 'Telegram webhook registered');
        return;
      }
      polling = startPolling(bot, log, {
        allowedUpdates,
        timeoutSeconds: settings.pollTimeoutSeconds,
        describe: (e) => describeError(e, token),
      });
      log.info({ bot: bot.botInfo.username }, 'Telegram long polling started');
    },
    async stop() {
      const polled = polling?.stop();
      polling = undefined;
      // First, so nothing in hand waits for its turn: what is queued is the other replicas' now.
      await settings.outbox.handOver(HAND_OVER_MS);
      await polled;
      await Promise.allSettled([...settings.inflight]);
      settings.abortAll();
    },
  };
}
