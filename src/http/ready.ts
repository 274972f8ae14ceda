/**
 * Readiness. The server listens early (its port is known, `/healthz` answers for liveness), but a
 * process is half-wired until every route and handler exists: a webhook post would meet an engine
 * without its effects, a signing link a server without `/sign`. Until `markReady`, every request but
 * `/healthz`, `/readyz` and `/metrics` waits for it (at most `holdMs`), then is answered 503 with
 * `Retry-After` (and `Refresh` for a page, so a browser tries again by itself); Telegram and Meta
 * send a refused post again. `/readyz` answers 200 only once ready and healthy.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Counter } from 'prom-client';
import { sendJson } from './respond.js';
import type { HealthReport, HttpRoute } from './types.js';

/** Answered whatever the readiness: liveness, readiness, and the metrics of a starting process. */
const ALWAYS = new Set(['/healthz', '/readyz', '/metrics']);

export interface Readiness {
  readonly ready: boolean;
  /** Every route and handler exists: requests are served from now on. */
  markReady(): void;
  /** A stop began: requests still held are answered 503 at once. */
  refuse(): void;
  /** The listener that holds or refuses requests until ready, then hands them to `next`. */
  gate(
    next: (req: IncomingMessage, res: ServerResponse) => void,
  ): (req: IncomingMessage, res: ServerResponse) => void;
}

/** Readiness that starts `ready` or not; a request waits at most `holdMs` for it. */
export function createReadiness(opts: {
  ready: boolean;
  holdMs: number;
  requests?: Counter<'route' | 'status'>;
}): Readiness {
  let ready = opts.ready;
  let refused = false;
  const waiting = new Set<() => void>();
  const wake = () => {
    for (const w of [...waiting]) w();
    waiting.clear();
  };
  const refuseStarting = (req: IncomingMessage, res: ServerResponse) => {
    opts.requests?.inc({ route: 'starting', status: '503' });
    if (req.method === 'GET' || req.method === 'HEAD') res.setHeader('refresh', '1');
    res.setHeader('retry-after', '1');
    sendJson(res, 503, { error: 'starting, try again in a moment' });
  };
  const held = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      waiting.add(done);
    });
  return {
    get ready() {
      return ready;
    },
    markReady() {
      ready = true;
      wake();
    },
    refuse() {
      refused = true;
      wake();
    },
    gate: (next) => (req, res) => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      if (ready || ALWAYS.has(path)) return next(req, res);
      void held(opts.holdMs).then(() => (ready && !refused ? next(req, res) : refuseStarting(req, res)));
    },
  };
}

/** `GET /readyz`: 200 once the process can do its whole job and its health check passes, else 503. */
export function readyRoute(readiness: Readiness, health: () => Promise<HealthReport>): HttpRoute {
  return {
    method: 'GET',
    path: '/readyz',
    handler: async (_req, res) => {
      if (!readiness.ready) {
        res.setHeader('retry-after', '1');
        return sendJson(res, 503, { ready: false, details: { starting: true } });
      }
      const report = await health().catch(
        (err: unknown): HealthReport => ({ ok: false, details: { error: (err as Error).message } }),
      );
      sendJson(res, report.ok ? 200 : 503, { ready: report.ok, details: report.details });
    },
  };
}
