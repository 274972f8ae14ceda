/**
 * grammY puts the bot token in every request URL, and network errors repeat that URL in their
 * message and stack. Everything here makes errors safe to log.
 */
import { BotError, GrammyError, HttpError, type Transformer } from 'grammy';

const TOKEN_LIKE = /\d{3,}:[A-Za-z0-9_-]{20,}/g;

/** Replaces the token (and anything shaped like a bot token) in a string. */
export function scrubToken(text: string, token: string): string {
  const plain = token ? text.split(token).join('[bot-token]') : text;
  return plain.replace(TOKEN_LIKE, '[bot-token]');
}

/** A loggable description of an error: no stack with URLs, no request payload (it may hold user data). */
export function describeError(error: unknown, token: string): Record<string, unknown> {
  if (error instanceof BotError) {
    return { ...describeError(error.error, token), updateId: error.ctx?.update?.update_id };
  }
  if (error instanceof GrammyError) {
    return {
      type: 'GrammyError',
      method: error.method,
      errorCode: error.error_code,
      description: scrubToken(error.description, token),
    };
  }
  if (error instanceof HttpError) {
    const inner = error.error instanceof Error ? error.error.message : String(error.error ?? '');
    return { type: 'HttpError', message: scrubToken(error.message, token), cause: scrubToken(inner, token) };
  }
  if (error instanceof Error) {
    return {
      type: error.name,
      message: scrubToken(error.message, token),
      ...(error.stack ? { stack: scrubToken(error.stack, token) } : {}),
    };
  }
  return { type: typeof error, message: scrubToken(String(error), token) };
}

/**
 * An API transformer that rethrows network errors without the token, so whoever logs them (our
 * code, the runner, grammY's debug output) cannot leak it; `onThrottled` hears every 429 answer.
 */
export function scrubTokenTransformer(
  token: string,
  onFailure?: (method: string, error: unknown) => void,
  onThrottled?: (method: string) => void,
): Transformer {
  return async (prev, method, payload, signal) => {
    try {
      const res = await prev(method, payload, signal);
      if (!res.ok && res.error_code === 429) onThrottled?.(method);
      return res;
    } catch (error) {
      if (signal?.aborted) throw error;
      const safe =
        error instanceof HttpError
          ? new HttpError(
              scrubToken(error.message, token),
              new Error(
                scrubToken(error.error instanceof Error ? error.error.message : String(error.error), token),
              ),
            )
          : error;
      onFailure?.(method, safe);
      throw safe;
    }
  };
}

/** True when Telegram says the message to edit no longer exists or cannot be edited any more. */
export function isMessageGone(error: unknown): boolean {
  return (
    error instanceof GrammyError &&
    error.error_code === 400 &&
    /message to edit not found|message can't be edited|MESSAGE_ID_INVALID|message not found/i.test(
      error.description,
    )
  );
}

/** True when an edit changed nothing (Telegram refuses those). */
export function isNotModified(error: unknown): boolean {
  return (
    error instanceof GrammyError &&
    error.error_code === 400 &&
    /message is not modified/i.test(error.description)
  );
}

/** True when Telegram could not parse the HTML of a text. */
export function isParseError(error: unknown): boolean {
  return (
    error instanceof GrammyError &&
    error.error_code === 400 &&
    /can't parse entities/i.test(error.description)
  );
}

/** True when Telegram says the chat can no longer be written to (blocked, deactivated, gone). */
export function isChatGone(error: unknown): boolean {
  return (
    error instanceof GrammyError &&
    ((error.error_code === 403 &&
      /blocked by the user|user is deactivated|kicked|can't initiate conversation|not a member/i.test(
        error.description,
      )) ||
      (error.error_code === 400 && /chat not found|PEER_ID_INVALID|user not found/i.test(error.description)))
  );
}
