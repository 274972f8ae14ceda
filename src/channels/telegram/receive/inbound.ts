/**
 * Inbound: private-chat updates become conversation inputs (a tap, a text or command, a shared
 * contact). Updates of one chat are handled in order (./in-order.ts), different chats at once.
 * A tap on an older question's buttons is stale: it is answered with a toast and not acted on.
 */

import { type ChatTypeContext, Context, type Filter, type FilterQuery } from 'grammy';
import type { Input } from '../../../flows/types.js';
import { sendScope } from '../../../outbound/index.js';
import { ChatBusyError, StoreUnavailableError } from '../../../store/errors.js';
import { selfContained } from '../../choices.js';
import type { ChatScratch } from '../../types.js';
import { ownText, type TelegramDeps } from '../deps.js';
import { describeError } from '../errors.js';
import { localeFromLanguageCode } from '../locale.js';
import { sendHtml } from '../send/outbound.js';
import { htmlToPlain } from '../send/render.js';
import { bookStraightSlot, endStraightSlot } from '../send/straight.js';
import { chatMarks } from '../state.js';
import { inChatOrder } from './in-order.js';

/** A private-chat update of one kind, as grammY narrows it. */
type Private<Q extends FilterQuery> = Filter<ChatTypeContext<Context, 'private'>, Q>;

/** Nothing of the update was done and it can be taken again: Redis was down, or the chat busy elsewhere. */
export const handedBack = (error: unknown): error is StoreUnavailableError | ChatBusyError =>
  error instanceof StoreUnavailableError || error instanceof ChatBusyError;

/**
 * Installs the error handler and the update handlers; returns the updates being handled, for stop()
 * to wait on. In webhook mode an update Redis could not take, or whose chat another replica held
 * past the lock wait, fails, so Telegram redelivers it.
 */
export function installInbound(deps: TelegramDeps, opts: { webhook: boolean }): Set<Promise<unknown>> {
  const { bot, log, token } = deps;
  bot.catch((err) => {
    if (handedBack(err.error)) {
      // Webhook: answered non-2xx, so Telegram redelivers. Long polling cannot un-take an update:
      // the user was asked to send it again (and a busy chat is never refused there).
      if (opts.webhook) throw err.error;
      return;
    }
    log.error({ err: describeError(err, token) }, 'handling a Telegram update failed');
  });

  const { middleware, inflight, inHand } = inChatOrder();
  bot.use(middleware);

  const d = { ...deps, refuseWhenBusy: opts.webhook, inHand };
  // One handler sorts the update with grammY's own predicates: `chatType()` and `on()` would build
  // a composer and a chain of middleware for every update.
  bot.use((ctx, next) => {
    if (!isPrivate(ctx)) return next();
    if (isButton(ctx)) return onButton(d, ctx);
    if (isText(ctx)) return onText(d, ctx);
    if (isContact(ctx)) return onContact(d, ctx);
    if (isMessage(ctx)) {
      const chatId = String(ctx.chat.id);
      const locale = deps.locales.of(chatId, ctx.from.language_code);
      return sendHtml(deps, chatId, ownText(deps, locale, 'tg-unsupported'), undefined).then(() => {});
    }
    return next();
  });
  return inflight;
}

const isPrivate = Context.has.chatType('private');
const isButton = Context.has.filterQuery('callback_query:data');
const isText = Context.has.filterQuery('message:text');
const isContact = Context.has.filterQuery('message:contact');
const isMessage = Context.has.filterQuery('message');

/**
 * The channel's deps, whether a chat busy elsewhere is refused (webhook: Telegram redelivers), and
 * the updates in hand.
 */
type InboundDeps = TelegramDeps & { refuseWhenBusy: boolean; inHand: () => number };

