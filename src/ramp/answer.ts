/**
 * Reading the ramp's answer: JSON (forgiving the trailing commas of the documented examples), and a
 * refusal, whether by status or by an error body under a 2xx, as the matching typed RampError.
 */
import type { Call } from './call.js';
import {
  type DepositRefusal,
  RampDuplicateError,
  type RampError,
  RampNotFoundError,
  RampServerError,
  RampUnauthorizedError,
  RampValidationError,
} from './errors.js';
import type { Answer } from './request.js';
import { isErrorBody } from './schemas.js';

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

/** The body of a success, or the status and body of a refusal; a 2xx that is not JSON is the service's fault. */
export function readAnswer(
  call: Call,
  answer: Answer,
): { ok: true; body: unknown } | { ok: false; status: number; body: unknown } {
  const parsed = parseLenientJson(answer.raw);
  const body = parsed.ok ? parsed.value : answer.raw;
  const ok = answer.status >= 200 && answer.status < 300;
  if (ok && !parsed.ok) {
    throw new RampServerError(`The ramp answered ${call.method} ${call.path} with a body that is not JSON.`, {
      status: answer.status,
    });
  }
  if (ok && !isErrorBody(body)) return { ok: true, body };
  return { ok: false, status: ok ? statusFromBody(body) : answer.status, body };
}
