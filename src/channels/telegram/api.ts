/**
 * The grammY bot and the way the channel calls its API: the token is scrubbed from every failed
 * attempt, 429s and 5xx are retried, and each of our own calls gives up at a deadline or when the
 * channel stops (auto-retry alone would repeat network failures without limit).
 */
import { setMaxListeners } from 'node:events';
import { autoRetry } from '@grammyjs/auto-retry';
import { Bot } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import type { Logger } from '../../log/logger.js';
import { describeError, scrubTokenTransformer } from './errors.js';

/** grammY types its signal with the abort-controller polyfill; node-fetch accepts Node's own. */
export type ApiSignal = Parameters<Bot['api']['sendMessage']>[3];

/** Runs one API call under the deadline and the channel's stop. */
export type Bounded = <T>(call: (signal: ApiSignal) => Promise<T>) => Promise<T>;

/** Retries of failed API calls (429 after retry_after, 5xx and network errors with backoff). */
export interface TelegramRetryOptions {
  /** Attempts after a 429 or 5xx (default 5). */
  maxRetryAttempts?: number;
  /** Longest `retry_after` honoured; a longer one fails the call (default 120 s). */
  maxDelaySeconds?: number;
  /** A send or edit still failing after this long is given up (default 60 000 ms). */
  deadlineMs?: number;
}

/** The bot with its API transformers installed; nothing is sent yet. */
export function createBot(
  token: string,
  opts: { apiRoot?: string; botInfo?: UserFromGetMe; retry?: TelegramRetryOptions },
  log: Logger,
): Bot {
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
  return bot;
}

/** `bounded` for the channel's calls, and `abortAll` for its stop. */
export function boundedCalls(deadlineMs: number): { bounded: Bounded; abortAll: () => void } {
  const stopping = new AbortController();
  // Every API call in flight listens for the stop; a busy bot has far more than Node's default 10.
  setMaxListeners(0, stopping.signal);
  const bounded: Bounded = async (call) => {
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
  };
  return { bounded, abortAll: () => stopping.abort() };
}
