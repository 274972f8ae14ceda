/**
 * The wire: one HTTP call to the ramp with a timeout, the retry rule, the log line, and the
 * mapping of every failure to a typed RampError. Credentials travel only in headers and are never
 * logged; the log line holds method, path, status and duration.
 */
import type { Logger } from 'pino';
import {
  type DepositRefusal,
  RampDuplicateError,
  type RampError,
  RampNetworkError,
  RampNotFoundError,
  RampServerError,
  RampTimeoutError,
  RampUnauthorizedError,
  RampValidationError,
} from './errors.js';
import { isErrorBody } from './schemas.js';

/**
 * `idempotent`: safe to send again (GETs, quotes) after a timeout, a network failure or a 5xx.
 * `unsent`: creates or releases something; sent again only when the connection was refused.
 */
export type RetryRule = 'idempotent' | 'unsent';

export interface Call {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  retry: RetryRule;
  /** Which endpoint, for error reading (deposit refusals) and the log. */
  endpoint: string;
  /** The order the call is about, named in a not-found error. */
  orderId?: string;
  /** The checkout endpoint: its own base address and bearer secret. */
  checkout?: boolean;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  checkoutUrl?: string;
  checkoutSecret?: string;
  timeoutMs: number;
  retries: number;
  retryDelayMs: number;
  logger?: Logger;
}

export type Transport = (call: Call) => Promise<unknown>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ORDER_ID = /\b((?:WD|D)-[a-z0-9]{5}-[A-Z0-9]{2})\b/;

/** Parses JSON, forgiving the trailing commas of the documented examples. */
export function parseLenientJson(raw: string): { ok: true; value: unknown } | { ok: false } {
  if (raw.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch {
    try {
      return { ok: true, value: JSON.parse(raw.replace(/,\s*([}\]])/g, '$1')) };
    } catch {
      return { ok: false };
    }
  }
}

function errorCode(err: unknown): string | undefined {
  const cause = (err as { cause?: unknown })?.cause as
    | { code?: string; errors?: { code?: string }[] }
    | undefined;
  if (cause?.code) return cause.code;
  const codes = cause?.errors?.map((e) => e.code);
  if (codes?.length && codes.every((c) => c === codes[0])) return codes[0];
  return (err as { code?: string })?.code;
}

