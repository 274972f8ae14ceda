/**
 * `POST /sign/<token>/hash` `{ hash }`: the page reports the deposit, which the sell service verifies
 * before filing. Also taken once the link is dead, but then only for a transaction into the escrow
 * of a sale not yet filed, so a deposit confirmed as the link expired is not lost.
 */
import { z } from 'zod';
import type { LinkRoute } from '../context.js';
import { sentToEscrow } from '../escrow-check.js';
import { json, readJson } from '../http-io.js';

const hashBody = z.object({ hash: z.string().trim().min(1).max(100) });

export const postHash: LinkRoute = {
  action: 'hash',
  method: 'POST',
  afterExpiry: true,
  async handle({ service, log }, { req, res, intent, alive }) {
    const body = hashBody.safeParse(await readJson(req));
    if (!body.success) return json(res, 400, { error: 'a JSON body { "hash": "0x…" } is required' });
    if (!alive && !(await sentToEscrow(service, intent, body.data.hash)))
      return json(res, 410, { error: 'link expired or used', status: intent.status });
    const update = await service.reportHash(intent.id, body.data.hash, { push: true, source: 'page' });
    log.info({ intentId: intent.id, status: update.status }, 'hash reported by the signing page');
    return json(res, 200, update);
  },
};
