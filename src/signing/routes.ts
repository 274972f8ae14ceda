/**
 * HTTP routes of the signing link, all under `/sign/<token>` (token: 192 random bits, base64url):
 * - `GET  /sign/<token>`            the page (EVM) or the payment request (Algorand)
 * - `GET  /sign/<token>/tx?from=`   the approval and the tagged deposit call, as JSON
 * - `GET  /sign/<token>/permit?owner=` / `POST /sign/<token>/permit`  permit data, then the call;
 *   `{ permit: false }` when the token has no EIP-2612 permit (then `/tx` serves the legacy deposit)
 * - `POST /sign/<token>/hash`       `{ hash }`: the page reports the deposit; verified before filing
 * - `GET  /sign/<token>/qr.png`     the Algorand payment QR
 * The link dies once a hash for it is accepted, when the intent is cancelled, or when it expires;
 * after expiry (only) `POST …/hash` still takes a transaction that went into the escrow, so a deposit
 * confirmed as the link expired is not lost.
 *
 * One handler per route in ./routes/; this file holds the table and the checks every route shares.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpRoute } from '../http/index.js';
import type { I18n } from '../i18n/index.js';
import type { Logger } from '../log/logger.js';
import type { LinkRoute, SigningContext } from './context.js';
import { json } from './http-io.js';
import type { SigningIntent, SigningService } from './ports.js';
import { getPage, localeOf, restoringPage, unavailablePage } from './routes/get-page.js';
import { getPermit } from './routes/get-permit.js';
import { getQr } from './routes/get-qr.js';
import { getTx } from './routes/get-tx.js';
import { postHash } from './routes/post-hash.js';
import { postPermit } from './routes/post-permit.js';

export interface SigningRoutesOptions {
  /** The sell service (anything with the methods of `SigningService`). */
  service: SigningService;
  i18n: I18n;
  logger: Logger;
  walletConnectProjectId?: string;
  /**
   * Whether recovery after an emptied Redis may still put back a sale unknown now: its link is then
   * answered "restoring, one moment" (503, the page tries again by itself), not "does not exist".
   */
  restoring?: () => Promise<boolean>;
}

/** The actions on a known link, after the page. */
const LINK_ROUTES: readonly LinkRoute[] = [getQr, getTx, getPermit, postPermit, postHash];

export function signingRoutes(opts: SigningRoutesOptions): HttpRoute[] {
  const ctx: SigningContext = {
    service: opts.service,
    i18n: opts.i18n,
    log: opts.logger.child({ component: 'signing' }),
    walletConnectProjectId: opts.walletConnectProjectId,
    restoring: opts.restoring,
  };
  return [
    {
      method: '*',
      path: '/sign',
      prefix: true,
      handler: async (req, res) => {
        await dispatch(ctx, req, res);
      },
    },
  ];
}

/** Finds the link's sale and the route for the action: unknown 404, dead 410 (but for a late hash). */
async function dispatch(ctx: SigningContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://local');
  const [, , token = '', action = '', ...rest] = url.pathname.split('/');
  const method = (req.method ?? 'GET').toUpperCase();
  if (rest.length > 0) return json(res, 404, { error: 'not found' });
  const page = action === '' && method === 'GET';
  let intent: SigningIntent | undefined;
  try {
    intent = await ctx.service.intentByLink(token);
  } catch (err) {
    // Redis away: the sale cannot be read; the page says what to do with a payment already sent.
    ctx.log.warn({ err: (err as Error).message }, 'signing link could not be read');
    if (page) return unavailablePage(ctx, res, req);
    return json(res, 503, { error: messageOf(ctx, req, 'sell-page-unavailable') });
  }
  if (!intent && (await restoring(ctx))) {
    if (page) return restoringPage(ctx, res, req);
    return json(res, 503, { error: messageOf(ctx, req, 'sell-page-restoring') });
  }
  const alive = intent !== undefined && ctx.service.linkAlive(intent);

  if (page) return getPage(ctx, res, intent, alive, `/sign/${token}`, localeOf(req));
  // Unknown (or lost with Redis): the page shows this message, so a payment sent is pasted in chat.
  if (!intent) return json(res, 404, { error: messageOf(ctx, req, 'sell-page-unknown') });
  const route = LINK_ROUTES.find(
    (r) => r.action === action && r.method === method && (r.accepts?.(intent) ?? true),
  );
  if (!alive && !route?.afterExpiry)
    return json(res, 410, { error: 'link expired or used', status: intent.status });
  if (!route) return json(res, 404, { error: 'not found' });
  return route.handle(ctx, { req, res, url, intent, alive });
}

/** A message of the page in the browser's language (the sale's is not known here). */
const messageOf = (ctx: SigningContext, req: IncomingMessage, id: string): string =>
  ctx.i18n.t(localeOf(req), { id });

/** Recovery may still restore an unknown link's sale (false when it cannot be asked). */
const restoring = (ctx: SigningContext): Promise<boolean> =>
  ctx.restoring ? ctx.restoring().catch(() => false) : Promise.resolve(false);
