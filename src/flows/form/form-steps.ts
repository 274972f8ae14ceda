/** Moving through a form (see ./form.ts): starting it, asking the first unfilled step, stepping back. */
import type { Text } from '../../chat/types.js';
import type { FlowStart, FlowStep } from '../flow.js';
import { at, makeFlowId, send, text } from '../flow.js';
import type { FlowState } from '../flow-state.js';
import type { Session } from '../session.js';
import type { Effect, FlowContext } from '../types.js';
import { askNetwork, askToken } from './asset-steps.js';
import type { AssetStep, FormFlowState, OrderForm } from './form-types.js';

export { at };

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
