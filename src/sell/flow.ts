/**
 * Sell (off-ramp), pure: token, network, amount (KES to receive or tokens to send), the M-Pesa
 * number, the sending wallet if known, the quote, Confirm. Confirm asks for one sell intent per flow
 * instance (`sell:<flowId>`): the effect handler binds phone, wallet, token, total, fee and the time
 * window to it and answers with the signing link. While it waits, a pasted hash is checked the same
 * way as one reported by the signing page; results arrive as `sellUpdate` inputs.
 *
 * This file routes inputs and defines `sellFlow`; the parts, in ./flow/, are flow-state.ts (the
 * state, keys and pasted hashes), flow-form.ts (the questions and the summary), flow-link.ts (Confirm
 * to the signing link, and waiting) and flow-updates.ts (what the user is told about the transaction).
 */

import type { Quote } from '../domain/types.js';
import { failureTexts } from '../flows/failures.js';
import type { FlowDef, FlowStep } from '../flows/flow.js';
import { isEffectResult, send, text, unhandled, word, YES_WORDS } from '../flows/flow.js';
import {
  answerForm,
  answerTap,
  assetsLoaded,
  at,
  clearStep,
  quoted,
  requoted,
  requoteFailed,
  startForm,
  stepBack,
} from '../flows/form/form.js';
import { menuButton } from '../flows/menu/menu.js';
import { KNOWN_LIMITS } from '../flows/quote/quote-view.js';
import type { Session } from '../flows/session.js';
import type { EffectResult, FlowContext, Input } from '../flows/types.js';
import { advance, sellForm, tokensOutside } from './flow/flow-form.js';
import { awaitingReply, confirm, linkButtons, linkMessage, requestIntent } from './flow/flow-link.js';
import {
  keepLiveSale,
  liveSaleNote,
  liveSaleOf,
  onLiveButton,
  SELL_LIVE_CANCEL,
  saleAlreadyLive,
} from './flow/flow-live.js';
import { ANY_WALLET, malformedHash, pastedHash, type SellState, sellIntentKey } from './flow/flow-state.js';
import { onUpdate, orphanUpdate } from './flow/flow-updates.js';

export { type SellState, sellConfirmButtonId, sellIntentKey, sellStateSchema } from './flow/flow-state.js';

function onButton(session: Session, state: SellState, id: string, ctx: FlowContext): FlowStep {
  const [, kind = '', value = ''] = id.split(':');
  if (kind === 'live') return onLiveButton(session, id, ctx);
  if (kind === 'confirm') return confirm(session, state, value);
  if (kind === 'devsign') {
    if (state.step === 'awaiting' && state.intentId && state.devSign) {
      return at(session, state, [
        send([text('sell-devsign-started')]),
        { type: 'sellDevSign', intentId: state.intentId },
      ]);
    }
    return at(session, state, [send([text('core-button-stale')])]);
  }
  if (state.step === 'creating' || state.step === 'awaiting') return awaitingReply(session, state, []);
  if (kind === 'wallet' && value === 'any' && state.step === 'summary') {
    return advance(session, { ...state, wallet: ANY_WALLET }, []);
  }
  const saved = state.network ? session.profile.wallets[state.network] : undefined;
  if (kind === 'wallet' && value === 'saved' && state.step === 'summary' && saved) {
    return advance(session, { ...state, wallet: saved }, []);
  }
  return answerTap(sellForm, session, state, kind, value);
}

function onResult(session: Session, state: SellState, input: EffectResult, ctx: FlowContext): FlowStep {
  switch (input.kind) {
    case 'sellOptions':
      if (state.step !== 'loading') return unhandled(session);
      return assetsLoaded(sellForm, session, state, input.tokens);
    case 'quote':
      if (input.purpose === PROBE.purpose && state.step === 'quoting' && state.probing)
        return probed(session, state, input.quote);
      if (input.purpose === sellForm.purpose && state.step === 'quoting')
        return quoted(sellForm, session, state, input.quote);
      if (input.purpose === sellForm.reconfirmPurpose && state.step === 'reconfirming')
        return requoted(sellForm, session, state, input.quote, ctx, (fresh) => requestIntent(session, fresh));
      return unhandled(session);
    case 'sellIntent': {
      if (state.step !== 'creating' || input.key !== sellIntentKey(state.id)) return unhandled(session);
      const next: SellState = {
        ...state,
        step: 'awaiting',
        intentId: input.link.intentId,
        signUrl: input.link.signUrl,
        expiresAt: input.link.expiresAt,
        devSign: input.link.devSign,
      };
      return at(keepLiveSale(session, next, input.link), next, [linkMessage(next, input.link, ctx.now)]);
    }
    case 'sellUpdate':
      return onUpdate(session, state, input.intentId, input.update);
    case 'effectFailed':
      return onFailure(session, state, input);
    default:
      return unhandled(session);
  }
}

