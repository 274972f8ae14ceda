/**
 * The ordered ask-steps form behind buy, sell and quote. A flow describes its form once
 * (`OrderForm`: the steps in order, the fields each fills, its own questions and words); these
 * functions ask the first unfilled step, read typed words, shared contacts and taps, step back,
 * quote once everything is filled, and re-quote at Confirm.
 */

import type { Text } from '../chat/types.js';
import type { Network, Quote, QuoteRequest, TokenInfo } from '../domain/types.js';
import { formatKes } from '../i18n/format.js';
import { type AssetStepIds, askNetwork, askToken, tappedNetwork, tappedToken } from './asset-steps.js';
import { listedSymbols } from './assets.js';
import { failureTexts } from './failures.js';
import type { FlowStart, FlowStep } from './flow.js';
import { makeFlowId, send, text } from './flow.js';
import { type OrderWords, parseOrderWords, parsePhone } from './parse.js';
import { rateMovePct } from './quote-view.js';
import type { FlowState } from './registry.js';
import type { Session } from './session.js';
import type { Effect, EffectError, FlowContext, Input } from './types.js';

/** What every form flow's state has. */
export interface FormState {
  id: string;
  step: string;
  token?: string;
  network?: Network;
  /** The tokens to choose from, fetched once per flow. */
  assets?: TokenInfo[];
  quote?: Quote;
  /** The last limits the ramp quoted. */
  limits?: Quote['limits'];
  /** One-line command text waiting for the assets. */
  args?: string;
}

/** A form flow's state as the session holds it; `phone` for forms that ask an M-Pesa number. */
type FormFlowState = FlowState & FormState;
type PhoneFormState = FormFlowState & { phone?: string };

/** The steps every form has whose questions come from asset-steps.ts. */
export type AssetStep = 'token' | 'network';

/** A message's words read into a state: `used` when any word filled something. */
export interface Applied<S> {
  state: S;
  notes: Text[];
  used: boolean;
}

/** A flow's form: its steps in order, the fields each fills, its own questions and words. */
export interface OrderForm<S extends FormFlowState, A extends string> {
  /** The ask steps, in the order they are asked; every form has token, network and amount. */
  readonly order: readonly A[];
  /** Per step, the fields it fills (unfilled while the first is unset), then those that depend on it. */
  readonly fields: { readonly [K in A]: readonly (keyof S & string)[] };
  readonly assets: AssetStepIds;
  readonly texts: {
    /** A tap or message while the flow waits for an answer. */
    readonly pleaseWait: string;
    /** Words of a message nothing used, `{ $words }`. */
    readonly wordsIgnored: string;
    /** Nothing listed to choose from: the flow ends. */
    readonly noAssets: string;
  };
  /** The purpose of the quote fetched once every step is filled. */
  readonly purpose: string;
  /** The question of one of the flow's own steps, under the notes. */
  ask(session: Session, state: S, step: Exclude<A, AssetStep>, notes: Text[]): Effect;
  /** Why a typed answer to one of the flow's own steps was not understood. */
  notUnderstood(step: Exclude<A, AssetStep>, typed: string, state: S): Text;
  /** Checks the filled fields against each other, then asks the next step or quotes (`askNextOrQuote`). */
  advance(session: Session, state: S, notes: Text[], auto?: boolean): FlowStep;
  /** Fills the flow's own fields from a message's words (after token and network); true when a word was used. */
  fillWords(next: S, words: OrderWords, notes: Text[]): boolean;
  /** The quote request once every step is filled. */
  quoteRequest(state: S): QuoteRequest;
}

/** A form that ends in a summary with Confirm, asks an M-Pesa number, and re-quotes at Confirm. */
export interface ConfirmForm<S extends PhoneFormState, A extends string> extends OrderForm<S, A> {
  readonly texts: OrderForm<S, A>['texts'] & {
    /** Not a Kenyan mobile number, `{ $phone }`. */
    readonly phoneInvalid: string;
    /** A message at the summary that changed nothing. */
    readonly summaryNotUnderstood: string;
    /** The rate moved beyond tolerance at Confirm, `{ $token } { $before } { $after }`. */
    readonly rateMoved: string;
    /** Re-quoting at Confirm failed; Confirm may be tapped again. */
    readonly tryAgain: string;
  };
  /** The purpose of the re-quote at Confirm. */
  readonly reconfirmPurpose: string;
  /** The summary with its Confirm button. */
  summary(session: Session, state: S, notes: Text[]): Effect;
  /** Whether a quote is inside its limits for this order. */
  amountInLimits(state: S, quote: Quote): boolean;
  /** Why a quote is outside its limits. */
  amountOutOfLimits(session: Session, state: S, quote: Quote): Text;
  /** A typed answer the step reads before words (a wallet, a bare amount), or undefined. */
  readTyped?(session: Session, state: S, step: A, typed: string): FlowStep | undefined;
  /** The state a tap of one of the flow's own buttons (`<prefix>:<kind>:<value>`) makes, or undefined. */
  tapped?(session: Session, state: S, kind: string, value: string): S | undefined;
}