function isTimeout(err: unknown): boolean {
  const name = (err as { name?: string })?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

function bodyText(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim() ? body.trim().slice(0, 300) : undefined;
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  const msg = typeof b.message === 'string' ? b.message : undefined;
  const err = typeof b.error === 'string' ? b.error : undefined;
  if (msg && err && err !== msg) return `${msg}: ${err}`;
  return msg ?? err;
}

function depositRefusalOf(message: string): DepositRefusal | undefined {
  if (/is being processed/i.test(message)) return 'pending';
  if (/payment failed/i.test(message)) return 'payment_failed';
  if (/has already been processed/i.test(message)) return 'already_processed';
  return undefined;
}

function supportedNetworksOf(message: string): string[] | undefined {
  const m = /supported networks:\s*([^\n]+)/i.exec(message);
  if (!m?.[1]) return undefined;
  return m[1]
    .replace(/\.\s*$/, '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Reads a refusal from the service into the matching RampError. */
export function errorFromAnswer(
  status: number,
  body: unknown,
  call: Pick<Call, 'endpoint' | 'orderId'>,
): RampError {
  const message = bodyText(body) ?? `HTTP ${status}`;
  const opts = { status, serviceMessage: message };
  if (status === 401 || /API key and secret are required|Invalid API credentials/i.test(message)) {
    return new RampUnauthorizedError(opts);
  }
  const data = (body as { data?: { orderID?: unknown } } | undefined)?.data;
  if (typeof data?.orderID === 'string' && /already been processed/i.test(message)) {
    return new RampDuplicateError(data.orderID, opts);
  }
  const namesOrder = (call.orderId !== undefined && message.includes(call.orderId)) || ORDER_ID.test(message);
  const saysNotFound =
    /\bnot found\b|no transactions? found/i.test(message) && (namesOrder || /user address/i.test(message));
  if (status === 404 || (status < 500 && saysNotFound)) {
    return new RampNotFoundError(message, { ...opts, orderId: call.orderId ?? ORDER_ID.exec(message)?.[1] });
  }
  if (status >= 500) return new RampServerError(message, opts);
  return new RampValidationError(message, {
    ...opts,
    supportedNetworks: supportedNetworksOf(message),
    depositRefusal: call.endpoint === 'deposit' ? depositRefusalOf(message) : undefined,
  });
}

function statusFromBody(body: unknown): number {
  if (/internal server error/i.test(bodyText(body) ?? '')) return 500;
  const b = body as { statusCode?: unknown; status?: unknown };
  for (const s of [b.statusCode, b.status]) if (typeof s === 'number' && s >= 400) return s;
  return 400;
}

/** Builds the transport all endpoint functions share. */
export function createTransport(o: TransportOptions): Transport {
  const log = o.logger;

  async function attempt(call: Call, url: string, headers: Record<string, string>) {
    const started = Date.now();
    const res = await fetch(url, {
      method: call.method,
      headers,
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal: AbortSignal.timeout(o.timeoutMs),
    });
    const raw = await res.text();
    log?.debug(
      { method: call.method, path: call.path, status: res.status, durationMs: Date.now() - started },
      'ramp call',
    );
    return { status: res.status, raw };
  }

  return async function send(call) {
    const base = call.checkout ? (o.checkoutUrl ?? o.baseUrl) : o.baseUrl;
    const url = new URL(base);
    url.pathname = `${url.pathname.replace(/\/$/, '')}${call.path}`;
    for (const [k, v] of Object.entries(call.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { accept: 'application/json' };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    if (call.checkout) {
      if (!o.checkoutSecret) {
        throw new RampValidationError(
          'Checkout is not configured: set RAMP_CHECKOUT_SECRET (and RAMP_CHECKOUT_URL).',
        );
      }
      headers.authorization = `Bearer ${o.checkoutSecret}`;
    } else {
      headers['x-api-key'] = o.apiKey;
      headers['x-api-secret'] = o.apiSecret;
    }

    for (let n = 0; ; n++) {
      const canRetry = n < o.retries;
      const backoff = () => sleep(o.retryDelayMs * 2 ** n);
      let answer: { status: number; raw: string };
      try {
        answer = await attempt(call, url.toString(), headers);
      } catch (err) {
        const error = isTimeout(err)
          ? new RampTimeoutError(
              `The ramp did not answer ${call.method} ${call.path} within ${o.timeoutMs} ms.`,
              {
                cause: err,
              },
            )
          : errorCode(err) === 'ECONNREFUSED'
            ? new RampNetworkError(`The ramp refused the connection for ${call.method} ${call.path}.`, {
                delivered: false,
                cause: err,
              })
            : new RampNetworkError(
                `The connection to the ramp failed during ${call.method} ${call.path} (${errorCode(err) ?? 'unknown'}).`,
                { delivered: true, cause: err },
              );
        const unsent = error instanceof RampNetworkError && !error.delivered;
        log?.warn(
          { method: call.method, path: call.path, kind: error.kind, attempt: n + 1 },
          'ramp call failed',
        );
        if (canRetry && (call.retry === 'idempotent' || unsent)) {
          await backoff();
          continue;
        }
        throw error;
      }

      const parsed = parseLenientJson(answer.raw);
      const body = parsed.ok ? parsed.value : answer.raw;
      const ok = answer.status >= 200 && answer.status < 300;
      if (ok && !parsed.ok) {
        throw new RampServerError(
          `The ramp answered ${call.method} ${call.path} with a body that is not JSON.`,
          {
            status: answer.status,
          },
        );
      }
      if (ok && !isErrorBody(body)) return body;
      const status = ok ? statusFromBody(body) : answer.status;
      if (status >= 500 && call.retry === 'idempotent' && canRetry) {
        log?.warn({ method: call.method, path: call.path, status, attempt: n + 1 }, 'ramp call failed');
        await backoff();
        continue;
      }
      throw errorFromAnswer(status, body, call);
    }
  };
}
