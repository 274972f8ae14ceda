/**
 * Waiting on an outside service at start, out loud: a log line names what is awaited before the
 * call, and the wait ends after `timeoutMs` with an error naming the service and the setting to
 * check, instead of hanging in silence.
 */
import type { Logger } from './logger.js';

/** Thrown when a service did not answer in time; `what` names it (e.g. "Telegram getMe"). */
export class StartTimeoutError extends Error {
  override name = 'StartTimeoutError';
  constructor(
    readonly what: string,
    readonly timeoutMs: number,
    hint?: string,
  ) {
    super(`${what} did not answer within ${timeoutMs} ms${hint ? `: ${hint}` : ''}`);
  }
}

export interface WaitOptions {
  /** Named in the log line and the error, e.g. "Telegram getMe at https://api.telegram.org". */
  what: string;
  timeoutMs: number;
  logger?: Logger;
  /** What to check when it times out (a setting, a service to start). */
  hint?: string;
  /** Called on timeout, e.g. to close a client that would go on trying. */
  onTimeout?: () => void;
}

/**
 * Runs `call` with a signal that aborts at the deadline; resolves with its answer, or rejects with a
 * StartTimeoutError once `timeoutMs` has passed (whether or not the call heeds the signal).
 */
export async function waitFor<T>(opts: WaitOptions, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  opts.logger?.info({ waitingFor: opts.what, timeoutMs: opts.timeoutMs }, `waiting for ${opts.what}`);
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new StartTimeoutError(opts.what, opts.timeoutMs, opts.hint);
      opts.logger?.error({ waitingFor: opts.what, timeoutMs: opts.timeoutMs }, err.message);
      controller.abort(err);
      opts.onTimeout?.();
      reject(err);
    }, opts.timeoutMs);
  });
  const started = Date.now();
  try {
    const answer = await Promise.race([call(controller.signal), deadline]);
    opts.logger?.debug({ waitingFor: opts.what, ms: Date.now() - started }, `${opts.what} answered`);
    return answer;
  } finally {
    clearTimeout(timer);
  }
}
