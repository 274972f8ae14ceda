/** Reading and answering the signing routes' HTTP requests: bounded JSON bodies, JSON and HTML answers. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAddress } from 'viem';
import * as z from 'zod';

const MAX_BODY = 16 * 1024;

/** The request's JSON body, or undefined when it is not JSON or larger than 16 KiB. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

/** A JSON answer, never cached; bigints go out as hex. */
export const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body, (_k, v) => (typeof v === 'bigint' ? `0x${v.toString(16)}` : v)));
};

/** An HTML answer under the given content security policy, never cached, sending no referrer. */
export const html = (res: ServerResponse, status: number, page: string, csp: string) => {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': csp,
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
  });
  res.end(page);
};

/** A wallet address in a query parameter or body. */
export const addressParam = z.string().refine((a) => isAddress(a, { strict: false }), 'an address');

/** `https://host[:port]` of a URL, or undefined when it is not an http(s) URL. */
export function originOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The client's address for per-address limits: the peer, or behind a proxy on this machine (the
 * Caddy in deploy/) the last `X-Forwarded-For` entry, the one the proxy itself added.
 */
export function clientAddress(req: IncomingMessage): string | undefined {
  const peer = req.socket.remoteAddress;
  const loopback = peer === '127.0.0.1' || peer === '::1' || peer === '::ffff:127.0.0.1';
  const forwarded = String(req.headers['x-forwarded-for'] ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean)
    .at(-1);
  return loopback && forwarded ? forwarded : peer;
}
