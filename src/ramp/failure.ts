/**
 * A request that got no answer, as a typed RampError: a timeout; a connection that was never made
 * (refused, the name not resolved, no route: nothing was sent, `delivered: false`, safe to send
 * again); or a connection that failed midway (it may have arrived: `delivered: true`).
 */
import type { Call } from './call.js';
import { RampNetworkError, RampTimeoutError } from './errors.js';

function errorCode(err: unknown): string | undefined {
  const cause = (err as { cause?: unknown })?.cause as
    | { code?: string; errors?: { code?: string }[] }
    | undefined;
  if (cause?.code) return cause.code;
  const codes = cause?.errors?.map((e) => e.code);
  if (codes?.length && codes.every((c) => c === codes[0])) return codes[0];
  return (err as { code?: string })?.code;
}

/** Failures before a connection existed: the request cannot have been sent. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function isTimeout(err: unknown): boolean {
  const name = (err as { name?: string })?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

/** What a failed `fetch` means. */
export function failureOf(err: unknown, call: Call, timeoutMs: number): RampTimeoutError | RampNetworkError {
  if (isTimeout(err)) {
    return new RampTimeoutError(
      `The ramp did not answer ${call.method} ${call.path} within ${timeoutMs} ms.`,
      {
        cause: err,
      },
    );
  }
  const code = errorCode(err);
  if (code && NOT_CONNECTED.has(code)) {
    return new RampNetworkError(`No connection to the ramp for ${call.method} ${call.path} (${code}).`, {
      delivered: false,
      cause: err,
    });
  }
  return new RampNetworkError(
    `The connection to the ramp failed during ${call.method} ${call.path} (${code ?? 'unknown'}).`,
    { delivered: true, cause: err },
  );
}
