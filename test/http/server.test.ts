import { Counter, Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpServer, type HttpServer } from '../../src/http/index.js';
import { createLogger } from '../../src/log/logger.js';
import { createRampClient } from '../../src/ramp/index.js';
import { createTracker } from '../../src/tracker/index.js';
import { testRedisUrl, uniquePrefix } from '../helpers/redis.js';

let server: HttpServer | undefined;
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const stop of stops.splice(0)) await stop();
});

const quietRamp = () => createRampClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', apiSecret: 's' });
const notifier = { notify: async () => {} };
const config = {
  pollIntervalMs: 100,
  onrampHorizonMs: 1000,
  offrampHorizonMs: 1000,
  concurrency: 1,
  project: 'p',
};

describe('HTTP server', () => {
  it('serves /healthz from the tracker (Redis ping, queue counts) and /metrics with the tracker metrics', async () => {
    const tracker = createTracker({
      ramp: quietRamp(),
      notifier,
      logger: createLogger({ level: 'silent' }),
      redisUrl: testRedisUrl(),
      prefix: uniquePrefix('http'),
      config,
    });
    stops.push(() => tracker.stop());
    await tracker.start();
    server = createHttpServer({ registries: [tracker.registry], health: () => tracker.health() });
    const { url } = await server.listen(0, '127.0.0.1');

    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({
      ok: true,
      details: { store: 'redis', redis: 'ok', queue: { waiting: 0, delayed: 0, active: 0, failed: 0 } },
    });

    const metrics = await fetch(`${url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    const text = await metrics.text();
    for (const name of [
      'rampchat_tracker_orders_total',
      'rampchat_tracker_orders_tracking',
      'rampchat_tracker_poll_duration_seconds',
      'rampchat_tracker_deposits_total',
      'rampchat_tracker_queue_lag_seconds',
      'rampchat_tracker_errors_total',
      'rampchat_process_cpu_user_seconds_total',
    ]) {
      expect(text).toContain(`# TYPE ${name}`);
    }
    expect(text).toContain('rampchat_tracker_orders_tracking 0');
  });

  it('answers 503 when a dependency is down or the check hangs', async () => {
    let mode: 'down' | 'hang' | 'throw' = 'down';
    server = createHttpServer({
      registries: [],
      processMetrics: false,
      healthTimeoutMs: 100,
      health: async () => {
        if (mode === 'hang') return new Promise(() => {});
        if (mode === 'throw') throw new Error('redis is gone');
        return { ok: false, details: { redis: 'ECONNREFUSED' } };
      },
    });
    const { url } = await server.listen(0, '127.0.0.1');
    let res = await fetch(`${url}/healthz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ ok: false, details: { redis: 'ECONNREFUSED' } });
    mode = 'hang';
    res = await fetch(`${url}/healthz`);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { details: { error: string } }).details.error).toMatch(/100 ms/);
    mode = 'throw';
    res = await fetch(`${url}/healthz`);
    expect(res.status).toBe(503);
  });

  it('a real tracker whose Redis is unreachable is unhealthy', async () => {
    const tracker = createTracker({
      ramp: quietRamp(),
      notifier,
      logger: createLogger({ level: 'silent' }),
      redisUrl: 'redis://127.0.0.1:1',
      prefix: uniquePrefix('http'),
      config,
    });
    stops.push(() => tracker.stop());
    server = createHttpServer({
      health: () => tracker.health(),
      healthTimeoutMs: 1_000,
      processMetrics: false,
    });
    const { url } = await server.listen(0, '127.0.0.1');
    const res = await fetch(`${url}/healthz`);
    expect(res.status).toBe(503);
  });

  it('mounts extra routes, merges registries, and answers 404/405 for the rest', async () => {
    const registry = new Registry();
    new Counter({ name: 'rampchat_test_total', help: 'test', registers: [registry] }).inc(3);
    server = createHttpServer({
      registries: [registry],
      processMetrics: false,
      health: async () => ({ ok: true, details: {} }),
      routes: [
        {
          method: 'POST',
          path: '/telegram/webhook',
          handler: (_req, res) => {
            res.writeHead(204).end();
          },
        },
      ],
    });
    server.addRoute({
      method: 'GET',
      path: '/sign',
      prefix: true,
      handler: (req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' }).end(req.url);
      },
    });
    server.addRoute({
      method: 'GET',
      path: '/boom',
      handler: () => {
        throw new Error('broken handler');
      },
    });
    const { url } = await server.listen(0, '127.0.0.1');
    expect((await fetch(`${url}/telegram/webhook`, { method: 'POST', body: '{}' })).status).toBe(204);
    expect((await fetch(`${url}/telegram/webhook`)).status).toBe(405);
    expect(await (await fetch(`${url}/sign/abc?x=1`)).text()).toBe('/sign/abc?x=1');
    expect((await fetch(`${url}/signature`)).status).toBe(404);
    expect((await fetch(`${url}/nope`)).status).toBe(404);
    expect((await fetch(`${url}/boom`)).status).toBe(500);
    expect(await (await fetch(`${url}/metrics`)).text()).toContain('rampchat_test_total 3');
  });
});

describe('HTTP server logs', () => {
  it('never writes a signing link token when a route under /sign/ fails', async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (l: string) => void lines.push(l) } });
    server = createHttpServer({
      health: async () => ({ ok: true, details: {} }),
      processMetrics: false,
      logger,
    });
    const token = 'Zq8sTopSecretLinkToken1234567890';
    server.addRoute({
      method: '*',
      path: '/sign/',
      prefix: true,
      handler: () => {
        throw new Error('boom');
      },
    });
    const { url } = await server.listen(0, '127.0.0.1');
    const res = await fetch(`${url}/sign/${token}/tx`);
    expect(res.status).toBe(500);
    const failure = lines.find((l) => l.includes('http route failed'));
    expect(failure).toBeDefined();
    expect(failure).toContain('/sign/[token]/tx');
    expect(lines.join('\n')).not.toContain(token);
  });
});

describe('draining (the first step of a graceful stop)', () => {
  it('refuses new connections and resolves once the request in flight got its answer', async () => {
    const { request, Agent } = await import('node:http');
    let finish!: () => void;
    const slowDone = new Promise<void>((r) => {
      finish = r;
    });
    server = createHttpServer({
      health: async () => ({ ok: true, details: {} }),
      processMetrics: false,
      routes: [
        {
          method: 'GET',
          path: '/slow',
          handler: async (_req, res) => {
            await slowDone;
            res.writeHead(200).end('done');
          },
        },
      ],
    });
    const { url } = await server.listen(0, '127.0.0.1');
    const agent = new Agent({ keepAlive: true, maxSockets: 2 });
    const get = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(`${url}${path}`, { agent }, (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    // A kept-alive connection left idle (closed by the drain), and a request in flight on another.
    expect((await get('/healthz')).status).toBe(200);
    const slow = get('/slow');
    await new Promise((r) => setTimeout(r, 100));

    let drained = false;
    const draining = server.drain(5000).then(() => {
      drained = true;
    });
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    expect(drained).toBe(false);
    finish();
    expect(await slow).toEqual({ status: 200, body: 'done' });
    await draining;
    agent.destroy();
  });
});
