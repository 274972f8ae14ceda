/** The `support` effect: what the support and ticket flows ask of the desk, answered as inputs. */
import { type Engine, effectFailed } from '../engine/index.js';
import type { Effect, Input } from '../flows/types.js';
import { RateLimitedError } from '../limits/index.js';
import type { Desk } from './desk.js';

type SupportEffect = Extract<Effect, { type: 'support' }>;

/** Registers the `support` effect handler on the engine. */
export function registerSupportEffects(engine: Pick<Engine, 'registerEffect'>, desk: Desk): void {
  engine.registerEffect<SupportEffect>('support', async (e, ctx): Promise<Input> => {
    try {
      return await ask(desk, e, ctx);
    } catch (err) {
      // Over a user's limit of new cases or tickets: the flow says how long to wait.
      if (!(err instanceof RateLimitedError)) throw err;
      return effectFailed(e.type, {
        kind: 'rate_limited',
        message: err.limit,
        retryInMs: Math.max(0, err.retryAt - ctx.now()),
      });
    }
  });
}

type EffectCtx = Parameters<Parameters<Engine['registerEffect']>[1]>[1];

async function ask(desk: Desk, e: SupportEffect, ctx: EffectCtx): Promise<Input> {
  const r = e.request;
  const phone = ctx.session.profile.phone;
  const locale = ctx.session.locale;
  switch (r.action) {
    case 'open': {
      const { case: c, status } = await desk.openForUser(ctx.user, { orderId: r.orderId, phone, locale });
      return {
        kind: 'support',
        outcome: { action: 'open', caseId: c.id, orderId: c.orderId, status, desk: desk.hasDesk },
      };
    }
    case 'relay': {
      const { case: c, status } = await desk.relayFromUser(ctx.user, r.text, {
        caseId: r.caseId,
        orderId: r.orderId,
        phone,
        locale,
      });
      return {
        kind: 'support',
        outcome: { action: 'relay', caseId: c.id, orderId: c.orderId, status, desk: desk.hasDesk },
      };
    }
    case 'relayIfOpen': {
      const found = await desk.relayIfOpen(ctx.user, r.text, { phone, locale });
      if (!found) return { kind: 'support', outcome: { action: 'noCase' } };
      const { case: c, status } = found;
      return {
        kind: 'support',
        outcome: {
          action: 'relay',
          caseId: c.id,
          orderId: c.orderId,
          status,
          desk: desk.hasDesk,
          unasked: true,
        },
      };
    }
    case 'fileTicket': {
      const filing = await desk.fileTicket(ctx.user, r.request, 'user');
      if ('manual' in filing)
        return {
          kind: 'support',
          outcome: {
            action: 'ticketManual',
            caseId: filing.manual.id,
            orderId: filing.orderId,
            desk: desk.hasDesk,
            ...(filing.uncertain ? { uncertain: true } : {}),
          },
        };
      const { ticket, existing, orderId } = filing;
      return { kind: 'support', outcome: { action: 'fileTicket', ticket, existing, orderId } };
    }
  }
}
