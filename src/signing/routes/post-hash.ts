/**
 * `POST /sign/<token>/hash` `{ hash }`: the page reports the deposit, which the sell service verifies
 * before filing. Also taken once the link is dead, but then only for a transaction into the escrow
 * of a sale not yet filed, so a deposit confirmed as the link expired is not lost.
 *
 * Same-origin JSON only: `Content-Type: application/json` is required (415 otherwise), so a
 * cross-site form or a `text/plain` fetch cannot post without a CORS preflight, which is never
 * granted; a request whose `Sec-Fetch-Site` or `Origin` says it comes from another site is refused
 * with 403. A text that cannot be a hash of the sale's chain is answered 400 with the format
 * expected, in the sale's language.
 */
import type { IncomingMessage } from 'node:http';
import * as z from 'zod';
import type { LinkRoute } from '../context.js';
import { sentToEscrow } from '../escrow-check.js';
import { clientAddress, json, originOf, readJson } from '../http-io.js';

const hashBody = z.object({ hash: z.string().trim().min(1).max(100) });

/** True for a JSON body (`application/json`, any parameters). */
export const isJson = (req: IncomingMessage): boolean =>
  /^application\/json\s*(;|$)/i.test(String(req.headers['content-type'] ?? '').trim());

/**
 * Why a request comes from another site, or undefined when it is the page's own: `Sec-Fetch-Site`
 * (when the browser sends it) must be `same-origin` (or `none`); `Origin` (when present) must name
 * the signing link's own origin (`publicOrigin`, from PUBLIC_URL) or this host as the client or a
 * proxy in front (`X-Forwarded-Host`) reached it.
 */
export function crossSite(req: IncomingMessage, publicOrigin?: string): string | undefined {
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') return `sec-fetch-site ${site}`;
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return `origin ${origin}`;
  }
  const forwarded = String(req.headers['x-forwarded-host'] ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  const hosts = [req.headers.host, ...forwarded].filter((h): h is string => !!h).map((h) => h.toLowerCase());
  if (publicOrigin && origin.toLowerCase() === publicOrigin.toLowerCase()) return undefined;
  return hosts.includes(host.toLowerCase()) ? undefined : `origin ${origin}`;
}

export const postHash: LinkRoute = {
  action: 'hash',
  method: 'POST',
  afterExpiry: true,
  async handle({ service, log, i18n }, { req, res, intent, alive }) {
    const foreign = crossSite(req, originOf(service.linkOf(intent).signUrl));
    if (foreign) {
      log.warn({ intentId: intent.id, foreign }, 'cross-site hash report refused');
      return json(res, 403, { error: 'cross-site requests are refused' });
    }
    if (!isJson(req)) return json(res, 415, { error: 'Content-Type: application/json is required' });
    const body = hashBody.safeParse(await readJson(req));
    if (!body.success) return json(res, 400, { error: 'a JSON body { "hash": "0x…" } is required' });
    if (!alive && !(await sentToEscrow(service, intent, body.data.hash)))
      return json(res, 410, { error: 'link expired or used', status: intent.status });
    const update = await service.reportHash(intent.id, body.data.hash, {
      push: true,
      source: 'page',
      address: clientAddress(req),
    });
    log.info({ intentId: intent.id, status: update.status }, 'hash reported by the signing page');
    if (update.status === 'refused' && update.reason.startsWith('malformed_')) {
      const message = i18n.t(intent.locale, { id: `sell-refused-${update.reason.replace(/_/g, '-')}` });
      return json(res, 400, { ...update, error: message });
    }
    if (update.status === 'refused' && update.reason === 'too_many_page')
      return json(res, 429, {
        ...update,
        error: i18n.t(intent.locale, { id: 'sell-refused-too-many-page' }),
      });
    return json(res, 200, update);
  },
};
