/**
 * A failure Meta reports later, in a status webhook, about a message we remembered (deliver.ts):
 * taken once (GETDEL), then a closed window falls back to the template, a transient error is sent
 * again (at most twice), and anything else is undeliverable.
 */
import { classOfMessage } from '../../outbound-class.js';
import { GraphError, remedyOf } from '../graph.js';
import { deliver, outgoingSchema, viaTemplate } from '../outbound/deliver.js';
import type { OutboundContext } from '../outbound/outbound-types.js';
import { undeliverable } from '../outbound/undeliverable.js';
import { renderCloud } from '../render/render.js';
import type { MessageStatus } from './schemas.js';

/** Acts on one status webhook; only `failed` ones matter. */
export async function onStatus(ctx: OutboundContext, status: MessageStatus): Promise<void> {
  if (status.status !== 'failed') return;
  // GETDEL: Meta may report a failure twice; it is acted on once.
  const raw = await ctx.redis.getDel(ctx.keys.outgoing(status.id));
  if (!raw) return;
  const parsed = outgoingSchema.safeParse(JSON.parse(raw));
  if (!parsed.success) return;
  const rec = parsed.data;
  const code = status.errors?.[0]?.code;
  const remedy = remedyOf(code);
  const rendered = renderCloud(rec.message, rec.locale, ctx.i18n);
  ctx.log.warn(
    { phone: rec.waId, code, remedy, template: rec.template },
    'Meta reports a message of ours failed',
  );
  // Sent again in the line with the class of the message it stands for.
  const cls = classOfMessage(rec.message);
  if (remedy === 'window' && !rec.template) {
    // Meta's window is closed: later updates go straight to the template until the user writes.
    await ctx.book.markShut(rec.waId, ctx.now(), rec.sentAt);
    return viaTemplate(ctx, rec.waId, rec.message, rec.locale, rendered, { cls });
  }
  if (remedy === 'retry' && rec.tries < 2 && !rec.template)
    return deliver(ctx, rec.waId, rec.message, rec.locale, rec.tries + 1, { cls });
  const err = new GraphError(
    `status failed (#${code ?? '?'}): ${status.errors?.[0]?.title ?? 'no reason given'}`,
    400,
    code,
  );
  await undeliverable(ctx, rec.waId, rec.message, rendered, err);
}
