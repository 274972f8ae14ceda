/** The shapes of the ordered ask-steps form (see ./form.ts): a flow's form description and its state. */
import type { Text } from '../../chat/types.js';
import type { Network, Quote, QuoteRequest, TokenInfo } from '../../domain/types.js';
import type { FlowStep } from '../flow.js';
import type { FlowState } from '../flow-state.js';
import type { OrderWords } from '../parse.js';
import type { Session } from '../session.js';
import type { Effect } from '../types.js';
import type { AssetStepIds } from './asset-steps.js';

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
export type FormFlowState = FlowState & FormState;
export type PhoneFormState = FormFlowState & { phone?: string };

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
  /**
   * Token symbols to recognise in typed words although not offered, so a known token the flow
   * cannot take is named as such ("MATIC is not a token you can sell here") instead of not understood.
   */
  readonly knownSymbols?: readonly string[];
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
