/**
 * Confirming a buy and the order it creates: Confirm re-quotes, a fresh quote within tolerance creates
 * the order once (`buyOrderKey`), and while it is sent or awaited further confirms are only answered.
 */
import type { Text } from '../../chat/types.js';
import type { Quote, TokenInfo } from '../../domain/types.js';
import { failureTexts, mayHaveReachedService } from '../failures.js';
import type { FlowStep } from '../flow.js';
import { displayPhone, send, text } from '../flow.js';
import { chosenToken } from '../form/asset-steps.js';
import { at, confirmSummary, quoted, requoted } from '../form/form.js';
import { menuButton } from '../menu/menu.js';
import { onrampTotalKes } from '../quote/quote-view.js';
import type { Session } from '../session.js';
import type { Effect, EffectResult, FlowContext } from '../types.js';
import { buyForm } from './buy-form.js';
import { isThirdPartyPhone } from './buy-questions.js';
import { type BuyState, buyOrderKey } from './buy-state.js';

/** A message while the order is being sent or awaited: what it waits for, and the menu. */
export const awaitingReply = (session: Session, state: BuyState): FlowStep =>
  at(session, state, [
    send([state.orderId ? text('buy-awaiting', { orderId: state.orderId }) : text('buy-please-wait')], {
      buttons: [[menuButton()]],
    }),
  ]);

/** Confirm (tapped or typed): re-quotes at the summary; once the order is sent, only answers. */
export function confirm(
  session: Session,
  state: BuyState,
  flowId: string | undefined,
  _ctx: FlowContext,
): FlowStep {
  if (state.step === 'submitting' || state.step === 'awaiting') {
    return at(session, state, [
      send(
        [state.orderId ? text('buy-already-sent', { orderId: state.orderId }) : text('buy-already-sending')],
        {
          buttons: [[menuButton()]],
        },
      ),
    ]);
  }
  return confirmSummary(buyForm, session, state, flowId);
}

/** A quote arrived: the summary after the first, the order after a re-quote within tolerance. */
export function onQuote(session: Session, state: BuyState, quote: Quote, ctx: FlowContext): FlowStep {
  if (state.step === 'quoting') return quoted(buyForm, session, state, quote);
  return requoted(buyForm, session, state, quote, ctx, (fresh) => {
    const token = chosenToken(fresh);
    if (!token)
      return {
        session: { ...session, flow: { name: 'menu' } },
        effects: [],
        exit: [text('core-error-unavailable')],
      };
    return createOrder(session, fresh, token, ctx);
  });
}

/** The order, once: the profile keeps the phone, the wallet and the last choice for the next buy. */
function createOrder(session: Session, state: BuyState, token: TokenInfo, ctx: FlowContext): FlowStep {
  const network = state.network!;
  const wallet = state.wallet!;
  const phone = state.phone!;
  const order: Effect = {
    type: 'createOnrampOrder',
    request: { phone, amountKes: state.amountKes!, userAddress: wallet, tokenAddress: token.address },
    idempotencyKey: buyOrderKey(state.id),
    ...(isThirdPartyPhone(session, phone) ? { thirdParty: true } : {}),
    track: {
      side: 'onramp',
      user: ctx.user,
      network,
      walletAddress: wallet,
      token: { symbol: token.symbol, address: token.address, decimals: token.decimals },
      amountKes: state.amountKes!,
      paidKes: onrampTotalKes(state.quote!),
      tokenAmount: state.quote!.outputAmount,
      phone,
    },
  };
  const profile = {
    ...session.profile,
    phone,
    wallets: { ...session.profile.wallets, [network]: wallet },
    lastBuy: { token: token.symbol, network },
  };
  return { session: { ...session, profile, flow: { ...state, step: 'submitting' } }, effects: [order] };
}

/**
 * The STK push was sent: check the phone, never share the PIN. `waitingOrderId`: an earlier order
 * still waits for payment on the same number, so this prompt may not appear until that one ends.
 */
export function stkSent(state: BuyState | undefined, orderId: string, waitingOrderId?: string): Effect {
  const texts: Text[] = state?.phone
    ? [text('buy-stk-sent', { orderId, phone: displayPhone(state.phone) })]
    : [text('buy-stk-sent-short', { orderId })];
  if (waitingOrderId) texts.push(text('buy-stk-same-phone-waiting', { orderId: waitingOrderId }));
  texts.push(text('buy-never-pin'));
  return send(texts, { buttons: [[menuButton()]] });
}

/** Why the order could not be created; an answer that may hide an order says it is uncertain. */
export function orderFailedTexts(error: Extract<EffectResult, { kind: 'effectFailed' }>['error']): Text[] {
  if (error.kind === 'rate_limited')
    return [
      text('buy-rate-limited', { minutes: Math.max(1, Math.ceil((error.retryInMs ?? 60_000) / 60_000)) }),
    ];
  if (error.kind === 'validation' || error.kind === 'duplicate' || error.kind === 'not_found') {
    return [text('buy-order-refused'), ...failureTexts(error)];
  }
  return mayHaveReachedService(error)
    ? [text('buy-order-uncertain')]
    : [text('buy-order-failed'), ...failureTexts(error)];
}
