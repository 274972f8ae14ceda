/** One JSON call to an outside service with a deadline (the doctor's checks share it). */
// biome-ignore lint/suspicious/noExplicitAny: JSON from the wire, read field by field by each check
export type Json = any;

export interface JsonAnswer {
  status: number;
  body: Json;
}

/** Fetches `url` and reads its JSON body (undefined when it is not JSON); rejects on a network error or the deadline. */
export async function fetchJson(
  url: string,
  opts: { timeoutMs: number; method?: string; headers?: Record<string, string>; body?: unknown },
): Promise<JsonAnswer> {
  const res = await fetch(url, {
    method: opts.method ?? (opts.body === undefined ? 'GET' : 'POST'),
    headers: {
      accept: 'application/json',
      ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...opts.headers,
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    signal: AbortSignal.timeout(opts.timeoutMs),
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body };
}

/**
 * A URL for a row's detail: its origin only. Providers put keys in the path (an RPC URL such as
 * `…/v2/<key>`) or the user part, so neither is ever shown.
 */
export function shownUrl(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid URL)';
  }
}
