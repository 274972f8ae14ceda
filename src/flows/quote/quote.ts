/** Quote: direction, token, network, amount; then the rate, the fee, what is paid and received, the limits. */
import * as z from 'zod';
import type { Button, Text } from '../../chat/types.js';
import type { QuoteRequest } from '../../domain/types.js';
import { formatKesButton } from '../../i18n/format.js';
import { failureTexts } from '../failures.js';
import type { FlowDef, FlowStep } from '../flow.js';
import { button, isEffectResult, navRow, plainButton, rows, send, text, unhandled } from '../flow.js';
import { displayNetwork, settleAsset } from '../form/asset-steps.js';
import {
  type AssetStep,
  answerWords,
  applyWords,
  askAgain,
  askNextOrQuote,
  assetsLoaded,
  at,
  missingStep,
  type OrderForm,
  pleaseWait,
  quoteFailed,
  startForm,
  stepBack,
  tappedAsset,
} from '../form/form.js';
import { menuButton } from '../menu/menu.js';
import { type OrderWords, parseDirection, parseKesAmount, parseTokenAmount } from '../parse.js';
import { directionSchema, networkSchema, quoteSchema, tokenInfoSchema } from '../schemas.js';
import type { Session } from '../session.js';
import type { Effect, EffectResult, Input } from '../types.js';
import { kesValue, quoteTexts, withinLimits } from './quote-view.js';

export const QUOTE_STEPS = [
  'loading',
  'direction',
  'token',
  'network',
  'amount',
  'quoting',
  'shown',
] as const;

export const quoteStateSchema = z.object({
  name: z.literal('quote'),
  id: z.string().min(1),
  step: z.enum(QUOTE_STEPS),
  direction: directionSchema.optional(),
  token: z.string().optional(),
  network: networkSchema.optional(),
  /** Decimal text: whole KES when `amountIn` is "kes", tokens otherwise. */
  amount: z.string().optional(),
  amountIn: z.enum(['kes', 'token']).optional(),
  assets: z.array(tokenInfoSchema).optional(),
  quote: quoteSchema.optional(),
  args: z.string().optional(),
  /** What the sell path can take (its `sellOptions`), asked before the first sell quote is shown; [] without selling. */
  sellable: z.array(tokenInfoSchema).optional(),
});
export type QuoteState = z.infer<typeof quoteStateSchema>;

type AskStep = 'direction' | 'token' | 'network' | 'amount';

const quoteForm: OrderForm<QuoteState, AskStep> = {
  order: ['direction', 'token', 'network', 'amount'],
  fields: {
    direction: ['direction', 'amount'],
    token: ['token', 'network'],
    network: ['network'],
    amount: ['amount'],
  },
  assets: {
    prefix: 'q',
    tokenBack: true,
    askToken: 'quote-ask-token',
    askNetwork: 'quote-ask-network',
    tokenUnknown: 'buy-token-unknown',
    networkUnknown: 'buy-network-unknown',
    notOnNetwork: 'quote-token-not-on-network',
  },
  texts: { pleaseWait: 'buy-please-wait', wordsIgnored: 'buy-words-ignored', noAssets: 'buy-no-assets' },
  purpose: 'quote',
  ask,
  notUnderstood: (step, typed) =>
    step === 'direction'
      ? text('quote-direction-unknown', { text: typed })
      : text('quote-amount-invalid', { amount: typed }),
  advance: (session, input, notes, auto = true) =>
    askNextOrQuote(
      quoteForm,
      session,
      settleAsset({ ...input, quote: undefined }, quoteForm.assets, notes, auto),
      notes,
    ),
  fillWords,
  quoteRequest,
};

function ask(session: Session, state: QuoteState, step: Exclude<AskStep, AssetStep>, notes: Text[]): Effect {
  if (step === 'direction') {
    return send([...notes, text('quote-ask-direction')], {
      buttons: [
        [button('q:dir:onramp', 'quote-button-buy'), button('q:dir:offramp', 'quote-button-sell')],
        navRow(false),
      ],
    });
  }
  const quick = [500, 1000, 5000].map((n) => plainButton(`q:amt:${n}`, formatKesButton(session.locale, n)));
  if (state.direction === 'offramp') {
    return send([...notes, text('quote-ask-amount-token', { token: state.token ?? '' })], {
      buttons: [...rows(quick), navRow()],
    });
  }
  return send([...notes, text('quote-ask-amount-kes')], { buttons: [...rows(quick), navRow()] });
}

