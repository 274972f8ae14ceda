/**
 * One HTTP request to the ramp: its URL (the checkout endpoint may have its own base address), its
 * credentials (API key and secret headers, or the checkout's bearer secret; headers only, never in
 * the URL or the log), and one attempt with a timeout, logged with method, path, status and duration.
 */
import type { Call, TransportOptions } from './call.js';
import { RampValidationError } from './errors.js';

/** What came back: the status and the raw body. */
export interface Answer {
  status: number;
  raw: string;
}

/** The call's full URL, query included. */
export function urlOf(o: TransportOptions, call: Call): string {
  const base = call.checkout ? (o.checkoutUrl ?? o.baseUrl) : o.baseUrl;
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/$/, '')}${call.path}`;
  for (const [k, v] of Object.entries(call.query ?? {}))
    if (v !== undefined) url.searchParams.set(k, String(v));
  return url.toString();
}

/** The call's headers with its credentials; a checkout call without a secret is refused. */
export function headersOf(o: TransportOptions, call: Call): Record<string, string> {
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
  return headers;
}

/** One attempt; rejects on a timeout or a network failure (see failure.ts). */
export async function attempt(
  o: TransportOptions,
  call: Call,
  url: string,
  headers: Record<string, string>,
): Promise<Answer> {
  const started = Date.now();
  const res = await fetch(url, {
    method: call.method,
    headers,
    body: call.body === undefined ? undefined : JSON.stringify(call.body),
    signal: AbortSignal.timeout(o.timeoutMs),
  });
  const raw = await res.text();
  o.logger?.debug(
    { method: call.method, path: call.path, status: res.status, durationMs: Date.now() - started },
    'ramp call',
  );
  return { status: res.status, raw };
}
