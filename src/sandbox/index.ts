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
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { SandboxToken } from './catalog.js';
import * as h from './handlers.js';
import { checkCredentials, isCheckoutPath, readJsonObject, send } from './http.js';
import type { HandlerEnv } from './kit.js';
import { type Matched, matchRoute, type Route, routes } from './routes.js';
import { type OfframpOrder, type OnrampOrder, SandboxState, type TicketRecord } from './state.js';

export type { SandboxToken } from './catalog.js';
export { feeKes } from './fees.js';
export type { HashCheck } from './handlers.js';
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
  /** Every off-ramp order so far (copies), oldest first. */
  offrampOrders(): OfframpOrder[];
  /** Moves the market: KES per USD for USD-priced tokens from now on (rate alerts' tests and demos). */
  setKesPerUsd(kesPerUsd: number): void;
  /** Quote requests answered so far (both path generations), to count what rate alerts cost. */
  quoteCallCount(): number;
  /** Ticket POSTs so far (both path generations, manual forms too), refused ones included. */
  ticketCallCount(): number;
  /** Holds (true) or lets go (false) every settlement: a burst's payments then settle together. */
  holdSettlements(hold: boolean): void;
  options: ResolvedSandboxOptions;
}

/** Starts the sandbox; resolves once it listens. */
export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const options = resolveOptions(opts);
  const state = new SandboxState(options.settleMs);
  const table = routes();
  let quotes = 0;
  let ticketCalls = 0;
  const log = opts.logger?.child({ component: 'sandbox' });
  const env: HandlerEnv = {
    state,
    kesPerUsd: options.kesPerUsd,
    extraTokens: opts.tokens ?? [],
    verifyOfframpHash: opts.verifyOfframpHash,
    origin: '',
  };

  const server = createServer((req, res) => {
    const started = Date.now();
    if (req.method === 'POST' && /-quotes(\?|$)/.test(req.url ?? '')) quotes++;
    if (req.method === 'POST' && /ticket(\?|$)/.test(req.url ?? '')) ticketCalls++;
    handle(req, options, table, env)
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

  await listen(server, options);
  const { port } = server.address() as AddressInfo;
  options.port = port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  env.origin = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;

  return {
    url: env.origin,
    options,
    depositCallCount: (id) => state.depositCalls.get(id) ?? 0,
    stkPushCount: () => state.onramp.size,
    setKesPerUsd: (kesPerUsd) => {
      if (!(kesPerUsd > 0)) throw new Error(`setKesPerUsd: expected a positive number, got ${kesPerUsd}`);
      env.kesPerUsd = kesPerUsd;
      options.kesPerUsd = kesPerUsd;
    },
    quoteCallCount: () => quotes,
    ticketCallCount: () => ticketCalls,
    holdSettlements: (hold) => {
      state.holding = hold;
    },
    onrampOrders: () => [...state.onramp.values()].map((o) => structuredClone(o)),
    offrampOrders: () => [...state.offramp.values()].map((o) => structuredClone(o)),
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

function resolveOptions(opts: SandboxOptions): ResolvedSandboxOptions {
  return {
    port: opts.port ?? 0,
    host: opts.host ?? '127.0.0.1',
    apiKey: opts.apiKey ?? 'sandbox-key',
    apiSecret: opts.apiSecret ?? 'sandbox-secret',
    checkoutSecret: opts.checkoutSecret ?? 'sandbox-checkout-secret',
    kesPerUsd: opts.kesPerUsd ?? 129.5,
    settleMs: opts.settleMs ?? 4000,
    legacyBrand: opts.legacyBrand ?? 'svc',
  };
}

function listen(server: Server, options: ResolvedSandboxOptions): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** One request: credentials, the route, the JSON body, then the endpoint's handler. */
async function handle(
  req: IncomingMessage,
  options: ResolvedSandboxOptions,
  table: readonly Route[],
  env: HandlerEnv,
): Promise<h.Reply> {
  const url = new URL(req.url ?? '/', 'http://sandbox.local');
  const path = url.pathname;
  const method = req.method ?? 'GET';

  const refused = checkCredentials(req, path, options);
  if (refused) return refused;

  const matched: Matched | undefined =
    isCheckoutPath(path) && method === 'POST'
      ? { handler: h.checkoutSession, generation: 'current', params: {} }
      : matchRoute(table, method, path);
  if (!matched) return { status: 404, body: { status: 'error', message: `Cannot ${method} ${path}` } };

  let body: unknown;
  if (method === 'POST') {
    const read = await readJsonObject(req);
    if ('reply' in read) return read.reply;
    body = read.body;
  }
  return matched.handler(env, {
    generation: matched.generation,
    body,
    params: matched.params,
    query: url.searchParams,
  });
}
