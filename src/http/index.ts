/**
 * The process's HTTP server: `GET /healthz`, `GET /metrics`, and whatever other capabilities mount
 * (the Telegram webhook, the signing pages) through `routes` or `addRoute`.
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { Logger } from '../log/logger.js';

export interface HealthReport {
  ok: boolean;
  details: Record<string, unknown>;
}

export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface HttpRoute {
  /** HTTP method, or `*` for any. */
  method: string;
  /** Exact path (query string ignored), or with `prefix` every path under it. */
  path: string;
  prefix?: boolean;
  handler: RouteHandler;
}

export interface HttpServerOptions {
  /** Registries served together on /metrics (each capability keeps its own). */
  registries?: Registry[];
  /** Answers /healthz: 200 when ok, 503 otherwise. */
  health: () => Promise<HealthReport>;
  routes?: HttpRoute[];
  /** Adds Node's process metrics (`rampchat_process_*`, `rampchat_nodejs_*`). Default true. */
  processMetrics?: boolean;
  /** /healthz answers 503 when the check takes longer. Default 3 s. */
  healthTimeoutMs?: number;
  /** When set, /metrics answers only `Authorization: Bearer <metricsToken>` (401 otherwise). */
  metricsToken?: string;
  logger?: Logger;
}

export interface HttpServer {
  readonly server: Server;
  addRoute(route: HttpRoute): void;
  /** Listens (port 0 = any free port) and resolves with the bound port and base URL. */
  listen(port: number, host?: string): Promise<{ port: number; url: string }>;
  close(): Promise<void>;
}

const sendJson = (res: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
};

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`health check took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Constant-time check of a bearer token. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

/** Creates the server; call `listen` to open it. */
export function createHttpServer(opts: HttpServerOptions): HttpServer {
  const registries = [...(opts.registries ?? [])];
  if (opts.processMetrics ?? true) {
    const processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: 'rampchat_' });
    registries.push(processRegistry);
  }
  const routes: HttpRoute[] = [...(opts.routes ?? [])];
  const healthTimeoutMs = opts.healthTimeoutMs ?? 3_000;

  routes.push(
    {
      method: 'GET',
      path: '/healthz',
      handler: async (_req, res) => {
        try {
          const report = await withTimeout(opts.health(), healthTimeoutMs);
          sendJson(res, report.ok ? 200 : 503, report);
        } catch (err) {
          sendJson(res, 503, { ok: false, details: { error: (err as Error).message } });
        }
      },
    },
    {
      method: 'GET',
      path: '/metrics',
      handler: async (req, res) => {
        if (opts.metricsToken && !bearerMatches(req.headers.authorization, opts.metricsToken)) {
          res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
          return;
        }
        const texts = await Promise.all(registries.map((r) => r.metrics()));
        res.writeHead(200, { 'content-type': Registry.PROMETHEUS_CONTENT_TYPE });
        res.end(texts.filter(Boolean).join('\n'));
      },
    },
  );

  const match = (method: string, path: string): HttpRoute | undefined =>
    routes.find(
      (r) =>
        (r.method === '*' || r.method.toUpperCase() === method) &&
        (r.prefix
          ? path === r.path || path.startsWith(r.path.endsWith('/') ? r.path : `${r.path}/`)
          : path === r.path),
    );

  const server = createServer((req, res) => {
    const method = (req.method ?? 'GET').toUpperCase();
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const route = match(method, path);
    if (!route) {
      const known = routes.some((r) => r.path === path);
      sendJson(res, known ? 405 : 404, { error: known ? 'method not allowed' : 'not found' });
      return;
    }
    Promise.resolve()
      .then(() => route.handler(req, res))
      .catch((err: unknown) => {
        // A signing link's token opens the link: it never goes to a log.
        opts.logger?.error(
          { err, path: path.replace(/^\/sign\/[^/]+/, '/sign/[token]') },
          'http route failed',
        );
        if (!res.headersSent) sendJson(res, 500, { error: 'internal error' });
        else res.end();
      });
  });

  return {
    server,
    addRoute(route) {
      routes.unshift(route);
    },
    listen(port, host = '0.0.0.0') {
      return new Promise((resolve, reject) => {
        const onError = (err: NodeJS.ErrnoException) =>
          reject(
            err.code === 'EADDRINUSE'
              ? new Error(
                  `HTTP_PORT ${port} is already in use on ${host}: set HTTP_PORT to a free port (0 picks one)`,
                )
              : err,
          );
        server.once('error', onError);
        server.listen(port, host, () => {
          server.off('error', onError);
          const addr = server.address() as AddressInfo;
          const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
          resolve({ port: addr.port, url: `http://${shownHost}:${addr.port}` });
        });
      });
    },
    close() {
      return new Promise((resolve, reject) => {
        if (!server.listening) return resolve();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
