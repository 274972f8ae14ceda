import type { CheckoutSession, CheckoutSessionRequest } from '../../domain/types.js';
import { checkoutBody } from '../schemas.js';
import type { RampContext } from './context.js';

/**
 * POST {checkoutUrl}/v1/checkout/sessions with the bearer secret. The answer is undocumented:
 * `id` and `url` are read where they plausibly sit, and the whole body is kept as `raw`.
 */
export async function createCheckoutSession(
  ctx: RampContext,
  req: CheckoutSessionRequest,
): Promise<CheckoutSession> {
  const body = await ctx.send({
    method: 'POST',
    path: ctx.paths.checkoutSessions,
    endpoint: 'checkout',
    retry: 'unsent',
    checkout: true,
    body: req,
  });
  const r = checkoutBody.safeParse(body);
  const d = r.success ? r.data : undefined;
  return {
    id: d?.id ?? d?.data?.id,
    url: d?.url ?? d?.checkoutUrl ?? d?.data?.url ?? d?.data?.checkoutUrl,
    raw: body,
  };
}
