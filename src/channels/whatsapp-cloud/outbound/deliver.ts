/**
 * Delivering one OutMessage: inside the 24-hour window (window.ts) as its rendered parts, in order;
 * outside it (or when Meta says the window closed) as the approved template carrying the gist, the
 * message itself held until the user writes again. Every message sent is remembered by its id for
 * a few days, so a failure Meta reports later in a status webhook can be acted on (status.ts).
 */
import * as z from 'zod';
import { HandedOverError, type Locale, type OutMessage } from '../../../chat/types.js';
import { noteDelivery } from '../../../outbound/index.js';
import { GraphError } from '../graph.js';
import { type Rendered, renderCloud } from '../render/render.js';
import { templateCarriesWhole, templateMessage } from '../render/template.js';
import type { CloudScope, OutboundContext } from './outbound-types.js';
import { post } from './post.js';
import { undeliverable } from './undeliverable.js';

const OUTGOING_TTL_SECONDS = 3 * 24 * 3600;

/** What is remembered of a message sent, under its message id. */
export const outgoingSchema = z.object({
  waId: z.string(),
  locale: z.enum(['en', 'sw']),
  template: z.boolean(),
  tries: z.number().int(),
  /** When it was sent (epoch ms); absent in records written before it was kept. */
  sentAt: z.number().optional(),
  message: z.custom<OutMessage>((v) => typeof v === 'object' && v !== null && 'texts' in v),
});
type Outgoing = z.infer<typeof outgoingSchema>;

/** The error is the channel stopping (its signal's reason), not a refusal. */
export const stopping = (ctx: OutboundContext, err: unknown): boolean =>
  ctx.signal?.aborted === true && err === ctx.signal.reason;

async function remember(ctx: OutboundContext, id: string, rec: Outgoing): Promise<void> {
  await ctx.redis.set(ctx.keys.outgoing(id), JSON.stringify(rec), {
    expiration: { type: 'EX', value: OUTGOING_TTL_SECONDS },
  });
}

/** Saves what a typed answer means and which message holds the question's buttons. */
async function afterSent(
  ctx: OutboundContext,
  waId: string,
  message: OutMessage,
  rendered: Rendered,
  lastId: string,
): Promise<void> {
  const { redis, keys } = ctx;
  const expiration = { type: 'EX', value: ctx.menuTtlSeconds } as const;
  const writes: Promise<unknown>[] = [];
  if (rendered.menu) {
    const key = (message.notice ? keys.noticeMenu : keys.menu)(waId);
    writes.push(redis.set(key, JSON.stringify(rendered.menu), { expiration }));
  }
  if (rendered.menu && !message.notice) writes.push(redis.set(keys.question(waId), lastId, { expiration }));
  await Promise.all(writes);
}

/**
 * Outside the window: the template carries the gist, the message itself waits for the user (unless
 * the template carried all of a message that says that is enough: then it is not sent twice).
 */
export async function viaTemplate(
  ctx: OutboundContext,
  waId: string,
  message: OutMessage,
  locale: Locale,
  rendered: Rendered,
  scope?: CloudScope,
): Promise<void> {
  const held = !(message.templateSuffices && templateCarriesWhole(rendered.summary));
  if (held) await ctx.book.hold(waId, { locale, message });
  let id: string;
  try {
    id = await post(ctx, waId, templateMessage(ctx.template, locale, rendered.summary), scope);
  } catch (err) {
    // The channel stopping: the message is held already, and reaches the user when they write.
    if (stopping(ctx, err)) return;
    await undeliverable(ctx, waId, message, rendered, err);
    return;
  }
  noteDelivery(scope, { form: 'template', locale, held });
  ctx.log.info(
    { phone: waId, held },
    'the 24-hour window is closed: sent the update as the approved template',
  );
  await remember(ctx, id, { waId, locale, message, template: true, tries: 0, sentAt: ctx.now() });
}

/**
 * Sends `message` the way the window allows, for the work of `scope`; `tries` counts re-sends after
 * a reported failure.
 */
export async function deliver(
  ctx: OutboundContext,
  waId: string,
  message: OutMessage,
  locale: Locale,
  tries: number,
  scope?: CloudScope,
): Promise<void> {
  const rendered = renderCloud(message, locale, ctx.i18n);
  if (!rendered.parts.length) return;
  if (!(await ctx.book.isOpen(waId, ctx.now())))
    return viaTemplate(ctx, waId, message, locale, rendered, scope);
  let lastId = '';
  for (const [i, part] of rendered.parts.entries()) {
    try {
      lastId = await post(ctx, waId, part, scope);
    } catch (err) {
      // Left to another replica at a stop: the parts after it follow it into the outbox.
      if (err instanceof HandedOverError) {
        for (const rest of rendered.parts.slice(i + 1))
          await ctx.outbox?.enqueue(waId, scope?.cls ?? 'reply', rest, { scope });
        throw err;
      }
      // The channel stopping: thrown to the channel, which hands the message back (nothing sent yet).
      if (stopping(ctx, err)) throw err;
      if (err instanceof GraphError && err.remedy === 'window') {
        // Meta's window closed before ours knew: no more free-form tries until the user writes.
        await ctx.book.markShut(waId, ctx.now());
        return viaTemplate(ctx, waId, message, locale, rendered, scope);
      }
      return undeliverable(ctx, waId, message, rendered, err);
    }
  }
  noteDelivery(scope, { form: 'full', locale });
  await remember(ctx, lastId, { waId, locale, message, template: false, tries, sentAt: ctx.now() });
  await afterSent(ctx, waId, message, rendered, lastId);
}
