/**
 * WalletConnect's browser module, served by rampchat itself from `/walletconnect/<file>`: one exact
 * release of `@reown/appkit-cdn`, each file fetched once from the CDN and checked against the SHA-384
 * pinned in walletconnect-manifest.json (regenerate with scripts/walletconnect-manifest.mjs when the
 * version changes). A file that does not match is never served, so a tampered CDN cannot reach a
 * seller's wallet; the signing page's CSP allows scripts from this path only.
 *
 * The route is anonymous, so it must not turn requests into outbound fetches one for one: concurrent
 * requests for a file share one fetch, and a failed fetch (CDN down, refused, a file that does not
 * match its pin) is remembered for `failureTtlMs` (60 s), answering 502 without asking again.
 */
import { createHash } from 'node:crypto';
import type { HttpRoute } from '../http/index.js';
import type { Logger } from '../log/logger.js';
import manifest from './walletconnect-manifest.json' with { type: 'json' };

export const WALLETCONNECT_VERSION = '1.8.18';
export const WALLETCONNECT_CDN = `https://cdn.jsdelivr.net/npm/@reown/appkit-cdn@${WALLETCONNECT_VERSION}/dist/`;
/** Where the page loads the module from (same origin as the page). */
export const WALLETCONNECT_PATH = '/walletconnect/';
/** The hosts WalletConnect's relay, RPC and wallet list use (the page's connect-src lists these). */
export const WALLETCONNECT_CONNECT = [
  'wss://relay.walletconnect.org',
  'wss://relay.walletconnect.com',
  'https://rpc.walletconnect.org',
  'https://rpc.walletconnect.com',
  'https://api.web3modal.org',
  'https://pulse.walletconnect.org',
];

/** File name -> base64 SHA-384 of every script in the pinned release. */
export const WALLETCONNECT_MANIFEST: Readonly<Record<string, string>> = manifest;

export interface WalletConnectRouteOptions {
  logger: Logger;
  /** Where the release's files are fetched from (tests point it at a local server). */
  cdnBase?: string;
  manifest?: Readonly<Record<string, string>>;
  timeoutMs?: number;
  /** How long a failed fetch is remembered before the CDN is asked again (default 60 s). */
  failureTtlMs?: number;
  /** The clock (tests move it). */
  now?: () => number;
}

/** Default time a failed upstream fetch is remembered. */
export const WALLETCONNECT_FAILURE_TTL_MS = 60_000;

/** The route serving the pinned, verified WalletConnect files. */
export function walletConnectRoute(opts: WalletConnectRouteOptions): HttpRoute {
  const log = opts.logger.child({ component: 'walletconnect' });
  const cdn = opts.cdnBase ?? WALLETCONNECT_CDN;
  const manifest = opts.manifest ?? WALLETCONNECT_MANIFEST;
  const failureTtlMs = opts.failureTtlMs ?? WALLETCONNECT_FAILURE_TTL_MS;
  const now = opts.now ?? Date.now;
  /** A file in flight or served (kept), or failed (kept until `failedUntil`). */
  const cache = new Map<string, { pending: Promise<Buffer | undefined>; failedUntil?: number }>();

  const fetchFile = async (name: string): Promise<Buffer | undefined> => {
    const res = await fetch(new URL(name, cdn), {
      signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
    });
    if (!res.ok) throw new Error(`CDN answered ${res.status}`);
    const body = Buffer.from(await res.arrayBuffer());
    const digest = createHash('sha384').update(body).digest('base64');
    if (digest !== manifest[name]) {
      log.error(
        { file: name, version: WALLETCONNECT_VERSION },
        'WalletConnect file does not match its pinned hash; not served',
      );
      return undefined;
    }
    return body;
  };

  const load = (name: string): Promise<Buffer | undefined> => {
    const known = cache.get(name);
    if (known && (known.failedUntil === undefined || known.failedUntil > now())) return known.pending;
    const entry: { pending: Promise<Buffer | undefined>; failedUntil?: number } = {
      pending: fetchFile(name),
    };
    cache.set(name, entry);
    const failed = (err?: unknown) => {
      entry.failedUntil = now() + failureTtlMs;
      log.warn(
        { file: name, err: err instanceof Error ? err.message : 'pin mismatch', retryInMs: failureTtlMs },
        'could not fetch a WalletConnect file; answering 502 until the CDN is asked again',
      );
    };
    // A failed or refused fetch is remembered for a while, then tried again by a later request.
    entry.pending.then((b) => b ?? failed(), failed);
    return entry.pending;
  };

  return {
    method: 'GET',
    path: WALLETCONNECT_PATH,
    prefix: true,
    handler: async (req, res) => {
      const name = new URL(req.url ?? '/', 'http://local').pathname.slice(WALLETCONNECT_PATH.length);
      if (!Object.hasOwn(manifest, name)) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
        return;
      }
      // Logged once per failed fetch (in load), not once per request.
      const body = await load(name).catch(() => undefined);
      if (!body) {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end('unavailable');
        return;
      }
      res.writeHead(200, {
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
      });
      res.end(body);
    },
  };
}
