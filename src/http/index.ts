/**
 * The process's HTTP server: `GET /healthz`, `GET /metrics`, and whatever other capabilities mount
 * (the Telegram webhook, the signing pages) through `routes` or `addRoute`.
 */
import { createServer, type Server } from 'node:http';
import { Counter, Registry } from 'prom-client';
import type { Logger } from '../log/logger.js';
import { healthRoute, withTimeout } from './health.js';
import { close, drainable, listen } from './listen.js';
import { metricRegistries, metricsRoute } from './metrics.js';
import { createReadiness, readyRoute } from './ready.js';
import { routeRequests } from './router.js';
import type { HealthReport, HttpRoute } from './types.js';

export type { HttpRoute } from './types.js';

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
  /**
   * Whether the server serves every route from the start (default true). The app passes false and
   * calls `markReady` once every route and handler exists (./ready.ts); until then `/readyz` says so.
   */
  startsReady?: boolean;
  /** How long a request waits for readiness before it is answered 503 (default 3 s). */
  readyHoldMs?: number;
}

export interface HttpServer {
  readonly server: Server;
  addRoute(route: HttpRoute): void;
  /** Every route and handler exists: requests held or refused until now are served. */
  markReady(): void;
  readonly ready: boolean;
  /** Listens (port 0 = any free port) and resolves with the bound port and base URL. */
  listen(port: number, host?: string): Promise<{ port: number; url: string }>;
  /**
   * The first step of a graceful stop: stops taking requests (the listener closes, so new
   * connections are refused; a request on a connection still open is answered 503) and resolves
   * once the requests in flight got their answers, or after `maxWaitMs`.
   */
  drain(maxWaitMs: number): Promise<void>;
  /** Drops every open connection and stops listening. */
  close(): Promise<void>;
}

/** Creates the server; call `listen` to open it. */
export function createHttpServer(opts: HttpServerOptions): HttpServer {
  const own = new Registry();
  const requests = new Counter({
    name: 'rampchat_http_requests_total',
    help: 'HTTP requests answered, by route (name or path; unmatched for 404/405) and status code',
    labelNames: ['route', 'status'],
    registers: [own],
  });
  const registries = metricRegistries([...(opts.registries ?? []), own], opts.processMetrics ?? true);
  const healthTimeoutMs = opts.healthTimeoutMs ?? 3_000;
  const readiness = createReadiness({
    ready: opts.startsReady ?? true,
    holdMs: opts.readyHoldMs ?? 3_000,
    requests,
  });
  const routes: HttpRoute[] = [
    ...(opts.routes ?? []),
    healthRoute(() => opts.health(), healthTimeoutMs),
    readyRoute(readiness, () => withTimeout(opts.health(), healthTimeoutMs)),
    metricsRoute(registries, opts.metricsToken),
  ];
  const { listener, drain } = drainable(readiness.gate(routeRequests(routes, opts.logger, requests)));
  const server = createServer(listener);
  return {
    server,
    drain: (maxWaitMs) => {
      readiness.refuse();
      return drain(server, maxWaitMs);
    },
    addRoute(route) {
      routes.unshift(route);
    },
    markReady: () => readiness.markReady(),
    get ready() {
      return readiness.ready;
    },
    listen: (port, host = '0.0.0.0') => listen(server, port, host),
    close: () => {
      readiness.refuse();
      return close(server);
    },
  };
}