function onFailure(
  session: Session,
  state: SellState,
  input: Extract<EffectResult, { kind: 'effectFailed' }>,
): FlowStep {
  const { effect, error } = input;
  if (effect === 'sellOptions' && state.step === 'loading')
    return { session, effects: [], exit: failureTexts(error) };
  if (effect === 'fetchQuote' && state.step === 'quoting' && state.probing) {
    // The rate could not be had either: the ramp's refusal as it came, and the amount again.
    return advance(
      session,
      clearStep(sellForm, { ...state, probing: undefined }, 'amount'),
      failureTexts(error),
    );
  }
  if (effect === 'fetchQuote' && (state.step === 'quoting' || state.step === 'reconfirming')) {
    if (
      error.kind === 'validation' &&
      state.step === 'quoting' &&
      state.amountIn === 'token' &&
      !error.supportedNetworks?.length
    )
      return probeRate(session, state);
    if (error.kind === 'validation')
      return advance(session, clearStep(sellForm, state, 'amount'), failureTexts(error));
    if (state.step === 'reconfirming') return requoteFailed(sellForm, session, state, error);
    return { session, effects: [], exit: failureTexts(error) };
  }
  if (effect === 'sellCreateIntent' && state.step === 'creating') {
    if (error.kind === 'rate_limited') {
      const minutes = Math.max(1, Math.ceil((error.retryInMs ?? 60_000) / 60_000));
      return { session, effects: [], exit: [text('sell-rate-limited', { minutes })] };
    }
    return { session, effects: [], exit: [text('sell-intent-failed')] };
  }
  if ((effect === 'sellReportHash' || effect === 'sellDevSign') && state.step === 'awaiting') {
    return at(session, state, [send([text('sell-check-failed')], { buttons: linkButtons(state) })]);
  }
  return unhandled(session);
}

/** The purpose of the quote that gives the rate of a refused token amount. */
const PROBE = { purpose: 'sell-probe' } as const;

/**
 * The ramp refused a token amount (out of its range, as it does not say in KES): a quote for a
 * small KES amount gives the rate, so the refusal can say what the tokens are worth against the limits.
 */
function probeRate(session: Session, state: SellState): FlowStep {
  const limits = state.limits ?? KNOWN_LIMITS.offramp;
  const request = {
    type: 'offramp' as const,
    network: state.network!,
    token: state.token!,
    fiatCurrency: 'KES' as const,
    fiatAmount: String(Math.min(1000, limits.max)),
  };
  return at(session, { ...state, probing: true }, [{ type: 'fetchQuote', request, purpose: PROBE.purpose }]);
}

/** The rate arrived: the token amount in KES against the limits, and the amount asked again. */
function probed(session: Session, state: SellState, quote: Quote): FlowStep {
  const limits = quote.limits ?? state.limits ?? KNOWN_LIMITS.offramp;
  const kes = Number(state.amount) * quote.exchangeRate;
  const inside = kes >= limits.min && kes <= limits.max;
  const note = inside
    ? text('core-error-refused-unknown')
    : tokensOutside(session, state, state.amount!, quote.exchangeRate, limits);
  const next = clearStep(sellForm, { ...state, probing: undefined, limits }, 'amount');
  return advance(session, next, [note]);
}

