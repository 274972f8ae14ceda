/** The shapes a capability mounts on the HTTP server with (a leaf: index.ts re-exports them). */
import type { IncomingMessage, ServerResponse } from 'node:http';

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
  /** The `route` label of rampchat_http_requests_total (default the path). */
  name?: string;
  handler: RouteHandler;
}
