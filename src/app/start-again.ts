/**
 * A start that Redis dropped out of halfway (a restart, a failover) is stopped by `startApp` and
 * begun again while the start's time allows, instead of exiting: replicas that come up while Redis
 * restarts then come up anyway. Anything else fails the start at once.
 */
import { isStoreUnavailable } from '../store/errors.js';

/**
 * An error of a Redis connection that went away (the command may be asked again), or of a Redis that
 * came back and is still loading its data (`LOADING`: it refuses commands for as long as its AOF takes
 * to read), or whose connection timed out or was closed under the start.
 */
export function isRedisDropout(err: unknown): boolean {
  if (isStoreUnavailable(err)) return true;
  const message = err instanceof Error ? err.message : String(err);
  return /ECONNRESET|ECONNREFUSED|EPIPE|Socket closed unexpectedly|The client is offline|Connection is closed|^LOADING\b|Connection timeout/i.test(
    message,
  );
}

/** Runs `start` until it succeeds, fails otherwise, or `withinMs` has passed. */
export async function startAgainOnDropout<T>(
  start: () => Promise<T>,
  opts: { withinMs: number; onRetry?: (err: Error) => void; pauseMs?: number },
): Promise<T> {
  const deadline = Date.now() + opts.withinMs;
  for (;;) {
    try {
      return await start();
    } catch (err) {
      if (!isRedisDropout(err) || Date.now() >= deadline) throw err;
      opts.onRetry?.(err as Error);
      await new Promise((r) => setTimeout(r, opts.pauseMs ?? 500));
    }
  }
}
