/** Reading answers to a form (see ./form.ts): typed words, shared contacts, taps, the loaded listing. */
import type { Text } from '../../chat/types.js';
import type { TokenInfo } from '../../domain/types.js';
import type { FlowStep } from '../flow.js';
import { send, text } from '../flow.js';
import { type OrderWords, parseOrderWords, parsePhone } from '../parse.js';
import type { Session } from '../session.js';
import type { Input } from '../types.js';
import { tappedNetwork, tappedToken } from './asset-steps.js';
import { listedSymbols } from './assets.js';
import { askAgain, at, clearStep, isAskStep, pleaseWait, question } from './form-steps.js';
import type {
  Applied,
  AssetStep,
  ConfirmForm,
  FormFlowState,
  OrderForm,
  PhoneFormState,
} from './form-types.js';

/** Reads a message's words: token and network, then the flow's own fields; notes the words left over. */
export function applyWords<S extends FormFlowState, A extends string>(
  form: OrderForm<S, A>,
  state: S,
  raw: string,
): Applied<S> {
  const words = parseOrderWords(raw, [...listedSymbols(state.assets ?? []), ...(form.knownSymbols ?? [])]);
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
