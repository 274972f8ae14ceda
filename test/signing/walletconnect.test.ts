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

beforeAll(async () => {
  cdn = await fakeCdn({ 'appkit.js': good, 'chunk-A1.js': 'export const chunk = "tampered";' });
  http = createHttpServer({ health: async () => ({ ok: true, details: {} }), processMetrics: false });
  http.addRoute(
    walletConnectRoute({
      logger: createLogger({ level: 'silent' }),
      cdnBase: cdn.url,
      manifest: { 'appkit.js': sha384(good), 'chunk-A1.js': sha384(chunk) },
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
