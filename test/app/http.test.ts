/** The running app serves /healthz and /metrics on HTTP_PORT, with the tracker's metrics in them. */
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { type App, startApp } from '../../src/app/start.js';
import { loadConfig } from '../../src/config/env.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';

const prefix = uniquePrefix('apphttp');

afterAll(async () => {
  const redis = await connectTestRedis();
  await flushPrefix(redis, prefix);
  await redis.quit();
});

async function withApp(env: Record<string, string>, run: (app: App, base: string) => Promise<void>) {
  const config = loadConfig({ HTTP_PORT: '0', LOG_LEVEL: 'silent', SANDBOX_SETTLE_MS: '100', ...env });
  const app = await startApp(config, {
    stdin: new PassThrough(),
    stdout: new PassThrough(),
    redisPrefix: prefix,
  });
  try {
    const address = app.http.server.address();
    if (!address || typeof address !== 'object') throw new Error('the HTTP server is not listening');
    await run(app, `http://127.0.0.1:${address.port}`);
  } finally {
    await app.stop();
  }
}

describe('the app HTTP server', () => {
  it('answers /healthz with the tracker and store state, and /metrics with the tracker metrics (Redis)', async () => {
    await withApp({ REDIS_URL: testRedisUrl() }, async (_app, base) => {
      const health = await fetch(`${base}/healthz`);
      expect(health.status).toBe(200);
      const body = (await health.json()) as { ok: boolean; details: { store: string } };
      expect(body.ok).toBe(true);
      expect(body.details.store).toBe('redis');

      const metrics = await fetch(`${base}/metrics`);
      expect(metrics.status).toBe(200);
      const text = await metrics.text();
      expect(text).toContain('rampchat_tracker_orders_tracking');
      expect(text).toContain('rampchat_tracker_deposits_total');
      expect(text).toContain('rampchat_process_cpu_seconds_total');

      expect((await fetch(`${base}/nowhere`)).status).toBe(404);
    });
  });

  it('serves the signing routes on the same server in local mode (memory state)', async () => {
    await withApp({}, async (app, base) => {
      expect(app.store.kind).toBe('memory');
      expect(app.publicUrl).toBe(base);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      // An unknown signing link is a 404 from the sell routes, not the server's fallback.
      const res = await fetch(`${base}/sign/${'x'.repeat(32)}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('text/html');
    });
  });
});
