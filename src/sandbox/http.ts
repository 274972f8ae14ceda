/** The HTTP edge of the sandbox: credentials, JSON bodies, and writing replies. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Reply } from './kit.js';

const MAX_BODY = 1_000_000;

function readBody(req: IncomingMessage): Promise<string | 'too_large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        resolve('too_large');
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function send(res: ServerResponse, reply: Reply): void {
  const text = JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/**
 * Checks the credentials a path needs: the checkout secret as a bearer token on the checkout
 * endpoint, the API key and secret headers on `/api/` paths. Returns the 401 reply when they fail.
 */
export function checkCredentials(
  req: IncomingMessage,
  path: string,
  secrets: { apiKey: string; apiSecret: string; checkoutSecret: string },
): Reply | undefined {
  if (isCheckoutPath(path)) {
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith('Bearer '))
      return { status: 401, body: { status: 'error', message: 'Missing bearer token' } };
    if (auth.slice(7).trim() !== secrets.checkoutSecret) {
      return { status: 401, body: { status: 'error', message: 'Invalid secret key' } };
    }
  } else if (path.startsWith('/api/')) {
    const key = req.headers['x-api-key'];
    const secret = req.headers['x-api-secret'];
    if (!key || !secret)
      return { status: 401, body: { status: 'error', message: 'API key and secret are required' } };
    if (key !== secrets.apiKey || secret !== secrets.apiSecret) {
      return { status: 401, body: { status: 'error', message: 'Invalid API credentials' } };
    }
  }
  return undefined;
}

/** The checkout endpoint (served beside the API). */
export const isCheckoutPath = (path: string) => path.replace(/\/$/, '') === '/v1/checkout/sessions';

/** A POST body as a JSON object (empty reads as `{}`), or the 413/400 reply the service gives. */
export async function readJsonObject(req: IncomingMessage): Promise<{ body: object } | { reply: Reply }> {
  const raw = await readBody(req);
  if (raw === 'too_large') {
    return {
      reply: {
        status: 413,
        body: { statusCode: 413, message: 'Payload Too Large', error: 'request entity too large' },
      },
    };
  }
  let body: unknown;
  if (raw.trim() !== '') {
    try {
      body = JSON.parse(raw);
    } catch (e) {
      return {
        reply: {
          status: 400,
          body: {
            statusCode: 400,
            message: 'Invalid JSON',
            error: `Request body is not valid JSON: ${(e as Error).message}`,
          },
        },
      };
    }
  }
  const value = body ?? {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      reply: {
        status: 400,
        body: { statusCode: 400, message: 'Validation failed', error: 'Request body must be a JSON object' },
      },
    };
  }
  return { body: value };
}
