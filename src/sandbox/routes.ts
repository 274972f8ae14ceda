/**
 * The sandbox's routes: both path generations of the ramp API. Legacy paths carry a brand segment;
 * current paths are tried first, so `/api/fx-quotes` is the current quote, not a legacy one of brand `fx`.
 */
import * as h from './handlers.js';

export interface Route {
  method: 'GET' | 'POST';
  pattern: RegExp;
  generation: h.Generation;
  handler: h.Handler;
}

const ID = '([^/]*)';
/**
 * Any lowercase brand segment (letters, digits, inner dashes): clients of the real service
 * hard-code the service's own name there, our client sends RAMP_LEGACY_BRAND.
 */
const BRAND = '[a-z0-9]+(?:-[a-z0-9]+)*';

/** Current paths first, so `/api/fx-quotes` is the current quote, not a legacy one of brand `fx`. */
export function routes(): Route[] {
  const r = (method: Route['method'], path: string, generation: h.Generation, handler: h.Handler): Route => ({
    method,
    pattern: new RegExp(`^${path}/?$`),
    generation,
    handler,
  });
  return [
    r('POST', '/api/fx-quotes', 'current', h.quote),
    r('GET', '/api/listed-assets', 'current', h.assets),
    r('POST', '/api/onramp-orders', 'current', h.createOnramp),
    r('GET', `/api/onramp-order-status/${ID}`, 'current', h.onrampStatus),
    r('POST', '/api/deposit', 'current', h.deposit),
    r('POST', '/api/offramp-orders', 'current', h.createOfframp),
    r('GET', `/api/offramp-order-status/${ID}`, 'current', h.offrampStatus),
    r('POST', '/api/offramp-ticket', 'current', h.offrampTicket),
    r('POST', '/api/onramp-ticket', 'current', h.onrampTicket),
    r('GET', `/api/deposit-transactions/${ID}`, 'current', h.onrampHistory),
    r('GET', `/api/withdrawal-transactions/${ID}`, 'current', h.offrampHistory),
    r('POST', `/api/${BRAND}-quotes`, 'legacy', h.quote),
    r('GET', `/api/${BRAND}-supported-assets`, 'legacy', h.assets),
    r('POST', `/api/${BRAND}-onramp`, 'legacy', h.createOnramp),
    r('GET', `/api/order-onramp-status/${ID}`, 'legacy', h.onrampStatus),
    r('POST', `/api/${BRAND}-deposit`, 'legacy', h.deposit),
    r('POST', `/api/${BRAND}-order-offramp`, 'legacy', h.createOfframp),
    r('GET', `/api/order-offramp-status/${ID}`, 'legacy', h.offrampStatus),
    r('POST', '/api/create-offramp-ticket', 'legacy', h.offrampTicket),
    r('POST', '/api/user-onramp-ticket', 'legacy', h.onrampTicket),
  ];
}

/** The route a request takes, with its path parameter (an order id or address) decoded. */
export interface Matched {
  handler: h.Handler;
  generation: h.Generation;
  params: Record<string, string>;
}

/** The first route of the table matching the method and path. */
export function matchRoute(table: readonly Route[], method: string, path: string): Matched | undefined {
  for (const r of table) {
    const m = r.pattern.exec(path);
    if (!m || r.method !== method) continue;
    const params: Record<string, string> = {};
    if (m[1] !== undefined) {
      let v = m[1];
      try {
        v = decodeURIComponent(v);
      } catch {}
      params.id = v;
      params.address = v;
    }
    return { handler: r.handler, generation: r.generation, params };
  }
  return undefined;
}
