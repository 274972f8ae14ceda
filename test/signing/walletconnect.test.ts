/**
 * The pinned WalletConnect files served by rampchat (real HTTP to a local fake of the CDN): a file
 * that matches its pinned SHA-384 is served and cached; one that does not is never served; the
 * manifest holds the whole release.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer, type HttpServer } from '../../src/http/index.js';
import { createLogger } from '../../src/log/logger.js';
import {
  WALLETCONNECT_MANIFEST,
  WALLETCONNECT_PATH,
  walletConnectRoute,
} from '../../src/signing/walletconnect.js';
import { fakeCdn } from './fake-cdn.js';

const sha384 = (s: string) => createHash('sha384').update(s).digest('base64');
const good = 'export const appkit = 1;';
const chunk = 'export const chunk = 2;';

let cdn: Awaited<ReturnType<typeof fakeCdn>>;
let http: HttpServer;
let base: string;
/** The route's clock: moved past the failure cache by the tests. */
let clock = Date.now();

beforeAll(async () => {
  cdn = await fakeCdn({ 'appkit.js': good, 'chunk-A1.js': 'export const chunk = "tampered";' });
  http = createHttpServer({ health: async () => ({ ok: true, details: {} }), processMetrics: false });
  http.addRoute(
    walletConnectRoute({
      logger: createLogger({ level: 'silent' }),
      cdnBase: cdn.url,
      manifest: { 'appkit.js': sha384(good), 'chunk-A1.js': sha384(chunk) },
      now: () => clock,
    }),
  );
  const { url } = await http.listen(0, '127.0.0.1');
  base = `${url}${WALLETCONNECT_PATH}`;
});
afterAll(async () => {
  await http?.close();
  await cdn?.close();
});

describe('serving the pinned WalletConnect release', () => {
  it('serves a file that matches its pinned hash, as immutable JavaScript, fetching it once', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${base}appkit.js`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect(res.headers.get('cache-control')).toContain('immutable');
      expect(await res.text()).toBe(good);
    }
    expect(cdn.requests().filter((p) => p === '/appkit.js')).toHaveLength(1);
  });

  it('never serves a file whose content differs from the pin, and asks again later', async () => {
    expect((await fetch(`${base}chunk-A1.js`)).status).toBe(502);
    cdn.files['chunk-A1.js'] = chunk;
    // Within the failure cache the CDN is not asked again, even though it now has the right file.
    expect((await fetch(`${base}chunk-A1.js`)).status).toBe(502);
    expect(cdn.requests().filter((p) => p === '/chunk-A1.js')).toHaveLength(1);
    clock += 60_001;
    const res = await fetch(`${base}chunk-A1.js`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(chunk);
  });

  it('proxies nothing outside the manifest', async () => {
    const before = cdn.requests().length;
    expect((await fetch(`${base}other.js`)).status).toBe(404);
    expect((await fetch(`${base}..%2F..%2Fpackage.json`)).status).toBe(404);
    expect(cdn.requests()).toHaveLength(before);
  });

  it('pins every script of the release, the entry module included', () => {
    expect(Object.keys(WALLETCONNECT_MANIFEST).length).toBeGreaterThan(200);
    expect(WALLETCONNECT_MANIFEST['appkit.js']).toMatch(/^[A-Za-z0-9+/]{64}$/);
  });
});

describe('an unreachable CDN', () => {
  let route: { close: () => Promise<void>; base: string; fetches: () => number };
  let now = Date.now();
  beforeAll(async () => {
    // A local upstream that fails every request (the CDN having a bad day), counting what it is asked.
    const { createServer } = await import('node:http');
    let fetches = 0;
    const upstream = createServer((_req, res) => {
      fetches += 1;
      // Slow enough that concurrent requests overlap one fetch.
      setTimeout(() => {
        res.writeHead(503, { 'content-type': 'text/plain' });
        res.end('down');
      }, 100);
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const port = (upstream.address() as { port: number }).port;
    const server = createHttpServer({
      health: async () => ({ ok: true, details: {} }),
      processMetrics: false,
    });
    server.addRoute(
      walletConnectRoute({
        logger: createLogger({ level: 'silent' }),
        cdnBase: `http://127.0.0.1:${port}/`,
        manifest: { 'appkit.js': sha384(good) },
        now: () => now,
      }),
    );
    const { url } = await server.listen(0, '127.0.0.1');
    route = {
      base: `${url}${WALLETCONNECT_PATH}`,
      fetches: () => fetches,
      close: async () => {
        await server.close();
        await new Promise<void>((r) => upstream.close(() => r()));
      },
    };
  });
  afterAll(async () => {
    await route?.close();
  });

  it('53 anonymous GETs while the CDN fails make one upstream fetch, and one more after the failure cache', async () => {
    const burst = await Promise.all(Array.from({ length: 20 }, () => fetch(`${route.base}appkit.js`)));
    expect(burst.map((r) => r.status)).toEqual(Array(20).fill(502));
    for (let i = 0; i < 33; i++) expect((await fetch(`${route.base}appkit.js`)).status).toBe(502);
    expect(route.fetches()).toBe(1);
    now += 59_000;
    expect((await fetch(`${route.base}appkit.js`)).status).toBe(502);
    expect(route.fetches()).toBe(1);
    now += 2_000;
    await Promise.all(Array.from({ length: 5 }, () => fetch(`${route.base}appkit.js`)));
    expect(route.fetches()).toBe(2);
  });
});
