/**
 * One message from a user, handled in that user's order: the window noted, read receipts sent,
 * held messages delivered first, a stale tap refused, typed words read as the choice they name, and
 * the input handed to the conversation.
 */
import type { Locale, UserRef } from '../../../chat/types.js';
import { normalizeKenyanPhone } from '../../../domain/phone.js';
import type { Input } from '../../../flows/types.js';
import { StoreUnavailableError } from '../../../store/errors.js';
import { type CloudChannelContext, sendQueue } from '../channel-context.js';
import { currentState } from '../outbound/window.js';
import type { TypedMenu } from '../render/render.js';
import { isStaleTap, readMessage, typedChoice, typedMenuSchema } from './inbound.js';
import type { InboundMessage } from './schemas.js';

async function localeOf(ctx: CloudChannelContext, waId: string): Promise<Locale> {
  return (await ctx.redis.hGet(ctx.keys.locales, waId)) === 'sw' ? 'sw' : 'en';
}

async function readMenu(ctx: CloudChannelContext, key: string): Promise<TypedMenu | undefined> {
  const raw = await ctx.redis.get(key);
  if (!raw) return undefined;
  try {
    const parsed = typedMenuSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** A line the channel itself says to the user, in their language, after what is queued for them. */
function say(ctx: CloudChannelContext, waId: string, id: string): Promise<void> {
  return ctx.sends.run(sendQueue(waId, 'reply'), async () =>
    ctx.outbound.say(waId, ctx.i18n.t(await localeOf(ctx, waId), { id })),
  );
}

/** Typed words naming one of the last choices shown count as that choice. */
async function typedAsChoice(ctx: CloudChannelContext, waId: string, input: Input): Promise<Input> {
  if (input.kind !== 'text') return input;
  const [question, notice] = await Promise.all([
    readMenu(ctx, ctx.keys.menu(waId)),
    readMenu(ctx, ctx.keys.noticeMenu(waId)),
  ]);
  const id = typedChoice(input.text, question, notice);
  return id ? { kind: 'button', id } : input;
}

/** One message from a user, in that user's order. */
export async function handleMessage(ctx: CloudChannelContext, msg: InboundMessage): Promise<void> {
  const { book, graph, log } = ctx;
  const waId = msg.from;
  // Never later than now: a timestamp ahead of our clock does not hold the window open.
  await book.noteInbound(waId, Math.min(Number(msg.timestamp) * 1000, Date.now()));
  const incoming = readMessage(msg);
  if (incoming.kind === 'ignore') return;
  // Blue ticks and "typing…" while the answer (often a ramp call) is prepared.
  graph.markRead(msg.id, true).catch((err) => log.debug({ err: err.message }, 'mark-as-read failed'));
  // Messages a template stood in for while the window was closed come first, in full: each order's
  // current state once, not its history (the template already told the latest).
  for (const held of currentState(await book.takeHeld(waId)))
    await ctx.adapter.send(waId, { ...held.message, notice: true }, held.locale);
  if (incoming.kind === 'unsupported') return say(ctx, waId, 'wa-text-only');

  if (incoming.input.kind === 'button') {
    const question = (await ctx.redis.get(ctx.keys.question(waId))) ?? undefined;
    if (isStaleTap(incoming.input.id, incoming.tapOn, question))
      return say(ctx, waId, 'wa-cloud-button-stale');
  }
  const input = await typedAsChoice(ctx, waId, incoming.input);
  const user: UserRef = { channel: 'whatsapp', id: waId };
  const phone = normalizeKenyanPhone(waId);
  try {
    await ctx.conversation.handle(user, input, { updateId: msg.id, ...(phone ? { hints: { phone } } : {}) });
  } catch (err) {
    // Redis went down after the message was taken: the user was asked to try again.
    if (!(err instanceof StoreUnavailableError)) throw err;
    log.warn({ phone: waId }, 'Redis is down: the user was asked to send the message again');
  }
}
