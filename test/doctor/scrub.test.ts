/**
 * The doctor never prints a secret: what outside services and Node say is scrubbed of every
 * configured secret and of URL credentials before it is shown. One source of text per case: a ramp
 * that echoes its request in its error, an RPC that echoes it in a JSON-RPC error, Node's own error
 * for a URL with credentials, an unreachable Redis and public URL with user info, Algorand's tokens.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTable, runDoctor } from '../../src/doctor/index.js';
import { scrub, secretsOf } from '../../src/doctor/scrub.js';
import { freePort } from '../helpers/redis-server.js';

const SECRETS = {
  RAMP_API_KEY: 'rk_live_5KfQ2mZ8pW3xN7vB',
  RAMP_API_SECRET: 'rs_live_9TgH4jL6qR1sD8fA2cV5',
  rpcPassword: 'rpcP4ss-w0rd-9x8y',
  rpcKey: 'aL4kF9zQ2wX7mN3pV8bR6tY1',
  rpcQueryKey: 'qk-7Hd2Kf9Lm4Np6Rs8',
  redisPassword: 'r3dis-Pa55word-77',
  publicPassword: 'pubP4ss-5z7w9q',
  ALGOD_TOKEN: 'eeeeeeeeb1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8',
};

/** Echoes the request (path, headers, body) in an error, as a careless service would. */
let echo: Server;
let echoUrl: string;
const told = (req: IncomingMessage, body: string) =>
  `${req.method} ${req.url} ${JSON.stringify(req.headers)} ${body}`;

beforeAll(async () => {
  echo = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += String(d)));
    req.on('end', () => {
      const message = told(req, body);
      if (body.includes('jsonrpc'))
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32000, message } }));
      else
        res
          .writeHead(401, { 'content-type': 'application/json' })
          .end(JSON.stringify({ message, error: message }));
    });
  });
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
});
afterAll(() => echo?.close());

describe('the doctor keeps secrets', () => {
  it('shows no configured secret and no URL credential in any failure', async () => {
    const closed = await freePort();
    const env: Record<string, string> = {
      NODE_ENV: 'test',
      RAMP_BASE_URL: echoUrl,
      RAMP_API_KEY: SECRETS.RAMP_API_KEY,
      RAMP_API_SECRET: SECRETS.RAMP_API_SECRET,
      REDIS_URL: `redis://default:${SECRETS.redisPassword}@127.0.0.1:${closed}`,
      PUBLIC_URL: `https://ops:${SECRETS.publicPassword}@127.0.0.1:${closed}`,
      EVM_POLYGON_ESCROW: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      // One RPC echoes, the other has credentials Node refuses to send in a URL.
      EVM_POLYGON_RPC_URL: `${echoUrl}/v2/${SECRETS.rpcKey}?apikey=${SECRETS.rpcQueryKey}`,
      EVM_POLYGON_FALLBACK_RPC_URLS: `http://node:${SECRETS.rpcPassword}@127.0.0.1:${closed}/rpc`,
      SELL_ALGORAND_ENABLED: '1',
      ALGOD_URL: echoUrl,
      ALGOD_TOKEN: SECRETS.ALGOD_TOKEN,
      INDEXER_URL: echoUrl,
    };
    const rows = await runDoctor({ env, timeoutMs: 2000 });
    const out = formatTable(rows);
    // The failures are there to be read (not an empty table)...
    expect(rows.filter((r) => r.status === 'FAIL').length).toBeGreaterThanOrEqual(4);
    expect(out).toMatch(/ramp quote\s+FAIL/);
    expect(out).toMatch(/evm polygon rpc #1\s+FAIL/);
    // ...and carry none of the secrets, in any form.
    for (const [name, secret] of Object.entries(SECRETS)) {
      expect(out, name).not.toContain(secret);
      expect(out, name).not.toContain(Buffer.from(secret).toString('base64'));
    }
    expect(out).not.toMatch(/ops:|node:[^/]|default:r/);
  });

  it('scrubs URLs in free text and every form of a configured secret', () => {
    const secrets = secretsOf({
      WHATSAPP_CLOUD_TOKEN: 'EAAGtok3n/with+chars',
      EVM_BASE_RPC_URL: 'https://base.example/v2/abcdefghijklmnopqrstu',
      PLAIN: 'not-a-secret-value',
    });
    expect(secrets).toContain('EAAGtok3n/with+chars');
    expect(secrets).toContain('abcdefghijklmnopqrstu');
    expect(secrets).not.toContain('not-a-secret-value');
    const text =
      'bad EAAGtok3n%2Fwith%2Bchars at https://u:p@host.example/x?key=v1&b=2 and /v2/abcdefghijklmnopqrstu';
    expect(scrub(text, secrets)).toBe('bad *** at https://***@host.example/x?key=***&b=*** and /v2/***');
  });
});
