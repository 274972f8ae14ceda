/**
 * The webhook Meta calls on the app's HTTP server. GET answers the verification handshake
 * (`hub.mode=subscribe`, our verify token, echo `hub.challenge`). Every POST is checked against
 * `X-Hub-Signature-256` (HMAC-SHA256 of the raw body with the app secret, compared in constant
 * time) and refused with 401 otherwise; the body is validated (400 when malformed); its messages
 * are claimed in Redis by id (a redelivery is dropped; 503 while Redis is down, so Meta sends it
 * again); then it is answered 200 at once and handled after.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpRoute } from '../../../http/index.js';
import type { Logger } from '../../../log/logger.js';
import type { CloudMetrics } from '../metrics.js';
import { readWebhook, type WebhookBatch } from './schemas.js';

/** Meta's webhook bodies are small; anything larger is not from Meta. */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;
export const SIGNATURE_HEADER = 'x-hub-signature-256';

export interface WebhookOptions {
  path: string;
  appSecret: string;
  verifyToken: string;
  phoneNumberId: string;
  /** Claims the batch's messages; resolves with those never seen before. Rejects when Redis is down. */
  accept(batch: WebhookBatch): Promise<WebhookBatch>;
  /** Handles an accepted batch (called after the 200 has been sent). */
  process(batch: WebhookBatch): void;
  metrics: CloudMetrics;
  logger: Logger;
}

/** Constant-time check of the signature header against the raw body. */
export function signatureMatches(header: string | undefined, body: Buffer, appSecret: string): boolean {
  const given = /^sha256=([0-9a-f]{64})$/i.exec(header ?? '')?.[1];
  if (!given) return false;
  const want = createHmac('sha256', appSecret).update(body).digest();
  return timingSafeEqual(Buffer.from(given, 'hex'), want);
}

function sameSecret(given: string, want: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(want);
  return a.length === b.length && timingSafeEqual(a, b);
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.once('error', reject);
    req.once('end', () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks)));
  });
}

const plain = (res: ServerResponse, status: number, text: string): void => {
  res
    .writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' })
    .end(text);
};

/** The GET and POST routes of the webhook. */
export function webhookRoutes(opts: WebhookOptions): HttpRoute[] {
  const log = opts.logger.child({ channel: 'whatsapp', transport: 'cloud', component: 'webhook' });
  const refuse = (res: ServerResponse, status: number, reason: string) => {
    opts.metrics.refused.inc({ reason });
    log.warn({ status, reason }, 'WhatsApp webhook post refused');
    plain(res, status, reason);
  };

  const verify: HttpRoute = {
    method: 'GET',
    path: opts.path,
    handler: (req, res) => {
      const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
      const challenge = query.get('hub.challenge') ?? '';
      const ok =
        query.get('hub.mode') === 'subscribe' &&
        sameSecret(query.get('hub.verify_token') ?? '', opts.verifyToken) &&
        /^[A-Za-z0-9_.-]{1,256}$/.test(challenge);
      if (!ok) return refuse(res, 403, 'verification refused');
      log.info('WhatsApp webhook verified by Meta');
      plain(res, 200, challenge);
    },
  };

  const receive: HttpRoute = {
    method: 'POST',
    path: opts.path,
    handler: async (req, res) => {
      const body = await readBody(req);
      if (!body) return refuse(res, 413, 'body too large');
      const header = req.headers[SIGNATURE_HEADER];
      if (!signatureMatches(Array.isArray(header) ? header[0] : header, body, opts.appSecret))
        return refuse(res, 401, 'bad signature');
      let batch: WebhookBatch;
      try {
        batch = readWebhook(JSON.parse(body.toString('utf8')), opts.phoneNumberId);
      } catch {
        return refuse(res, 400, 'malformed body');
      }
      let fresh: WebhookBatch;
      try {
        fresh = await opts.accept(batch);
      } catch (err) {
        // Nothing was taken: Meta sends the body again later.
        log.warn(
          { err: (err as Error).message },
          'could not claim WhatsApp messages (Redis down?); answered 503',
        );
        return plain(res, 503, 'try again');
      }
      plain(res, 200, 'ok');
      opts.process(fresh);
    },
  };
  return [verify, receive];
}
