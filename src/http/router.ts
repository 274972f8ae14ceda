/**
 * Routing: the first route whose method and path match answers (404 for an unknown path, 405 for a
 * known path and another method); a route that throws is logged and answered 500. A signing link's
 * token is never logged.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Counter } from 'prom-client';
import type { Logger } from '../log/logger.js';
import { sendJson } from './respond.js';
import type { HttpRoute } from './types.js';

/** The first route for `method` and `path`. */
export const matchRoute = (routes: HttpRoute[], method: string, path: string): HttpRoute | undefined =>
  routes.find(
    (r) =>
      (r.method === '*' || r.method.toUpperCase() === method) &&
      (r.prefix
        ? path === r.path || path.startsWith(r.path.endsWith('/') ? r.path : `${r.path}/`)
        : path === r.path),
  );

/**
 * The request listener over `routes` (read at each request, so routes added later count); each
 * answer is counted in `requests` by route (its name or path; `unmatched` for 404/405) and status.
 */
export function routeRequests(routes: HttpRoute[], logger?: Logger, requests?: Counter<'route' | 'status'>) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const method = (req.method ?? 'GET').toUpperCase();
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const route = matchRoute(routes, method, path);
    if (requests) {
      const label = route ? (route.name ?? route.path) : 'unmatched';
      res.once('finish', () => requests.inc({ route: label, status: String(res.statusCode) }));
    }
    if (!route) {
      const known = routes.some((r) => r.path === path);
      sendJson(res, known ? 405 : 404, { error: known ? 'method not allowed' : 'not found' });
      return;
    }
    Promise.resolve()
      .then(() => route.handler(req, res))
      .catch((err: unknown) => {
        // A signing link's token opens the link: it never goes to a log.
        logger?.error({ err, path: path.replace(/^\/sign\/[^/]+/, '/sign/[token]') }, 'http route failed');
        if (!res.headersSent) sendJson(res, 500, { error: 'internal error' });
        else res.end();
      });
  };
}
