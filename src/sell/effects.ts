/** The sell flow's effects, carried out by the engine through the sell service. */
import { type Engine, effectFailed } from '../engine/index.js';
import type { Effect, EffectResult } from '../flows/types.js';
import { RateLimitedError } from '../limits/index.js';
import type { DevSigner } from './local/devsign.js';
import type { SellService } from './service.js';

type Of<T extends Effect['type']> = Extract<Effect, { type: T }>;

export function registerSellEffects(engine: Engine, service: SellService, devSigner?: DevSigner): void {
  engine.registerEffect<Of<'sellOptions'>>('sellOptions', async () => ({
    kind: 'sellOptions',
    tokens: await service.options(),
  }));

  engine.registerEffect<Of<'sellCreateIntent'>>('sellCreateIntent', async (e, ctx) => {
    try {
      return {
        kind: 'sellIntent',
        key: e.key,
        link: await service.createIntent(ctx.user, ctx.session.locale, e.key, e.request),
      };
    } catch (err) {
      if (!(err instanceof RateLimitedError)) throw err;
      return effectFailed(e.type, {
        kind: 'rate_limited',
        message: 'too many signing links',
        retryInMs: Math.max(0, err.retryAt - ctx.now()),
      });
    }
  });

  engine.registerEffect<Of<'sellReportHash'>>('sellReportHash', async (e, ctx): Promise<EffectResult> => {
    const intent = e.intentId ? await service.intentOf(e.intentId) : undefined;
    if (!intent) {
      // No sale in Redis (it came back empty, or the chat never had one): the journal may know it.
      const lost = await service.reportLostHash(ctx.user, e.hash);
      if (lost) return { kind: 'sellUpdate', ...lost };
      return {
        kind: 'sellUpdate',
        intentId: e.intentId,
        update: { status: 'refused', reason: 'no_sale', escalated: false },
      };
    }
    if (intent.user.channel !== ctx.user.channel || intent.user.id !== ctx.user.id) {
      return {
        kind: 'sellUpdate',
        intentId: e.intentId,
        update: { status: 'refused', reason: 'unknown', escalated: false },
      };
    }
    const update = await service.reportHash(e.intentId, e.hash, { push: false, source: 'chat' });
    return { kind: 'sellUpdate', intentId: e.intentId, update };
  });

  engine.registerEffect<Of<'sellCancelIntent'>>('sellCancelIntent', async (e, ctx) => {
    const intent = await service.intentOf(e.intentId);
    if (!intent || intent.user.id !== ctx.user.id || intent.user.channel !== ctx.user.channel)
      return undefined;
    const update = await service.cancel(e.intentId);
    if (update) return { kind: 'sellUpdate', intentId: e.intentId, update };
    // The sale was over already (expired, refused), its link dead all the same; a filed one was told.
    const now = (await service.intentOf(e.intentId)) ?? intent;
    if (now.status === 'filed' || now.status === 'filing-unknown') return undefined;
    return { kind: 'sellUpdate', intentId: e.intentId, update: { status: 'cancelled' } };
  });

  engine.registerEffect<Of<'sellDevSign'>>(
    'sellDevSign',
    async (e, ctx): Promise<EffectResult | undefined> => {
      const intent = await service.intentOf(e.intentId);
      if (!devSigner || !intent || !service.linkOf(intent).devSign || intent.user.id !== ctx.user.id) {
        return {
          kind: 'sellUpdate',
          intentId: e.intentId,
          update: { status: 'refused', reason: 'unknown', escalated: false },
        };
      }
      const hash = await devSigner(intent);
      const update = await service.reportHash(e.intentId, hash, { push: false, source: 'devsign' });
      return { kind: 'sellUpdate', intentId: e.intentId, update };
    },
  );
}
