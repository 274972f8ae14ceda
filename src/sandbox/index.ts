/**
 * A local stand-in for the ramp service: both path generations, the checkout endpoint, the
 * documented bodies and texts, a simulated M-Pesa whose outcome follows the phone number. State is
 * in memory. See PHONE_OUTCOMES for the test numbers.
 *
 * ```ts
 * const sandbox = await startSandbox({ port: 0, settleMs: 100 });
 * const ramp = createRampClient({ baseUrl: sandbox.url, apiKey: 'sandbox-key', apiSecret: 'sandbox-secret' });
 * ```
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { SandboxToken } from './catalog.js';
import * as h from './handlers.js';
import { type OfframpOrder, type OnrampOrder, SandboxState, type TicketRecord } from './state.js';

export type { SandboxToken } from './catalog.js';
export { feeKes, OFFRAMP_LIMITS, ONRAMP_LIMITS } from './fees.js';
export type { HashCheck, VerifyOfframpHash } from './handlers.js';
export { PHONE_OUTCOMES } from './state.js';

export interface SandboxOptions {
  /** 0 = a random free port; default 0. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  apiKey?: string;
  apiSecret?: string;
  checkoutSecret?: string;
  /** KES per USD for USD-priced tokens; default 129.5. */
  kesPerUsd?: number;
  /** How long M-Pesa takes to settle an STK push or a payout; default 4000. */
  settleMs?: number;
  /**
   * The brand our client puts in legacy paths (`/api/<brand>-quotes`), shown in the banner; default
   * 'svc'. Legacy paths are served under any lowercase brand segment, this one included.
   */
  legacyBrand?: string;
  /** Checks an off-ramp transfer; a returned text refuses the order with HTTP 400. */
  verifyOfframpHash?: h.VerifyOfframpHash;
  /** More tokens to list and price (e.g. contracts deployed on a local chain). */
  tokens?: SandboxToken[];
  logger?: Logger;
}

export interface ResolvedSandboxOptions {
  port: number;
  host: string;
  apiKey: string;
  apiSecret: string;
  checkoutSecret: string;
  kesPerUsd: number;
  settleMs: number;
  legacyBrand: string;
}

export interface Sandbox {
  /** Base address, e.g. `http://127.0.0.1:41234` (no trailing slash); checkout is served here too. */
  url: string;
  close(): Promise<void>;
  /** How many deposit (crypto release) calls named this order, refused ones included. */
  depositCallCount(orderId: string): number;
  /** A copy of an order as the sandbox keeps it (for tests). */
  order(orderId: string): Readonly<OnrampOrder | OfframpOrder> | undefined;
  /** Tickets filed so far, oldest first. */
  tickets(): readonly TicketRecord[];
  /** On-ramp orders created so far (each one an STK push). */
  stkPushCount(): number;
  /** Every on-ramp order so far (copies), oldest first. */
  onrampOrders(): OnrampOrder[];
  options: ResolvedSandboxOptions;
}

