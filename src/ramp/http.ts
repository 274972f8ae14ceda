/**
 * The wire: one HTTP call to the ramp with a timeout, the retry rule, the log line, and the
 * mapping of every failure to a typed RampError. Credentials travel only in headers and are never
 * logged; the log line holds method, path, status and duration.
 * Safe retries only: an `idempotent` call is sent again after a timeout, a network failure or a
 * 5xx; an `unsent` one (it creates or releases something) only when the connection was refused, so
 * nothing is ever created twice. Backoff doubles from `retryDelayMs`, for at most `retries` more tries.
 */
import { errorFromAnswer, readAnswer } from './answer.js';
import type { Call, Transport, TransportOptions } from './call.js';
import { type RampError, RampNetworkError } from './errors.js';
import { failureOf } from './failure.js';
import { type Answer, attempt, headersOf, urlOf } from './request.js';

export type { Transport, TransportOptions } from './call.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether a call that got no answer may be sent again (see the rule above). */
const mayResend = (call: Call, error: RampError): boolean =>
  call.retry === 'idempotent' || (error instanceof RampNetworkError && !error.delivered);

/** Builds the transport all endpoint functions share. */
export function createTransport(o: TransportOptions): Transport {
  const log = o.logger;
  return async function send(call) {
    const url = urlOf(o, call);
    const headers = headersOf(o, call);
    for (let n = 0; ; n++) {
      const canRetry = n < o.retries;
      const backoff = () => sleep(o.retryDelayMs * 2 ** n);
      let answer: Answer;
      try {
        answer = await attempt(o, call, url, headers);
      } catch (err) {
        const error = failureOf(err, call, o.timeoutMs);
        log?.warn(
          { method: call.method, path: call.path, kind: error.kind, attempt: n + 1 },
          'ramp call failed',
        );
        if (canRetry && mayResend(call, error)) {
          await backoff();
          continue;
        }
        throw error;
      }
      const read = readAnswer(call, answer);
      if (read.ok) return read.body;
      if (read.status >= 500 && call.retry === 'idempotent' && canRetry) {
        log?.warn(
          { method: call.method, path: call.path, status: read.status, attempt: n + 1 },
          'ramp call failed',
        );
        await backoff();
        continue;
      }
      throw errorFromAnswer(read.status, read.body, call);
    }
  };
}
