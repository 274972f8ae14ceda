/**
 * Buy (on-ramp): amount in KES, token, network, wallet, payer phone, a quote summary, Confirm.
 * Confirm re-quotes; the order is created once per flow instance (`buy:<flowId>:confirm`), after
 * which further confirms are only answered.
 */

import { failureTexts } from '../failures.js';
import type { FlowDef, FlowStep } from '../flow.js';
import { isEffectResult, NO_WORDS, send, text, unhandled, word, YES_WORDS } from '../flow.js';
import {
  answerForm,
  answerTap,
  askAgain,
  assetsLoaded,
  at,
  clearStep,
  quoteFailed,
  requoteFailed,
  startForm,
  stepBack,
} from '../form/form.js';
import { menuButton } from '../menu/menu.js';
import type { Session } from '../session.js';
import type { EffectResult, FlowContext, Input } from '../types.js';
import { buyForm, withSavedChoices } from './buy-form.js';
import { awaitingReply, confirm, onQuote, orderFailedTexts, stkSent } from './buy-order.js';
import { isThirdPartyPhone } from './buy-questions.js';
import {
  type AskStep,
  BUY_STEPS,
  type BuyState,
  buyConfirmButtonId,
  buyOrderKey,
  buyStateSchema,
} from './buy-state.js';

export { BUY_STEPS, type BuyState, buyConfirmButtonId, buyOrderKey, buyStateSchema, isThirdPartyPhone };

/** What the summary offers to change (each clears what depends on it and asks it again). */
const CHANGEABLE: readonly AskStep[] = ['amount', 'token', 'wallet', 'phone'];

function onButton(session: Session, state: BuyState, id: string, ctx: FlowContext): FlowStep {
  const [, kind = '', value = ''] = id.split(':');
  if (kind === 'confirm') return confirm(session, state, value, ctx);
  if (state.step === 'submitting' || state.step === 'awaiting') return awaitingReply(session, state);
  if (kind === 'change' && state.step === 'summary' && CHANGEABLE.includes(value as AskStep)) {
    const step = value as AskStep;
    const cleared: BuyState = { ...clearStep(buyForm, state, step), quote: undefined };
    return askAgain(buyForm, session, { ...cleared, step }, step, []);
  }
  return answerTap(buyForm, session, state, kind, value);
}

function onResult(session: Session, state: BuyState, input: EffectResult, ctx: FlowContext): FlowStep {
  switch (input.kind) {
    case 'assets': {
      if (state.step !== 'loading') return unhandled(session);
      return assetsLoaded(
        buyForm,
        session,
        withSavedChoices(session, state, input.assets.tokens),
        input.assets.tokens,
      );
    }
    case 'quote':
      if (input.purpose === 'buy' && state.step === 'quoting')
        return onQuote(session, state, input.quote, ctx);
      if (input.purpose === 'reconfirm' && state.step === 'reconfirming') {
        return onQuote(session, state, input.quote, ctx);
      }
      return unhandled(session);
    case 'onrampCreated': {
      if (state.step !== 'submitting' || input.idempotencyKey !== buyOrderKey(state.id))
        return unhandled(session);
      const next: BuyState = { ...state, step: 'awaiting', orderId: input.orderId };
      const waiting = waitingOnSamePhone(session, next.phone, input.orderId, ctx.now);
      const pushed = {
        ...session,
        profile: { ...session.profile, lastPush: pushOf(next, input.orderId, ctx) },
      };
      return at(pushed, next, [stkSent(next, input.orderId, waiting)]);
    }
    case 'effectFailed':
      return onFailure(session, state, input);
    case 'orderFinal':
      // The tracker has told the outcome: the buy no longer waits (a typed "thanks" must not hear
      // that the order is still waiting for payment). Back to the menu, quietly.
      if (state.step !== 'awaiting' || state.orderId !== input.orderId) return unhandled(session);
      return { session: { ...pushSettled(session, input.orderId), flow: { name: 'menu' } }, effects: [] };
    default:
      return unhandled(session);
  }
}

/**
 * How long after a push a second one to the same number is told the first may still be waiting
 * (M-Pesa shows one prompt at a time; a push to a number with one open shows nothing).
 */
export const PUSH_WAIT_MS = 3 * 60_000;

function pushOf(state: BuyState, orderId: string, ctx: FlowContext) {
  return state.phone ? { phone: state.phone, orderId, at: ctx.now } : undefined;
}

