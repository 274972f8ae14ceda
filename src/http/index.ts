/**
 * The process's HTTP server: `GET /healthz`, `GET /metrics`, and whatever other capabilities mount
 * (the Telegram webhook, the signing pages) through `routes` or `addRoute`.
 * The parts: router.ts (matching, 404/405/500), health.ts, metrics.ts, listen.ts.
 */
import { createServer, type Server } from 'node:http';
import { Counter, Registry } from 'prom-client';
import type { Logger } from '../log/logger.js';
import { healthRoute } from './health.js';
import { close, drainable, listen } from './listen.js';
import { metricRegistries, metricsRoute } from './metrics.js';
import { routeRequests } from './router.js';
import type { HealthReport, HttpRoute } from './types.js';

export type { HealthReport, HttpRoute, RouteHandler } from './types.js';

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
  const routes: HttpRoute[] = [
    ...(opts.routes ?? []),
    healthRoute(() => opts.health(), opts.healthTimeoutMs ?? 3_000),
    metricsRoute(registries, opts.metricsToken),
  ];
  const { listener, drain } = drainable(routeRequests(routes, opts.logger, requests));
  const server = createServer(listener);
  return {
    server,
    drain: (maxWaitMs) => drain(server, maxWaitMs),
    addRoute(route) {
      routes.unshift(route);
    },
    listen: (port, host = '0.0.0.0') => listen(server, port, host),
    close: () => close(server),
  };
}