/** Hands an input to the conversation; a failure is logged and the user told (a handed-back update rethrows). */
async function handleInput(
  deps: InboundDeps,
  ctx: Context,
  chatId: string,
  input: Input,
  accept?: (scratch: ChatScratch) => boolean | Promise<boolean>,
) {
  const user = { channel: 'telegram' as const, id: chatId };
  const updateId = String(ctx.update.update_id);
  // Asked for now, the reply's slot goes to Redis with the update's begin (./send/straight.ts).
  const slot = bookStraightSlot(deps.pacing, chatId, deps.inHand());
  try {
    // Handled again after a kill, its sends are the ones the first run put in the outbox.
    const scope = sendScope(`tg:${updateId}`);
    await deps.conversation.handle(user, input, {
      updateId,
      hints: {
        locale: localeFromLanguageCode(ctx.from?.language_code),
        ...(ctx.message ? { sentAt: ctx.message.date * 1000 } : {}),
      },
      refuseWhenBusy: deps.refuseWhenBusy,
      ...(accept ? { accept } : {}),
      scope: slot ? Object.assign(scope, { straight: slot }) : scope,
    });
  } catch (error) {
    // Nothing was done (Redis down: the user was asked to try again; or the chat busy elsewhere):
    // fail the update, so a webhook delivery answers non-2xx and Telegram sends it again.
    if (handedBack(error)) throw error;
    deps.log.error(
      { err: describeError(error, deps.token), updateId, input: input.kind },
      'the conversation failed on an update',
    );
    const locale = deps.locales.of(chatId, ctx.from?.language_code);
    await sendHtml(deps, chatId, ownText(deps, locale, 'tg-error'), undefined).catch((e) =>
      deps.log.warn({ err: describeError(e, deps.token) }, 'could not tell the user about a failure'),
    );
  } finally {
    endStraightSlot(deps.pacing, slot);
  }
}

/** A button tap: the spinner always stops, with a toast when the tap is stale. */
async function onButton(deps: InboundDeps, ctx: Private<'callback_query:data'>) {
  const chatId = String(ctx.chat.id);
  const data = ctx.callbackQuery.data;
  const from = ctx.callbackQuery.message?.message_id;
  let answered = false;
  const answer = async (stale: boolean) => {
    answered = true;
    const toast = stale
      ? ownText(deps, deps.locales.of(chatId, ctx.from?.language_code), 'tg-button-stale')
      : undefined;
    await deps
      .bounded((signal) => ctx.answerCallbackQuery(toast ? { text: htmlToPlain(toast) } : undefined, signal))
      .catch((e) =>
        deps.log.warn({ err: describeError(e, deps.token) }, 'answering a callback query failed'),
      );
  };
  try {
    if (selfContained(data)) await answer(false);
    // A tap on an older question's buttons is stale: judged from the chat's scratch, which the
    // engine loads with the session (no round trip of its own).
    const input = { kind: 'button' as const, id: data, ...(from !== undefined ? { on: String(from) } : {}) };
    await handleInput(deps, ctx, chatId, input, async (scratch) => {
      if (answered) return true;
      const current = await chatMarks(deps.state, chatId, scratch).question();
      const stale = current !== undefined && from !== undefined && from !== current;
      await answer(stale);
      return !stale;
    });
  } finally {
    // A redelivered tap, or one Redis could not take: the spinner still stops.
    if (!answered) await answer(false);
  }
}

/** A text, or a command when it starts with one addressed to this bot (others' are ignored). */
async function onText(deps: InboundDeps, ctx: Private<'message:text'>) {
  const { text, entities } = ctx.message;
  const first = entities?.[0];
  let input: Input = { kind: 'text', text };
  if (first?.type === 'bot_command' && first.offset === 0) {
    const [name = '', mention] = text.slice(1, first.length).split('@');
    if (mention && mention.toLowerCase() !== ctx.me.username.toLowerCase()) return;
    input = { kind: 'command', command: name.toLowerCase(), args: text.slice(first.length).trim() };
  }
  await handleInput(deps, ctx, String(ctx.chat.id), input);
}

/** A shared contact counts only when it is the sender's own; the phone keyboard is then removed. */
async function onContact(deps: InboundDeps, ctx: Private<'message:contact'>) {
  const chatId = String(ctx.chat.id);
  const contact = ctx.message.contact;
  const locale = deps.locales.of(chatId, ctx.from.language_code);
  if (contact.user_id === undefined || contact.user_id !== ctx.from.id) {
    await sendHtml(deps, chatId, ownText(deps, locale, 'tg-contact-not-yours'), undefined);
    return;
  }
  await sendHtml(deps, chatId, ownText(deps, locale, 'tg-phone-received'), { remove_keyboard: true });
  await handleInput(deps, ctx, chatId, { kind: 'contact', phone: contact.phone_number }, (scratch) => {
    void chatMarks(deps.state, chatId, scratch).setKeyboardShown(false);
    return true;
  });
}
