/** Store errors the core can tell apart without importing a Redis SDK. */

/** Thrown by the engine when the store cannot be reached before anything of an update was done. */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
  /** The user was asked to send it again: a channel that cannot hand the update back may let it go. */
  told = false;
  constructor(cause?: unknown) {
    super('The state store (Redis) cannot be reached; nothing of this update was done', { cause });
  }
}

/**
 * Thrown by the store (and passed on by the engine) when another process held the chat's lock for
 * longer than the caller would wait, and the caller asked not to go on without it: nothing of the
 * update was done, so it can be handed back (a webhook answers 503 and Telegram redelivers it).
 */
export class ChatBusyError extends Error {
  override name = 'ChatBusyError';
  constructor() {
    super("Another process holds this chat's lock; nothing of this update was done");
  }
}

const UNAVAILABLE_NAMES = new Set([
  'StoreUnavailableError',
  'ClientClosedError',
  'ClientOfflineError',
  'SocketClosedUnexpectedlyError',
  'ConnectionTimeoutError',
]);

/**
 * True when an error means the store could not be reached (closed, reconnecting, offline, still
 * loading its data after a restart), as node-redis reports it: the command was not carried out.
 */
export function isStoreUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (UNAVAILABLE_NAMES.has(err.name) || UNAVAILABLE_NAMES.has(err.constructor?.name)) return true;
  // LOADING: a Redis that came back is still reading its AOF and refuses every command meanwhile.
  return /client is (closed|offline)|socket closed unexpectedly|ECONNREFUSED|ECONNRESET|^LOADING\b/i.test(
    err.message,
  );
}
