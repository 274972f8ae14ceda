/** The quote at the end of a form (see ./form.ts): the summary, the re-quote at Confirm, and failures. */
import type { Quote } from '../../domain/types.js';
import { formatKes } from '../../i18n/format.js';
import { failureTexts } from '../failures.js';
import type { FlowStep } from '../flow.js';
import { text } from '../flow.js';
import { rateMovePct } from '../quote/quote-view.js';
import type { Session } from '../session.js';
import type { EffectError, FlowContext } from '../types.js';
import { askAgain, at, clearStep, isAskStep, pleaseWait } from './form-steps.js';
import type { ConfirmForm, FormFlowState, OrderForm, PhoneFormState } from './form-types.js';

/** The amount is outside the quoted limits: ask it again, showing them. */
export function refuseAmount<S extends PhoneFormState, A extends string>(
  form: ConfirmForm<S, A>,
  session: Session,
  state: S,
  quote: Quote,
): FlowStep {
  const note = form.amountOutOfLimits(session, state, quote);
  const cleared = clearStep(form, state, 'amount' as A);
  const next: S = { ...cleared, quote: undefined, limits: quote.limits, step: 'amount' };
  return askAgain(form, session, next, 'amount' as A, [note]);
}

/** The first quote arrived: the summary, or the amount again when it is outside the limits. */
export function quoted<S extends PhoneFormState, A extends string>(
  form: ConfirmForm<S, A>,
  session: Session,
  state: S,
  quote: Quote,
): FlowStep {
  if (!form.amountInLimits(state, quote)) return refuseAmount(form, session, state, quote);
  const next: S = { ...state, quote, limits: quote.limits ?? state.limits, step: 'summary' };
  return at(session, next, [form.summary(session, next, [])]);
}

/**
 * Confirm at the summary re-quotes (`reconfirmPurpose`). Still working, not at the summary, or
 * another instance's button: answers that instead.
 */
export function confirmSummary<S extends PhoneFormState, A extends string>(
  form: ConfirmForm<S, A>,
  session: Session,
  state: S,
  flowId: string | undefined,
): FlowStep {
  if (state.step === 'reconfirming' || state.step === 'quoting' || state.step === 'loading')
    return pleaseWait(form, session, state);
  if (state.step !== 'summary' || !state.quote) {
    const step = isAskStep(form, state.step) ? state.step : form.order[0]!;
    return askAgain(form, session, state, step, [text('core-button-stale')]);
  }
  if (flowId !== undefined && flowId !== state.id)
    return at(session, state, [form.summary(session, state, [text('core-button-stale')])]);
  if (!form.amountInLimits(state, state.quote)) return refuseAmount(form, session, state, state.quote);
  const request = form.quoteRequest(state);
  return at(session, { ...state, step: 'reconfirming' }, [
    { type: 'fetchQuote', request, purpose: form.reconfirmPurpose },
  ]);
}

/**
 * The re-quote at Confirm arrived: outside the limits, the amount again; moved more than the
 * tolerance, the summary again at the new price; otherwise `proceed` with the fresh quote.
 */
export function requoted<S extends PhoneFormState, A extends string>(
  form: ConfirmForm<S, A>,
  session: Session,
  state: S,
  quote: Quote,
  ctx: FlowContext,
  proceed: (state: S) => FlowStep,
): FlowStep {
  if (!form.amountInLimits(state, quote)) return refuseAmount(form, session, state, quote);
  const before = state.quote!;
  const next: S = { ...state, quote, limits: quote.limits ?? state.limits };
  if (rateMovePct(before, quote) <= ctx.config.rateTolerancePct) return proceed(next);
  const note = text(form.texts.rateMoved, {
    before: formatKes(session.locale, before.exchangeRate),
    after: formatKes(session.locale, quote.exchangeRate),
    token: state.token!,
  });
  const shown: S = { ...next, step: 'summary' };
  return at(session, shown, [form.summary(session, shown, [note])]);
}

/**
 * A quote could not be had. Refused: the network again when the ramp named the networks it
 * supports, else the amount. Otherwise the flow ends with the reason.
 */
export function quoteFailed<S extends FormFlowState, A extends string>(
  form: OrderForm<S, A>,
  session: Session,
  state: S,
  error: EffectError,
): FlowStep {
  const notes = failureTexts(error);
  if (error.kind !== 'validation') return { session, effects: [], exit: notes };
  if (error.supportedNetworks?.length)
    return form.advance(session, clearStep(form, state, 'network' as A), notes, false);
  return form.advance(session, clearStep(form, state, 'amount' as A), notes);
}

/** The re-quote at Confirm failed: the summary again, saying Confirm can be tapped again. */
export function requoteFailed<S extends PhoneFormState, A extends string>(
  form: ConfirmForm<S, A>,
  session: Session,
  state: S,
  error: EffectError,
): FlowStep {
  const next: S = { ...state, step: 'summary' };
  return at(session, next, [
    form.summary(session, next, [...failureTexts(error), text(form.texts.tryAgain)]),
  ]);
}