function handle(session: Session, state: SellState, input: Input, ctx: FlowContext): FlowStep {
  if (isEffectResult(input)) return onResult(session, state, input, ctx);
  if (input.kind === 'button') return onButton(session, state, input.id, ctx);
  if (state.step === 'awaiting' || state.step === 'creating') {
    if (input.kind === 'text') {
      const hash = pastedHash(input.text);
      if (hash && state.step === 'awaiting' && state.intentId) {
        return at(session, state, [
          send([text('sell-hash-received')]),
          { type: 'sellReportHash', intentId: state.intentId, hash },
        ]);
      }
      if (YES_WORDS.includes(word(input.text))) return confirm(session, state, undefined);
      if (state.step === 'awaiting' && malformedHash(input.text)) {
        const id =
          state.network === 'algorand' ? 'sell-refused-malformed-algorand' : 'sell-refused-malformed-evm';
        return at(session, state, [send([text(id)], { buttons: linkButtons(state) })]);
      }
    }
    return awaitingReply(session, state, []);
  }
  if (state.step === 'summary' && input.kind === 'text' && YES_WORDS.includes(word(input.text))) {
    return confirm(session, state, undefined);
  }
  return answerForm(sellForm, session, state, input);
}

export const sellFlow: FlowDef<SellState> = {
  name: 'sell',
  prefix: 'sell',
  commands: ['sell', 'uza'],
  keywords: ['sell', 'uza', 'kuuza'],
  menu: { order: 20, label: text('sell-menu') },
  startButtons: ['sell:live:'],
  start(session, ctx, how) {
    if (how.button?.startsWith('sell:live:')) return onLiveButton(session, how.button, ctx);
    // One live sale at a time: a second one is not started without a word about the first.
    const live = liveSaleOf(session, ctx.now);
    if (live) return saleAlreadyLive(session, live, ctx);
    return startForm(session, ctx, how, 'sell', { type: 'sellOptions' });
  },
  menuNote: liveSaleNote,
  // A sale left for the menu is still the seller's to end with "cancel" there.
  idleCancel: (session, ctx) =>
    liveSaleOf(session, ctx.now) ? onLiveButton(session, SELL_LIVE_CANCEL, ctx) : undefined,
  handle,
  back(session, state) {
    if (state.step === 'creating' || state.step === 'awaiting') return awaitingReply(session, state, []);
    return stepBack(sellForm, session, state);
  },
  cancel(session, state) {
    if (state.step === 'awaiting' && state.intentId) {
      // No menu here: the outcome ("cancelled", or "too late, it is being paid out") comes next and
      // ends with the main menu, so the menu is shown once, last, and a typed number answers it.
      return {
        session: { ...session, flow: { name: 'menu' } },
        effects: [
          send([text('sell-cancel-requested')]),
          { type: 'sellCancelIntent', intentId: state.intentId },
        ],
      };
    }
    if (state.step === 'creating') return { session, effects: [], exit: [text('sell-cancel-too-late')] };
    return { session, effects: [], exit: [text('core-cancelled')] };
  },
  orphan(session, input) {
    if (input.kind === 'sellUpdate') return orphanUpdate(session, input.intentId, input.update);
    if (input.kind === 'effectFailed' && input.effect === 'sellCancelIntent') {
      // The cancel left the flow without a menu, waiting for this outcome: it still ends with one.
      return { session, effects: [send([text('sell-cancel-failed')], { buttons: [[menuButton()]] })] };
    }
    if (input.kind === 'sellIntent') {
      // The user left before the link arrived: the intent stays open until it expires.
      return {
        session: { ...session, profile: { ...session.profile, lastSellIntent: input.link.intentId } },
        effects: [send([text('sell-link-late', { url: input.link.signUrl })], { buttons: [[menuButton()]] })],
      };
    }
    return undefined;
  },
  idleText(session, typed) {
    // A hash pasted after the sale was cancelled, expired or left: checked against the latest sale,
    // so a deposit made anyway is filed (saying it came after the cancel), never stranded.
    const hash = pastedHash(typed);
    if (!hash) return undefined;
    // No sale in this chat (Redis may have come back empty): the sell service looks in the journal.
    const intentId = session.profile.lastSellIntent ?? '';
    return {
      session,
      effects: [send([text('sell-hash-received')]), { type: 'sellReportHash', intentId, hash }],
    };
  },
};