function quoteRequest(state: QuoteState): QuoteRequest {
  const base = {
    type: state.direction!,
    network: state.network!,
    token: state.token!,
    fiatCurrency: 'KES' as const,
  };
  if (state.direction === 'offramp' && state.amountIn === 'kes')
    return { ...base, fiatAmount: state.amount! };
  return { ...base, amount: state.amount! };
}

/**
 * Reads an amount as Buy and Sell do: a bare number is whole KES (to spend, or to receive); tokens
 * only when a token symbol came with it ("10 USDT") when selling.
 */
function readAmount(
  direction: QuoteState['direction'],
  typed: string,
  kes: boolean,
  withToken = false,
): { amount: string; amountIn: 'kes' | 'token' } | Text {
  if (direction === 'offramp' && withToken && !kes) {
    const amount = parseTokenAmount(typed);
    return amount.ok
      ? { amount: amount.value, amountIn: 'token' }
      : text('quote-amount-invalid', { amount: typed });
  }
  const amount = parseKesAmount(typed);
  if (amount.ok) return { amount: String(amount.value), amountIn: 'kes' };
  return amount.problem === 'not-whole'
    ? text('buy-amount-not-whole', { amount: typed })
    : text('quote-amount-invalid', { amount: typed });
}

function fillWords(next: QuoteState, words: OrderWords, notes: Text[]): boolean {
  if (words.direction) {
    if (words.direction !== next.direction) next.amount = undefined;
    next.direction = words.direction;
  }
  if (words.amount) {
    const read = readAmount(
      next.direction ?? 'onramp',
      words.amount.text,
      words.amount.kes,
      words.token !== undefined,
    );
    if ('id' in read) notes.push(read);
    else Object.assign(next, read, { direction: next.direction ?? 'onramp' });
  }
  return Boolean(words.direction || words.amount);
}

function shown(session: Session, state: QuoteState): Effect {
  const quote = state.quote!;
  const texts: Text[] = [
    text('quote-title', { token: state.token!, network: displayNetwork(state.network!) }),
  ];
  texts.push(...quoteTexts(session.locale, quote, state.token!));
  const inLimits = withinLimits(quote, kesValue(quote));
  if (quote.limits && !inLimits) texts.push(text('quote-outside-limits'));
  const sellable = state.sellable?.some(
    (t) => t.network === state.network && t.symbol.toUpperCase() === state.token?.toUpperCase(),
  );
  if (quote.type === 'offramp' && !sellable) texts.push(text('quote-not-sellable', { token: state.token! }));
  texts.push(text('quote-indicative'));
  const buttons: Button[][] = [];
  if (quote.type === 'onramp' && inLimits) {
    buttons.push([
      button(`menu:buy:${state.amount} ${state.token} ${state.network}`, 'quote-button-buy-this'),
    ]);
  }
  if (quote.type === 'offramp' && sellable && inLimits) {
    // The sell form reads "<n> KES" as shillings to receive and "<n> <token>" as tokens to send.
    const amount = state.amountIn === 'token' ? state.amount : `${state.amount} KES`;
    buttons.push([button(`menu:sell:${amount} ${state.token} ${state.network}`, 'quote-button-sell-this')]);
  }
  // "Alert me": a rate alert on this token and network (src/alerts), below for buyers, above for sellers.
  const side = quote.type === 'onramp' ? 'below' : 'above';
  // "Chart": the token's rates over 24 hours on this network (src/charts).
  buttons.push([
    button(`al:new:${side}:${state.token}:${state.network}`, 'alerts-button-alert-me'),
    button(`ch:show:${state.token}:${state.network}:24h`, 'charts-button-chart'),
  ]);
  buttons.push([button('q:again', 'quote-button-again'), menuButton()]);
  return send(texts, { buttons });
}

/** Selling is not wired (no handler) or its options could not be had: nothing is offered to sell. */
const isSellOptionsFailure = (input: EffectResult): boolean =>
  input.kind === 'effectFailed' && input.effect === 'sellOptions';

