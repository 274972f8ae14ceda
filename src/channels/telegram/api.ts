/**
 * The grammY bot and the way the channel calls its API: the token is scrubbed from every failed
 * attempt, 429s and 5xx are retried, and each of our own calls gives up at a deadline or when the
 * channel stops (auto-retry alone would repeat network failures without limit).
 */
import { getEventListeners } from 'node:events';
import { autoRetry } from '@grammyjs/auto-retry';
import { Bot } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import type { Logger } from '../../log/logger.js';
import { NO_SCOPE, type SendScope } from '../../outbound/index.js';
import { describeError, scrubTokenTransformer } from './errors.js';
import { enterCall, leaveCall } from './send/call.js';
import { pacingTransformer, type TelegramPacing } from './send/pacing.js';

/** grammY types its signal with the abort-controller polyfill; node-fetch accepts Node's own. */
export type ApiSignal = Parameters<Bot['api']['sendMessage']>[3];

/**
 * Runs one API call under the deadline and the channel's stop; the transformers find `scope` (the
 * work the call is for) by the call's signal (./send/call.ts).
 */
export type Bounded = <T>(call: (signal: ApiSignal) => Promise<T>, scope?: SendScope) => Promise<T>;

/**
 * Retries of failed API calls: 5xx and network errors with backoff (a 429 waits its `retry_after`
 * in the outbound line, without a limit on attempts).
 */
export interface TelegramRetryOptions {
  /** Attempts after a 5xx (default 5). */
  maxRetryAttempts?: number;
  /**
   * A send or edit still failing after this long is given up (default 60 000 ms); time spent
   * waiting for its turn in the outbound line does not count.
   */
  deadlineMs?: number;
}

/** The bot with its API transformers installed; nothing is sent yet. */
export function createBot(
  token: string,
  opts: {
    apiRoot?: string;
    botInfo?: UserFromGetMe;
    retry?: TelegramRetryOptions;
    pacing: TelegramPacing;
    /** Called with the method of every 429 Telegram answers (every attempt, for the metrics). */
    onThrottled?: (method: string) => void;
  },
  log: Logger,
): Bot {
  const bot = new Bot(token, {
    ...(opts.botInfo ? { botInfo: opts.botInfo } : {}),
    client: { ...(opts.apiRoot ? { apiRoot: opts.apiRoot } : {}) },
  });
  // Installed first, so it sits inside auto-retry: it scrubs every failed attempt and counts every
  // 429, even one the line retries.
  bot.api.config.use(
    scrubTokenTransformer(
      token,
      (method, error) => {
        if (method === 'getUpdates')
          log.warn({ err: describeError(error, token) }, 'fetching updates failed; retrying');
      },
      opts.onThrottled,
    ),
  );
  // Inside auto-retry: a 5xx or network retry waits for its turn again. Throttling (429) is the
  // line's to handle, so auto-retry never waits out a retry_after on its own.
  bot.api.config.use(pacingTransformer(opts.pacing));
  bot.api.config.use(
    autoRetry({
      maxRetryAttempts: opts.retry?.maxRetryAttempts ?? 5,
      maxDelaySeconds: -1,
    }),
  );
  return bot;
}

/** `bounded` for the channel's calls, and `abortAll` for its stop. */
export function boundedCalls(deadlineMs: number): { bounded: Bounded; abortAll: () => void } {
  // A call's controller is used again by a later call when it ended unaborted and nothing still
  // listens to it: making an AbortController and its signal is a good part of a reply's CPU.
  const spare: AbortController[] = [];
  // The calls in flight with their deadlines: for the stop to abort (a listener on one stop signal
  // per call cost each send two EventTarget calls), and for one ticker to look at every twentieth
  // of the deadline, at most every second (a 60 s deadline may end a second late; a timer of each
  // call's own was armed and cleared on every send). The ticker stops at a tick with none in flight.
  const running = new Map<AbortController, { due: number; paused: boolean }>();
  const tickMs = Math.max(5, Math.min(1_000, Math.floor(deadlineMs / 20)));
  let ticker: NodeJS.Timeout | undefined;
  const tick = () => {
    if (running.size === 0) {
      clearInterval(ticker);
      ticker = undefined;
      return;
    }
    const now = Date.now();
    for (const [controller, d] of running) if (!d.paused && now >= d.due) controller.abort();
  };
  const bounded: Bounded = async (call, scope = NO_SCOPE) => {
    const controller = spare.pop() ?? new AbortController();
    const state = { due: Date.now() + deadlineMs, paused: false };
    const deadline = {
      pause() {
        state.paused = true;
      },
      resume() {
        state.paused = false;
        state.due = Date.now() + deadlineMs;
      },
    };
    running.set(controller, state);
    if (!ticker) {
      ticker = setInterval(tick, tickMs);
      ticker.unref();
    }
    const { signal } = controller;
    enterCall(signal, { deadline, scope });
    try {
      return await call(signal as unknown as ApiSignal);
    } finally {
      running.delete(controller);
      leaveCall(signal);
      if (!signal.aborted && getEventListeners(signal, 'abort').length === 0 && spare.length < 64)
        spare.push(controller);
    }
  };
  return {
    bounded,
    abortAll: () => {
      for (const controller of running.keys()) controller.abort();
    },
  };
}