/** The flow at a new state, with effects. */
export const at = <S extends FlowState>(session: Session, state: S, effects: Effect[] = []): FlowStep => ({
  session: { ...session, flow: state },
  effects,
});

export const isAskStep = <A extends string>(form: { order: readonly A[] }, step: string): step is A =>
  (form.order as readonly string[]).includes(step);

const unset = (value: unknown): boolean => value === undefined || value === '';

/** A new form flow instance, loading what it chooses from; a one-line command's words wait for it. */
export function startForm(
  session: Session,
  ctx: FlowContext,
  how: FlowStart,
  name: FormFlowState['name'],
  load: Effect,
): FlowStep {
  const state = { name, id: makeFlowId(ctx), step: 'loading', args: how.args?.trim() || undefined };
  return at(session, state as FlowState, [load]);
}

/** The first step whose field is unset, or undefined when the form is filled. */
export function missingStep<S extends FormFlowState, A extends string>(
  form: OrderForm<S, A>,
  state: S,
): A | undefined {
  return form.order.find((step) => unset(state[form.fields[step][0]!]));
}

/** Clears a step's fields and the fields that depend on it. */
export function clearStep<S extends FormFlowState, A extends string>(
  form: OrderForm<S, A>,
  state: S,
  step: A,
): S {
  const next: Record<string, unknown> = { ...state };
  for (const field of form.fields[step]) next[field] = undefined;
  return next as S;
}

/** The question of any step: token and network from the listing, the others from the flow. */
export function question<S extends FormFlowState, A extends string>(
  form: OrderForm<S, A>,
  session: Session,
  state: S,
  step: A,
  notes: Text[],
): Effect {
  const tokens = state.assets ?? [];
  if (step === 'token') return askToken(form.assets, tokens, notes);
  if (step === 'network') return askNetwork(form.assets, tokens, state.token, notes);
  return form.ask(session, state, step as Exclude<A, AssetStep>, notes);
}

/** Stays at the state and asks a step (again), under the notes. */
export const askAgain = <S extends FormFlowState, A extends string>(
  form: OrderForm<S, A>,
  session: Session,
  state: S,
  step: A,
  notes: Text[],
): FlowStep => at(session, state, [question(form, session, state, step, notes)]);

export const pleaseWait = <S extends FormFlowState, A extends string>(
  form: OrderForm<S, A>,
  session: Session,
  state: S,
): FlowStep => at(session, state, [send([text(form.texts.pleaseWait)])]);

/** Asks the first unfilled step, or sends the notes and fetches the quote. */
export function askNextOrQuote<S extends FormFlowState, A extends string>(
  form: OrderForm<S, A>,
  session: Session,
  state: S,
  notes: Text[],
): FlowStep {
  const next = missingStep(form, state);
  if (next) return at(session, { ...state, step: next }, [question(form, session, state, next, notes)]);
  const effects: Effect[] = notes.length > 0 ? [send(notes)] : [];
  effects.push({ type: 'fetchQuote', request: form.quoteRequest(state), purpose: form.purpose });
  return at(session, { ...state, step: 'quoting' }, effects);
}

/** Reads a message's words: token and network, then the flow's own fields; notes the words left over. */
export function applyWords<S extends FormFlowState, A extends string>(
  form: OrderForm<S, A>,
  state: S,
  raw: string,
): Applied<S> {
  const words = parseOrderWords(raw, listedSymbols(state.assets ?? []));
  let next: S = { ...state };
  const notes: Text[] = [];
  let used = false;
  if (words.token) {
    used = true;
    next.token = words.token;
  }
  if (words.network) {
    used = true;
    if (words.network !== next.network) next = clearStep(form, next, 'network' as A);
    next.network = words.network;
  }
  if (form.fillWords(next, words, notes)) used = true;
  if (used && words.ignored.length > 0)
    notes.push(text(form.texts.wordsIgnored, { words: words.ignored.join(' ') }));
  return { state: next, notes, used };
}

/** Fills wallet and phone from a message's words; a number that is not Kenyan is noted with `phoneInvalid`. */
export function fillWalletAndPhone(
  next: { wallet?: string; phone?: string },
  words: OrderWords,
  notes: Text[],
  phoneInvalid: string,
): boolean {
  if (words.wallet) next.wallet = words.wallet;
  if (words.phone) next.phone = words.phone;
  if (words.badPhone) notes.push(text(phoneInvalid, { phone: words.badPhone }));
  return Boolean(words.wallet || words.phone || words.badPhone);
}

/** The listed assets arrived: read the one-line command's words, if any, then ask or quote. */
export function assetsLoaded<S extends FormFlowState, A extends string>(
  form: OrderForm<S, A>,
  session: Session,
  state: S,
  tokens: TokenInfo[],
): FlowStep {
  if (tokens.length === 0) return { session, effects: [], exit: [text(form.texts.noAssets)] };
  const loaded: S = { ...state, assets: tokens, args: undefined };
  if (!state.args) return form.advance(session, loaded, []);
  const applied = applyWords(form, loaded, state.args);
  if (!applied.used) applied.notes.push(text(form.texts.wordsIgnored, { words: state.args }));
  return form.advance(session, applied.state, applied.notes);
}