function onResult(session: Session, state: QuoteState, input: EffectResult): FlowStep {
  if (input.kind === 'assets' && state.step === 'loading')
    return assetsLoaded(quoteForm, session, state, input.assets.tokens);
  if (input.kind === 'quote' && input.purpose === 'quote' && state.step === 'quoting') {
    const next: QuoteState = { ...state, quote: input.quote, step: 'shown' };
    // A sell quote offers "Sell this" only for what the sell path can take: asked once, first.
    if (input.quote.type === 'offramp' && !state.sellable)
      return at(session, { ...state, quote: input.quote }, [{ type: 'sellOptions' }]);
    return at(session, next, [shown(session, next)]);
  }
  if (
    (input.kind === 'sellOptions' || isSellOptionsFailure(input)) &&
    state.step === 'quoting' &&
    state.quote
  ) {
    const sellable = input.kind === 'sellOptions' ? input.tokens : [];
    const next: QuoteState = { ...state, sellable, step: 'shown' };
    return at(session, next, [shown(session, next)]);
  }
  if (input.kind === 'effectFailed') {
    if (input.effect === 'fetchAssets' && state.step === 'loading') {
      return { session, effects: [], exit: failureTexts(input.error) };
    }
    if (input.effect === 'fetchQuote' && state.step === 'quoting')
      return quoteFailed(quoteForm, session, state, input.error);
  }
  return unhandled(session);
}

function onButton(session: Session, state: QuoteState, id: string): FlowStep {
  const [, kind = '', value = ''] = id.split(':');
  if (kind === 'again') {
    return quoteForm.advance(
      session,
      { ...state, direction: undefined, token: undefined, network: undefined, amount: undefined },
      [],
      false,
    );
  }
  if (state.step === 'loading' || state.step === 'quoting') return pleaseWait(quoteForm, session, state);
  const next = tappedAsset(quoteForm, state, kind, value) ?? tappedOwn(state, kind, value);
  if (next) return quoteForm.advance(session, next, []);
  const step = missingStep(quoteForm, state) ?? 'amount';
  return askAgain(quoteForm, session, state, step, [text('core-button-stale')]);
}

/** The state a direction or quick-amount tap makes, or undefined for a stale one. */
function tappedOwn(state: QuoteState, kind: string, value: string): QuoteState | undefined {
  if (kind === 'dir') {
    const direction = directionSchema.safeParse(value).data;
    if (!direction) return undefined;
    return { ...state, direction, amount: direction === state.direction ? state.amount : undefined };
  }
  const amount = kind === 'amt' ? parseKesAmount(value) : undefined;
  return amount?.ok ? { ...state, amount: String(amount.value), amountIn: 'kes' } : undefined;
}

function handle(session: Session, state: QuoteState, input: Input): FlowStep {
  if (isEffectResult(input)) return onResult(session, state, input);
  if (input.kind === 'button') return onButton(session, state, input.id);
  if (state.step === 'loading' || state.step === 'quoting') return pleaseWait(quoteForm, session, state);
  if (input.kind !== 'text') return at(session, state, [send([text('core-not-understood')])]);
  const step: AskStep = state.step === 'shown' ? 'amount' : state.step;
  if (step === 'direction') {
    const direction = parseDirection(input.text);
    if (direction) return quoteForm.advance(session, { ...state, direction }, []);
  }
  if (step === 'amount' && !/\s/.test(input.text.trim())) {
    const read = readAmount(state.direction, input.text.trim(), /kes|ksh|sh/i.test(input.text));
    if (!('id' in read)) return quoteForm.advance(session, { ...state, ...read }, []);
  }
  const applied = applyWords(quoteForm, state, input.text);
  if (!applied.used && state.step === 'shown')
    return at(session, state, [shown(session, state), send([text('quote-shown-hint')])]);
  return answerWords(quoteForm, session, state, step, input.text, applied);
}

export const quoteFlow: FlowDef<QuoteState> = {
  name: 'quote',
  prefix: 'q',
  commands: ['quote', 'bei', 'rate'],
  keywords: ['quote', 'bei', 'rate', 'price'],
  menu: { order: 30, label: text('core-menu-quote') },
  start: (session, ctx, how) => startForm(session, ctx, how, 'quote', { type: 'fetchAssets' }),
  handle,
  back: (session, state) => stepBack(quoteForm, session, state),
};