interface Route {
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
function routes(): Route[] {
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

const MAX_BODY = 1_000_000;

function readBody(req: IncomingMessage): Promise<string | 'too_large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        resolve('too_large');
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, reply: h.Reply): void {
  const text = JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** Starts the sandbox; resolves once it listens. */
export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const options: ResolvedSandboxOptions = {
    port: opts.port ?? 0,
    host: opts.host ?? '127.0.0.1',
    apiKey: opts.apiKey ?? 'sandbox-key',
    apiSecret: opts.apiSecret ?? 'sandbox-secret',
    checkoutSecret: opts.checkoutSecret ?? 'sandbox-checkout-secret',
    kesPerUsd: opts.kesPerUsd ?? 129.5,
    settleMs: opts.settleMs ?? 4000,
    legacyBrand: opts.legacyBrand ?? 'svc',
  };
  const state = new SandboxState(options.settleMs);
  const table = routes();
  const log = opts.logger?.child({ component: 'sandbox' });
  let origin = '';

  async function handle(req: IncomingMessage): Promise<h.Reply> {
    const url = new URL(req.url ?? '/', 'http://sandbox.local');
    const path = url.pathname;
    const method = req.method ?? 'GET';

    const isCheckout = path.replace(/\/$/, '') === '/v1/checkout/sessions';
    if (isCheckout) {
      const auth = req.headers.authorization ?? '';
      if (!auth.startsWith('Bearer '))
        return { status: 401, body: { status: 'error', message: 'Missing bearer token' } };
      if (auth.slice(7).trim() !== options.checkoutSecret) {
        return { status: 401, body: { status: 'error', message: 'Invalid secret key' } };
      }
    } else if (path.startsWith('/api/')) {
      const key = req.headers['x-api-key'];
      const secret = req.headers['x-api-secret'];
      if (!key || !secret)
        return { status: 401, body: { status: 'error', message: 'API key and secret are required' } };
      if (key !== options.apiKey || secret !== options.apiSecret) {
        return { status: 401, body: { status: 'error', message: 'Invalid API credentials' } };
      }
    }

    let handler: h.Handler | undefined;
    let generation: h.Generation = 'current';
    const params: Record<string, string> = {};
    if (isCheckout && method === 'POST') handler = h.checkoutSession;
    for (const r of handler ? [] : table) {
      const m = r.pattern.exec(path);
      if (!m || r.method !== method) continue;
      handler = r.handler;
      generation = r.generation;
      if (m[1] !== undefined) {
        let v = m[1];
        try {
          v = decodeURIComponent(v);
        } catch {}
        params.id = v;
        params.address = v;
      }
      break;
    }
    if (!handler) return { status: 404, body: { status: 'error', message: `Cannot ${method} ${path}` } };

    let body: unknown;
    if (method === 'POST') {
      const raw = await readBody(req);
      if (raw === 'too_large') {
        return {
          status: 413,
          body: { statusCode: 413, message: 'Payload Too Large', error: 'request entity too large' },
        };
      }
      if (raw.trim() !== '') {
        try {
          body = JSON.parse(raw);
        } catch (e) {
          return {
            status: 400,
            body: {
              statusCode: 400,
              message: 'Invalid JSON',
              error: `Request body is not valid JSON: ${(e as Error).message}`,
            },
          };
        }
      }
      if (body === undefined || body === null) body = {};
      if (typeof body !== 'object' || Array.isArray(body)) {
        return {
          status: 400,
          body: {
            statusCode: 400,
            message: 'Validation failed',
            error: 'Request body must be a JSON object',
          },
        };
      }
    }
    return handler(
      {
        state,
        kesPerUsd: options.kesPerUsd,
        extraTokens: opts.tokens ?? [],
        verifyOfframpHash: opts.verifyOfframpHash,
        origin,
      },
      { generation, body, params, query: url.searchParams },
    );
  }

  const server = createServer((req, res) => {
    const started = Date.now();
    handle(req)
      .catch((err: unknown) => {
        log?.error({ err: (err as Error)?.message, method: req.method }, 'sandbox handler failed');
        return { status: 500, body: { error: 'Internal server error' } };
      })
      .then((reply) => {
        log?.debug(
          {
            method: req.method,
            path: req.url?.split('?')[0],
            status: reply.status,
            durationMs: Date.now() - started,
          },
          'sandbox request',
        );
        if (!res.headersSent) send(res, reply);
      })
      .catch(() => res.destroy());
  });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  options.port = port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  origin = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;

  return {
    url: origin,
    options,
    depositCallCount: (id) => state.depositCalls.get(id) ?? 0,
    stkPushCount: () => state.onramp.size,
    onrampOrders: () => [...state.onramp.values()].map((o) => structuredClone(o)),
    order: (id) => {
      const o = state.onramp.get(id) ?? state.offramp.get(id);
      return o ? structuredClone(o) : undefined;
    },
    tickets: () => state.tickets.map((t) => ({ ...t })),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
