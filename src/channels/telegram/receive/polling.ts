/**
 * Long polling that acknowledges an update only once it was handled. Telegram confirms every update
 * below the `offset` of the next `getUpdates`, so the offset only moves past updates that are done:
 * one still being handled when the process is killed is fetched again by the next process (the
 * engine recognises its id and handles it again, or drops it when it was finished). Updates are
 * handled as they come, different chats at once and each chat's in order (./in-order.ts). While
 * an update is unacknowledged, Telegram answers a fetch at once (with it), so a fetch that brings
 * nothing new waits for one to finish, or `busyPollMs`, before asking again: new updates still
 * come in within that while a slow one runs. @grammyjs/runner is not used for this:
 * it fetches the next batch (acknowledging the last) while that batch is still being handled.
 * An update nothing was done with (Redis down) whose user was not asked to send it again is never
 * acknowledged: it is handled again here, or fetched again by the next process.
 */
import { setMaxListeners } from 'node:events';
import { type Bot, BotError } from 'grammy';
import type { Update } from 'grammy/types';
import type { Logger } from '../../../log/logger.js';
import { ChatBusyError, StoreUnavailableError } from '../../../store/errors.js';
import type { ApiSignal } from '../api.js';

/** Longest pause before an update nothing was done with (Redis down) is handled again. */
const RETRY_CAP_MS = 5_000;

/**
 * Nothing of the update was done and the user was not asked to send it again (an update fetched
 * again after a kill, too old for the "try again" notice): it is neither handled nor answered.
 */
const untouched = (error: unknown): boolean => {
  const cause = error instanceof BotError ? error.error : error;
  return (cause instanceof StoreUnavailableError && !cause.told) || cause instanceof ChatBusyError;
};

export interface PollingSettings {
  allowedUpdates: Array<Exclude<keyof Update, 'update_id'>>;
  /** Long-poll timeout in seconds. */
  timeoutSeconds: number;
  /** Pause after a failed fetch (default 1 s). */
  retryMs?: number;
  /** Longest pause between fetches that bring nothing new while updates are handled (default 500 ms). */
  busyPollMs?: number;
  /** An error as it may be logged (the token scrubbed). */
  describe: (error: unknown) => unknown;
}

export interface Polling {
  /** Stops fetching, waits for the updates being handled, then acknowledges them at Telegram. */
  stop(): Promise<void>;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/** Starts polling `bot` (initialised, no webhook set). */
export function startPolling(bot: Bot, log: Logger, settings: PollingSettings): Polling {
  const stopping = new AbortController();
  /** Fetched and not yet acknowledged: update id → done. */
  const taken = new Map<number, boolean>();
  const handling = new Set<Promise<void>>();
  const { signal } = stopping;
  // The fetch and every update waiting to be tried again listen to it: more than Node's default 10
  // while Redis is down.
  setMaxListeners(0, signal);
  let offset: number | undefined;

  /** The lowest id not yet done, or one past the highest: what Telegram may forget below. */
  const advance = () => {
    const ids = [...taken.keys()].sort((a, b) => a - b);
    for (const id of ids) {
      if (!taken.get(id)) return;
      taken.delete(id);
      offset = id + 1;
    }
  };

  /**
   * Handles an update; one nothing was done with and no one answered stays unacknowledged and is
   * handled again after a pause (doubling, at most RETRY_CAP_MS), or by the next process after a stop.
   */
  const handle = (update: Update, attempt = 0) => {
    taken.set(update.update_id, false);
    const p = bot
      .handleUpdate(update)
      .then(
        () => true,
        async (e: unknown) => {
          if (!untouched(e)) {
            log.error({ err: settings.describe(e) }, 'handling a Telegram update failed');
            return true;
          }
          log.warn(
            { updateId: update.update_id, attempt },
            'nothing of a Telegram update was done (Redis down); kept unacknowledged and tried again',
          );
          await sleep(Math.min(RETRY_CAP_MS, (settings.retryMs ?? 1000) * 2 ** attempt), signal);
          return false;
        },
      )
      .then((done) => {
        handling.delete(p);
        if (done) {
          taken.set(update.update_id, true);
          advance();
        } else if (!signal.aborted) handle(update, attempt + 1);
      });
    handling.add(p);
  };

  const loop = async () => {
    while (!signal.aborted) {
      let updates: Update[];
      const sentWith = offset ?? 0;
      try {
        updates = await bot.api.getUpdates(
          { offset, limit: 100, timeout: settings.timeoutSeconds, allowed_updates: settings.allowedUpdates },
          signal as unknown as ApiSignal,
        );
      } catch (e) {
        if (signal.aborted) break;
        log.warn({ err: settings.describe(e) }, 'fetching Telegram updates failed; trying again');
        await sleep(settings.retryMs ?? 1000, signal);
        continue;
      }
      // Skipped: updates being handled, and copies of ones that were done while this fetch was out.
      const fresh = updates.filter(
        (u) => !taken.has(u.update_id) && !(sentWith <= u.update_id && u.update_id < (offset ?? 0)),
      );
      for (const u of fresh) handle(u);
      // Nothing new: everything fetched is still being handled; ask again once one is done, or soon.
      if (!fresh.length && updates.length && handling.size)
        await Promise.race([...handling, sleep(settings.busyPollMs ?? 500, signal)]);
    }
  };
  const running = loop();

  return {
    async stop() {
      stopping.abort();
      await running;
      await Promise.allSettled([...handling]);
      if (offset === undefined) return;
      // Acknowledges what was handled since the last fetch, so the next process does not see it again.
      await bot.api
        .getUpdates({ offset, limit: 1, timeout: 0 })
        .catch((e: unknown) =>
          log.warn({ err: settings.describe(e) }, 'acknowledging Telegram updates failed'),
        );
    },
  };
}