/** The earlier order still waiting for payment on this number (pushed lately, not known final). */
function waitingOnSamePhone(
  session: Session,
  phone: string | undefined,
  orderId: string,
  now: number,
): string | undefined {
  const last = session.profile.lastPush;
  if (!last || !phone || last.phone !== phone || last.orderId === orderId) return undefined;
  return now - last.at < PUSH_WAIT_MS ? last.orderId : undefined;
}

/** The order's outcome is known: its number no longer waits on it. */
function pushSettled(session: Session, orderId: string): Session {
  if (session.profile.lastPush?.orderId !== orderId) return session;
  const { lastPush: _settled, ...profile } = session.profile;
  return { ...session, profile };
}

function onFailure(
  session: Session,
  state: BuyState,
  input: Extract<EffectResult, { kind: 'effectFailed' }>,
): FlowStep {
  const { effect, error } = input;
  if (effect === 'fetchAssets' && state.step === 'loading') {
    return { session, effects: [], exit: failureTexts(error) };
  }
  if (effect === 'fetchQuote' && (state.step === 'quoting' || state.step === 'reconfirming')) {
    if (state.step === 'reconfirming' && error.kind !== 'validation')
      return requoteFailed(buyForm, session, state, error);
    return quoteFailed(buyForm, session, state, error);
  }
  if (effect === 'createOnrampOrder' && state.step === 'submitting') {
    return { session, effects: [], exit: orderFailedTexts(error) };
  }
  return unhandled(session);
}

function handle(session: Session, state: BuyState, input: Input, ctx: FlowContext): FlowStep {
  if (isEffectResult(input)) return onResult(session, state, input, ctx);
  if (input.kind === 'button') return onButton(session, state, input.id, ctx);
  if (state.step === 'submitting' || state.step === 'awaiting') {
    if (input.kind === 'text' && YES_WORDS.includes(word(input.text)))
      return confirm(session, state, undefined, ctx);
    return awaitingReply(session, state);
  }
  if (state.step === 'summary' && input.kind === 'text') {
    if (YES_WORDS.includes(word(input.text))) return confirm(session, state, undefined, ctx);
    if (NO_WORDS.includes(word(input.text))) return { session, effects: [], exit: [text('core-cancelled')] };
  }
  return answerForm(buyForm, session, state, input);
}

export const buyFlow: FlowDef<BuyState> = {
  name: 'buy',
  prefix: 'buy',
  commands: ['buy', 'nunua'],
  keywords: ['buy', 'nunua', 'kununua'],
  menu: { order: 10, label: text('core-menu-buy') },
  start(session, ctx, how) {
    const started = startForm(session, ctx, how, 'buy', { type: 'fetchAssets' });
    // A tapped "Buy again" / "Try again" / "Buy this" (menu:buy:<amount> <token> <network>) goes
    // straight to the summary when the wallet and phone are saved, like menu Buy.
    if (!how.button?.startsWith('menu:buy:') || !how.args?.trim()) return started;
    const flow = { ...(started.session.flow as BuyState), fillSaved: true as const };
    return { ...started, session: { ...started.session, flow } };
  },
  handle,
  back(session, state) {
    if (state.step === 'submitting' || state.step === 'awaiting') return awaitingReply(session, state);
    return stepBack(buyForm, session, state);
  },
  cancel(session, state) {
    if (state.step === 'submitting' || state.step === 'awaiting') {
      return {
        session,
        effects: [],
        exit: [
          state.orderId
            ? text('buy-cancel-too-late', { orderId: state.orderId })
            : text('buy-cancel-too-late-short'),
        ],
      };
    }
    return { session, effects: [], exit: [text('core-cancelled')] };
  },
  orphan(session, input) {
    // The outcome of an order the chat no longer waits on: its number no longer waits either.
    if (input.kind === 'orderFinal' && session.profile.lastPush?.orderId === input.orderId)
      return { session: pushSettled(session, input.orderId), effects: [] };
    if (input.kind === 'onrampCreated' && input.idempotencyKey.startsWith('buy:')) {
      return { session, effects: [stkSent(undefined, input.orderId)] };
    }
    if (input.kind === 'effectFailed' && input.effect === 'createOnrampOrder') {
      return { session, effects: [send(orderFailedTexts(input.error), { buttons: [[menuButton()]] })] };
    }
    return undefined;
  },
};
