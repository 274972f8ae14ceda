/**
 * From Confirm to the signing link: asking for the flow instance's one intent, the message with the
 * link (or the Algorand payment request), and the reply while the sale waits for the transaction.
 * Pure.
 */
import type { Button, Text } from '../../chat/types.js';
import type { FlowStep } from '../../flows/flow.js';
import { button, send, text } from '../../flows/flow.js';
import { chosenToken } from '../../flows/form/asset-steps.js';
import { at, confirmSummary } from '../../flows/form/form.js';
import { sellFigures } from '../../flows/quote/quote-view.js';
import type { Session } from '../../flows/session.js';
import type { Effect, SellLink } from '../../flows/types.js';
import { sellForm } from './flow-form.js';
import { boundWallet, SELL_DEVSIGN, type SellState, sellIntentKey } from './flow-state.js';

/** The ways to sign (wallet deep links, the page, the dev wallet) and Cancel. */
export function linkButtons(state: SellState, link?: SellLink): Button[][] {
  const out: Button[][] = [];
  if (link?.algorand) {
    out.push([{ id: 'sell:link:pera', label: text('sell-button-pera'), url: link.algorand.peraUrl }]);
  }
  if (link?.metamaskUrl)
    out.push([{ id: 'sell:link:metamask', label: text('sell-button-metamask'), url: link.metamaskUrl }]);
  if (link?.trustUrl)
    out.push([{ id: 'sell:link:trust', label: text('sell-button-trust'), url: link.trustUrl }]);
  const signUrl = link?.signUrl ?? state.signUrl;
  if (signUrl && /^https:/.test(signUrl)) {
    out.push([{ id: 'sell:link:page', label: text('sell-button-page'), url: signUrl }]);
  }
  if (state.devSign || link?.devSign) out.push([button(SELL_DEVSIGN, 'sell-button-devsign')]);
  out.push([button('nav:cancel', 'sell-button-cancel-sale')]);
  return out;
}

/** The reply to anything but a hash while the link is being made or waits for the transaction. */
export function awaitingReply(session: Session, state: SellState, notes: Text[]): FlowStep {
  if (state.step === 'creating') return at(session, state, [send([...notes, text('sell-please-wait')])]);
  return at(session, state, [
    send([...notes, text('sell-awaiting', { url: state.signUrl ?? '' }), text('sell-paste-hash')], {
      buttons: linkButtons(state),
    }),
  ]);
}

/** Confirm: the summary's, or "already confirmed" once the intent was asked for. */
export function confirm(session: Session, state: SellState, flowId: string | undefined): FlowStep {
  if (state.step === 'creating' || state.step === 'awaiting')
    return awaitingReply(session, state, [text('sell-already-confirmed')]);
  return confirmSummary(sellForm, session, state, flowId);
}

/**
 * Asks for the flow instance's one intent, binding phone, wallet, token, total and fee from the
 * fresh quote.
 */
export function requestIntent(session: Session, state: SellState): FlowStep {
  const token = chosenToken(state);
  if (!token) return { session, effects: [], exit: [text('core-error-unavailable')] };
  const figures = sellFigures(state.quote!);
  const wallet = boundWallet(state);
  const network = state.network!;
  const phone = state.phone!;
  const intent: Effect = {
    type: 'sellCreateIntent',
    key: sellIntentKey(state.id),
    request: {
      network,
      token: { symbol: token.symbol, address: token.address, decimals: token.decimals },
      // Exactly what the summary showed: the ramp's quote for what the seller asked.
      total: figures.send,
      fee: figures.feeTokens,
      amountKes: figures.receiveKes,
      exchangeRate: state.quote!.exchangeRate,
      phone,
      ...(wallet ? { wallet } : {}),
    },
  };
  const profile = {
    ...session.profile,
    phone,
    wallets: wallet ? { ...session.profile.wallets, [network]: wallet } : session.profile.wallets,
  };
  return { session: { ...session, profile, flow: { ...state, step: 'creating' } }, effects: [intent] };
}

/** The message carrying the signing link, or the Algorand payment request. */
export function linkMessage(state: SellState, link: SellLink, now: number): Effect {
  const texts: Text[] = [];
  if (link.senderProblem) texts.push(text(`sell-sender-${link.senderProblem.replace(/_/g, '-')}`));
  if (link.algorand) {
    texts.push(
      text('sell-algorand-pay', {
        total: link.total,
        token: state.token ?? 'USDC',
        receiver: link.algorand.receiver,
      }),
      text('sell-algorand-note', { note: link.algorand.note }),
      text('sell-algorand-qr', { url: link.algorand.qrUrl }),
      text('sell-algorand-auto'),
    );
  } else {
    texts.push(text('sell-evm-sign', { total: link.total, token: state.token ?? '', url: link.signUrl }));
    texts.push(text('sell-paste-hash'));
  }
  texts.push(
    text('sell-link-expires', { minutes: Math.max(1, Math.round((link.expiresAt - now) / 60_000)) }),
  );
  return send(texts, { buttons: linkButtons(state, link) });
}
