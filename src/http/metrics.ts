/**
 * `GET /metrics`: every capability's registry (and Node's process metrics) in one Prometheus text;
 * with a token set, only for `Authorization: Bearer <token>`, compared in constant time. Without a
 * token, only for a direct request from this machine: a peer beyond loopback, or a request a proxy
 * forwarded (it carries X-Forwarded-For or Forwarded), is answered 403.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { HttpRoute } from './types.js';

/** Constant-time check of a bearer token. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

/** A request made on this machine straight to the server (not through a proxy). */
function directFromLoopback(req: IncomingMessage): boolean {
  const peer = req.socket.remoteAddress ?? '';
  const loopback = peer === '::1' || /^(::ffff:)?127\./.test(peer);
  return loopback && !req.headers['x-forwarded-for'] && !req.headers.forwarded;
}

/** The registries to serve: the given ones, plus Node's process metrics (`rampchat_*`) when asked. */
export function metricRegistries(given: Registry[], processMetrics: boolean): Registry[] {
  const registries = [...given];
  if (processMetrics) {
    const processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: 'rampchat_' });
    registries.push(processRegistry);
  }
  return registries;
}

/** The metrics route over `registries`. */
export function metricsRoute(registries: Registry[], token: string | undefined): HttpRoute {
  return {
    method: 'GET',
    path: '/metrics',
    handler: async (req, res) => {
      if (token && !bearerMatches(req.headers.authorization, token)) {
        res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
        return;
      }
      if (!token && !directFromLoopback(req)) {
        res
          .writeHead(403, { 'content-type': 'text/plain' })
          .end('set METRICS_TOKEN to serve /metrics beyond loopback\n');
        return;
      }
      const texts = await Promise.all(registries.map((r) => r.metrics()));
      res.writeHead(200, { 'content-type': Registry.PROMETHEUS_CONTENT_TYPE });
      res.end(texts.filter(Boolean).join('\n'));
    },
  };
}