function notUnderstood<S extends FormFlowState, A extends string>(
  form: OrderForm<S, A>,
  state: S,
  step: A,
  typed: string,
): Text {
  if (step === 'token') return text(form.assets.tokenUnknown, { token: typed });
  if (step === 'network') return text(form.assets.networkUnknown, { network: typed });
  return form.notUnderstood(step as Exclude<A, AssetStep>, typed, state);
}

/** A typed answer read as words; when none was used, the step is asked again saying so. */
export function answerWords<S extends FormFlowState, A extends string>(
  form: OrderForm<S, A>,
  session: Session,
  state: S,
  step: A,
  typed: string,
  applied: Applied<S> = applyWords(form, state, typed),
): FlowStep {
  if (!applied.used)
    return askAgain(form, session, state, step, [notUnderstood(form, state, step, typed.trim())]);
  return form.advance(session, applied.state, applied.notes);
}

/** A typed or shared phone: the next step, or the phone question again (from the summary too). */
export function answerPhone<S extends PhoneFormState, A extends string>(
  form: ConfirmForm<S, A>,
  session: Session,
  state: S,
  typed: string,
): FlowStep {
  const phone = parsePhone(typed);
  if (phone) return form.advance(session, { ...state, phone }, []);
  const step = (state.step === 'summary' ? 'phone' : state.step) as A;
  const notes = [text(form.texts.phoneInvalid, { phone: typed })];
  return at(session, { ...state, step }, [question(form, session, state, step, notes)]);
}

/** A message at an ask step or the summary: a shared contact, a typed answer, or not understood. */
export function answerForm<S extends PhoneFormState, A extends string>(
  form: ConfirmForm<S, A>,
  session: Session,
  state: S,
  input: Input,
): FlowStep {
  const step = state.step;
  if (!isAskStep(form, step) && step !== 'summary') return pleaseWait(form, session, state);
  if (input.kind === 'contact') return answerPhone(form, session, state, input.phone);
  if (input.kind !== 'text') return at(session, state, [send([text('core-not-understood')])]);
  const typed = input.text;
  if (!isAskStep(form, step)) {
    const applied = applyWords(form, state, typed);
    if (applied.used) return form.advance(session, applied.state, applied.notes);
    return at(session, state, [form.summary(session, state, [text(form.texts.summaryNotUnderstood)])]);
  }
  // Digits at the phone step are a phone, never an amount.
  if (step === 'phone' && /^[\d\s+\-().]+$/.test(typed.trim()))
    return answerPhone(form, session, state, typed.trim());
  // A bare number answers the question asked: at the token, network or wallet step it is not read as
  // an amount (that would silently replace the one given), it is that step's "not understood".
  if (step !== 'amount' && /^\d[\d.,]*$/.test(typed.trim()))
    return askAgain(form, session, state, step, [notUnderstood(form, state, step, typed.trim())]);
  return form.readTyped?.(session, state, step, typed) ?? answerWords(form, session, state, step, typed);
}

/** The state a token or network tap makes (a new network drops what depends on it), or undefined. */
export function tappedAsset<S extends FormFlowState, A extends string>(
  form: OrderForm<S, A>,
  state: S,
  kind: string,
  value: string,
): S | undefined {
  if (kind === 'tok') {
    const token = tappedToken(state, value);
    return token ? { ...state, token } : undefined;
  }
  const network = kind === 'net' ? tappedNetwork(value) : undefined;
  if (!network) return undefined;
  const kept = network === state.network ? state : clearStep(form, state, 'network' as A);
  return { ...kept, network };
}

/** A tap at an ask step: token, network, the saved phone, or the flow's own; a stale one asks again. */
export function answerTap<S extends PhoneFormState, A extends string>(
  form: ConfirmForm<S, A>,
  session: Session,
  state: S,
  kind: string,
  value: string,
): FlowStep {
  const step = state.step;
  if (!isAskStep(form, step)) return pleaseWait(form, session, state);
  const saved = session.profile.phone;
  const next =
    tappedAsset(form, state, kind, value) ??
    (kind === 'phone' && saved ? { ...state, phone: saved } : undefined) ??
    form.tapped?.(session, state, kind, value);
  if (next) return form.advance(session, next, []);
  return askAgain(form, session, state, step, [text('core-button-stale')]);
}

/** One step back: the previous question with its field cleared; from the first one, the menu. */
export function stepBack<S extends FormFlowState, A extends string>(
  form: OrderForm<S, A>,
  session: Session,
  state: S,
): FlowStep {
  if (state.step === 'loading') return { session, effects: [], exit: [] };
  const index = form.order.indexOf(state.step as A);
  const current = index === -1 ? form.order.length : index;
  if (current === 0) return { session, effects: [], exit: [] };
  const previous = form.order[current - 1]!;
  const next: S = { ...clearStep(form, state, previous), quote: undefined, step: previous };
  return at(session, next, [question(form, session, next, previous, [])]);
}

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
