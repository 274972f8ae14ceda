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

/** A URL for a row's detail: origin and path, never credentials or a query. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}
