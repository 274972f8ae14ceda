/** `GET /healthz`: 200 with the report when ok, 503 when not ok, failed, or slower than the timeout. */
import { sendJson } from './respond.js';
import type { HealthReport, HttpRoute } from './types.js';

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`health check took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The health route around the process's check. */
export function healthRoute(health: () => Promise<HealthReport>, timeoutMs: number): HttpRoute {
  return {
    method: 'GET',
    path: '/healthz',
    handler: async (_req, res) => {
      try {
        const report = await withTimeout(health(), timeoutMs);
        sendJson(res, report.ok ? 200 : 503, report);
      } catch (err) {
        sendJson(res, 503, { ok: false, details: { error: (err as Error).message } });
      }
    },
  };
}
