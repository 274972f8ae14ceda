/**
 * When a user can no longer be told: counted and logged always; an order update (a `notice`) is
 * also handed to support, its phone numbers masked, so it is not lost.
 */
import type { OutMessage } from '../../../chat/types.js';
import { ORDER_ID_PATTERN } from '../../../domain/order-id.js';
import { maskPhone, normalizeKenyanPhone } from '../../../domain/phone.js';
import { GraphError } from '../graph.js';
import type { Rendered } from '../render/render.js';
import type { OutboundContext } from './outbound-types.js';

/** Whole phone numbers in a text (`+254 712 345 678`, `0712345678`, …) masked, for the agents' card. */
const WHOLE_PHONE = /(?:\+?254|\b0)\s?[17]\d{2}\s?\d{3}\s?\d{3}\b/g;
export const maskPhonesIn = (text: string): string =>
  text.replace(WHOLE_PHONE, (m) => maskPhone(normalizeKenyanPhone(m) ?? m.replace(/\s/g, '')));

/** The order an update is about, from its `order:<id>` replace key. */
function orderIdOf(message: OutMessage): string | undefined {
  const key = message.replaceKey ?? '';
  return key.startsWith('order:') && ORDER_ID_PATTERN.test(key.slice(6)) ? key.slice(6) : undefined;
}

/** Records that `message` could not reach `waId`, and escalates it when it was an order update. */
export async function undeliverable(
  ctx: OutboundContext,
  waId: string,
  message: OutMessage,
  rendered: Rendered,
  err: unknown,
): Promise<void> {
  const code = err instanceof GraphError ? err.code : undefined;
  const why = err instanceof Error ? err.message : String(err);
  const notice = message.notice === true;
  ctx.metrics.undeliverable.inc({ notice: String(notice) });
  ctx.log.error({ phone: waId, code, notice }, 'a WhatsApp message could not reach the user');
  if (!notice || !ctx.onUndeliverable) return;
  const orderId = orderIdOf(message);
  await ctx.onUndeliverable({
    reason: 'undeliverable',
    user: { channel: 'whatsapp', id: waId },
    ...(orderId ? { orderId } : {}),
    ...(code !== undefined ? { code } : {}),
    detail: `WhatsApp could not deliver this update to ${maskPhone(waId)} (${why.slice(0, 160)}); the user was not told: ${maskPhonesIn(rendered.summary).slice(0, 300)}`,
    at: ctx.now(),
  });
}
