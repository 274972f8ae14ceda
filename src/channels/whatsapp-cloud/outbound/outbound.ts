/**
 * Messages out over the Cloud API: rendered (render.ts), sent at their turn in the number's outbound
 * line by class (pacing.ts), retried where Meta says to wait (post.ts), sent as the approved template once the 24-hour window has closed (window.ts,
 * deliver.ts), and, when a user can no longer be told, an order update is handed to support instead
 * of being lost (undeliverable.ts). Meta reports some failures later, in a status webhook:
 * `onStatus` handles those the same way (status.ts).
 */
import { withClass } from '../../../outbound/index.js';
import { classOfMessage } from '../../outbound-class.js';
import { onStatus } from '../inbound/status.js';
import { deliver } from './deliver.js';
import type { Outbound, OutboundContext, OutboundDeps } from './outbound-types.js';
import { createCloudOutbox, post } from './post.js';

export type { Outbound, OutboundDeps, RetryOptions, UndeliverableEscalation } from './outbound-types.js';

/** The deps with their defaults, as every step takes them. */
function outboundContext(deps: OutboundDeps): OutboundContext {
  return {
    graph: deps.graph,
    pacing: deps.pacing,
    book: deps.book,
    redis: deps.redis,
    keys: deps.keys,
    i18n: deps.i18n,
    template: deps.template,
    metrics: deps.metrics,
    onUndeliverable: deps.onUndeliverable,
    media: deps.media,
    log: deps.logger.child({ channel: 'whatsapp', transport: 'cloud' }),
    now: deps.now ?? Date.now,
    ...(deps.signal ? { signal: deps.signal } : {}),

    retry: {
      attempts: deps.retry?.attempts ?? 4,
      baseMs: deps.retry?.baseMs ?? 1000,
      pairMs: deps.retry?.pairMs ?? 6000,
    },
    menuTtlSeconds: deps.menuTtlSeconds ?? 86_400,
  };
}

/** The channel's own lines answer what the user just sent. */
const REPLY = Object.freeze({ cls: 'reply' as const });

export function createOutbound(deps: OutboundDeps): Outbound {
  const ctx = outboundContext(deps);
  ctx.outbox = createCloudOutbox(ctx, ctx.keys.outbox);
  return {
    async send(waId, message, locale, scope) {
      if (!(await ctx.book.isContact(waId))) {
        ctx.log.warn({ phone: waId }, 'not sending: this WhatsApp user never wrote to us');
        return;
      }
      await ctx.redis.hSet(ctx.keys.locales, waId, locale);
      await deliver(ctx, waId, message, locale, 0, withClass(scope, classOfMessage(message)));
    },

    async say(waId, text) {
      try {
        await post(ctx, waId, { type: 'text', text: { body: text, preview_url: false } }, REPLY);
      } catch (err) {
        ctx.log.warn({ phone: waId, err: (err as Error).message }, 'could not send a channel message');
      }
    },

    onStatus: (status) => onStatus(ctx, status),
    outbox: ctx.outbox,
  };
}
