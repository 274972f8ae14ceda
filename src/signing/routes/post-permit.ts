/** `POST /sign/<token>/permit` `{ owner, signature, deadline }`: the deposit call using the signed permit. */
import { isAddress } from 'viem';
import * as z from 'zod';
import type { LinkRoute } from '../context.js';
import { json, readJson } from '../http-io.js';
import type { SigningService } from '../ports.js';

const permitBody = z.object({
  owner: z.string().refine((a) => isAddress(a, { strict: false })),
  signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/),
  deadline: z.string().regex(/^\d{1,12}$/),
});

export const postPermit: LinkRoute = {
  action: 'permit',
  method: 'POST',
  accepts: (intent) => intent.evm?.escrowCall === 'permit',
  async handle({ service, log }, { req, res, intent }) {
    const body = permitBody.safeParse(await readJson(req));
    if (!body.success) return json(res, 400, { error: 'owner, signature and deadline are required' });
    let call: ReturnType<SigningService['permitCall']>;
    try {
      call = service.permitCall(intent, {
        signature: body.data.signature as `0x${string}`,
        deadline: BigInt(body.data.deadline),
      });
    } catch (err) {
      // A well-formed but unusable signature is the client's mistake, not a server fault.
      const reason = err instanceof Error ? err.message.split('\n')[0]!.slice(0, 200) : 'bad permit';
      log.warn({ intentId: intent.id, reason }, 'permit signature refused');
      return json(res, 400, { error: `invalid permit signature: ${reason}` });
    }
    return json(res, 200, { withdraw: call });
  },
};
