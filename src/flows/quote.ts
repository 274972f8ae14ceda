/** Quote: direction, token, network, amount; then the rate, the fee, what is paid and received, the limits. */
import { z } from 'zod';
import { NETWORK_INFO } from '../domain/networks.js';
import type { Network, QuoteRequest } from '../domain/types.js';
import { formatKes } from '../i18n/format.js';
import { findToken, listedSymbols, networksFor } from './assets.js';
import { failureTexts } from './failures.js';
import type { FlowDef, FlowStep } from './flow.js';
import {
  button,
  isEffectResult,
  makeFlowId,
  navRow,
  plainButton,
  rows,
  send,
  text,
  unhandled,
} from './flow.js';
import { menuButton } from './menu.js';
import { parseDirection, parseKesAmount, parseOrderWords, parseTokenAmount } from './parse.js';
import { kesValue, quoteTexts, withinLimits } from './quote-view.js';
import { directionSchema, networkSchema, quoteSchema, tokenInfoSchema } from './schemas.js';
import type { Session } from './session.js';
import type { Button, Effect, EffectResult, Input, Text } from './types.js';

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
});
export type QuoteState = z.infer<typeof quoteStateSchema>;

type AskStep = 'direction' | 'token' | 'network' | 'amount';
const ASK_ORDER: readonly AskStep[] = ['direction', 'token', 'network', 'amount'];

const at = (session: Session, state: QuoteState, effects: Effect[] = []): FlowStep => ({
  session: { ...session, flow: state },
  effects,
});
const displayNetwork = (n: Network): string => NETWORK_INFO[n].displayName;

function missing(state: QuoteState): AskStep | undefined {
  if (!state.direction) return 'direction';
  if (!state.token) return 'token';
  if (!state.network) return 'network';
  if (!state.amount) return 'amount';
  return undefined;
}

function prompt(session: Session, state: QuoteState, step: AskStep, notes: Text[]): Effect {
  const tokens = state.assets ?? [];
  switch (step) {
    case 'direction':
      return send([...notes, text('quote-ask-direction')], {
        buttons: [
          [button('q:dir:onramp', 'quote-button-buy'), button('q:dir:offramp', 'quote-button-sell')],
          navRow(false),
        ],
      });
    case 'token':
      return send([...notes, text('quote-ask-token')], {
        buttons: [...rows(listedSymbols(tokens).map((s) => plainButton(`q:tok:${s}`, s))), navRow()],
      });
    case 'network':
      return send([...notes, text('quote-ask-network', { token: state.token ?? '' })], {
        buttons: [
          ...rows(
            networksFor(tokens, state.token ?? '').map((n) => plainButton(`q:net:${n}`, displayNetwork(n))),
          ),
          navRow(),
        ],
      });
    case 'amount': {
      if (state.direction === 'offramp') {
        return send([...notes, text('quote-ask-amount-token', { token: state.token ?? '' })], {
          buttons: [navRow()],
        });
      }
      const quick = [500, 1000, 5000].map((n) => plainButton(`q:amt:${n}`, formatKes(session.locale, n)));
      return send([...notes, text('quote-ask-amount-kes')], { buttons: [...rows(quick), navRow()] });
    }
  }
}

function request(state: QuoteState): QuoteRequest {
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

function advance(session: Session, input: QuoteState, notes: Text[], auto = true): FlowStep {
  const state: QuoteState = { ...input, quote: undefined };
  const tokens = state.assets ?? [];
  const symbols = listedSymbols(tokens);
  if (state.token && !symbols.includes(state.token)) state.token = undefined;
  if (auto && !state.token && symbols.length === 1) state.token = symbols[0];
  if (state.token && state.network && !findToken(tokens, state.network, state.token)) {
    notes.push(
      text('quote-token-not-on-network', { token: state.token, network: displayNetwork(state.network) }),
    );
    state.network = undefined;
  }
  if (auto && state.token && !state.network) {
    const nets = networksFor(tokens, state.token);
    if (nets.length === 1) state.network = nets[0];
  }
  const next = missing(state);
  if (next) return at(session, { ...state, step: next }, [prompt(session, state, next, notes)]);
  const effects: Effect[] = notes.length > 0 ? [send(notes)] : [];
  effects.push({ type: 'fetchQuote', request: request(state), purpose: 'quote' });
  return at(session, { ...state, step: 'quoting' }, effects);
}

/** Reads an amount for the direction: whole KES to buy; tokens (or KES when marked) to sell. */
function readAmount(
  direction: QuoteState['direction'],
  typed: string,
  kes: boolean,
): { amount: string; amountIn: 'kes' | 'token' } | Text {
  if (direction === 'offramp' && !kes) {
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

function applyWords(state: QuoteState, raw: string): { state: QuoteState; notes: Text[]; used: boolean } {
  const words = parseOrderWords(raw, listedSymbols(state.assets ?? []));
  const next = { ...state };
  const notes: Text[] = [];
  let used = false;
  if (words.direction) {
    used = true;
    if (words.direction !== state.direction) next.amount = undefined;
    next.direction = words.direction;
  }
  if (words.token) {
    used = true;
    next.token = words.token;
  }
  if (words.network) {
    used = true;
    next.network = words.network;
  }
  if (words.amount) {
    used = true;
    const read = readAmount(next.direction ?? 'onramp', words.amount.text, words.amount.kes);
    if ('id' in read) notes.push(read);
    else Object.assign(next, read, { direction: next.direction ?? 'onramp' });
  }
  if (used && words.ignored.length > 0)
    notes.push(text('buy-words-ignored', { words: words.ignored.join(' ') }));
  return { state: next, notes, used };
}

function notUnderstood(step: AskStep, typed: string): Text {
  switch (step) {
    case 'direction':
      return text('quote-direction-unknown', { text: typed });
    case 'token':
      return text('buy-token-unknown', { token: typed });
    case 'network':
      return text('buy-network-unknown', { network: typed });
    case 'amount':
      return text('quote-amount-invalid', { amount: typed });
  }
}

function shown(session: Session, state: QuoteState): Effect {
  const quote = state.quote!;
  const texts: Text[] = [
    text('quote-title', { token: state.token!, network: displayNetwork(state.network!) }),
  ];
  texts.push(...quoteTexts(session.locale, quote, state.token!));
  if (quote.limits && !withinLimits(quote, kesValue(quote))) texts.push(text('quote-outside-limits'));
  texts.push(text('quote-indicative'));
  const buttons: Button[][] = [];
  if (quote.type === 'onramp' && withinLimits(quote, kesValue(quote))) {
    buttons.push([
      button(`menu:buy:${state.amount} ${state.token} ${state.network}`, 'quote-button-buy-this'),
    ]);
  }
  buttons.push([button('q:again', 'quote-button-again'), menuButton()]);
  return send(texts, { buttons });
}

function onResult(session: Session, state: QuoteState, input: EffectResult): FlowStep {
  if (input.kind === 'assets' && state.step === 'loading') {
    const assets = input.assets.tokens;
    if (assets.length === 0) return { session, effects: [], exit: [text('buy-no-assets')] };
    const loaded: QuoteState = { ...state, assets, args: undefined };
    if (!state.args) return advance(session, loaded, []);
    const applied = applyWords(loaded, state.args);
    if (!applied.used) applied.notes.push(text('buy-words-ignored', { words: state.args }));
    return advance(session, applied.state, applied.notes);
  }
  if (input.kind === 'quote' && input.purpose === 'quote' && state.step === 'quoting') {
    const next: QuoteState = { ...state, quote: input.quote, step: 'shown' };
    return at(session, next, [shown(session, next)]);
  }
  if (input.kind === 'effectFailed') {
    if (input.effect === 'fetchAssets' && state.step === 'loading') {
      return { session, effects: [], exit: failureTexts(input.error) };
    }
    if (input.effect === 'fetchQuote' && state.step === 'quoting') {
      const notes = failureTexts(input.error);
      if (input.error.kind !== 'validation') return { session, effects: [], exit: notes };
      if (input.error.supportedNetworks?.length)
        return advance(session, { ...state, network: undefined }, notes, false);
      return advance(session, { ...state, amount: undefined }, notes);
    }
  }
  return unhandled(session);
}

function onButton(session: Session, state: QuoteState, id: string): FlowStep {
  const [, kind, value = ''] = id.split(':');
  if (kind === 'again') {
    return advance(
      session,
      { ...state, direction: undefined, token: undefined, network: undefined, amount: undefined },
      [],
      false,
    );
  }
  if (state.step === 'loading' || state.step === 'quoting')
    return at(session, state, [send([text('buy-please-wait')])]);
  switch (kind) {
    case 'dir': {
      const direction = directionSchema.safeParse(value);
      if (direction.success) {
        const amount = direction.data === state.direction ? state.amount : undefined;
        return advance(session, { ...state, direction: direction.data, amount }, []);
      }
      break;
    }
    case 'tok':
      if (listedSymbols(state.assets ?? []).includes(value))
        return advance(session, { ...state, token: value }, []);
      break;
    case 'net': {
      const network = networkSchema.safeParse(value);
      if (network.success) return advance(session, { ...state, network: network.data }, []);
      break;
    }
    case 'amt': {
      const amount = parseKesAmount(value);
      if (amount.ok) return advance(session, { ...state, amount: String(amount.value), amountIn: 'kes' }, []);
      break;
    }
  }
  const step = missing(state) ?? 'amount';
  return at(session, state, [prompt(session, state, step, [text('core-button-stale')])]);
}

function handle(session: Session, state: QuoteState, input: Input): FlowStep {
  if (isEffectResult(input)) return onResult(session, state, input);
  if (input.kind === 'button') return onButton(session, state, input.id);
  if (state.step === 'loading' || state.step === 'quoting')
    return at(session, state, [send([text('buy-please-wait')])]);
  if (input.kind !== 'text') return at(session, state, [send([text('core-not-understood')])]);
  const step: AskStep = state.step === 'shown' ? 'amount' : state.step;
  if (step === 'direction') {
    const direction = parseDirection(input.text);
    if (direction) return advance(session, { ...state, direction }, []);
  }
  if (step === 'amount' && !/\s/.test(input.text.trim())) {
    const read = readAmount(state.direction, input.text.trim(), /kes|ksh|sh/i.test(input.text));
    if (!('id' in read)) return advance(session, { ...state, ...read }, []);
  }
  const applied = applyWords(state, input.text);
  if (!applied.used) {
    if (state.step === 'shown')
      return at(session, state, [shown(session, state), send([text('quote-shown-hint')])]);
    return at(session, state, [prompt(session, state, step, [notUnderstood(step, input.text.trim())])]);
  }
  return advance(session, applied.state, applied.notes);
}

export const quoteFlow: FlowDef<QuoteState> = {
  name: 'quote',
  prefix: 'q',
  commands: ['quote', 'bei', 'rate'],
  keywords: ['quote', 'bei', 'rate', 'price'],
  menu: { order: 30, label: text('core-menu-quote') },
  start(session, ctx, how) {
    const state: QuoteState = {
      name: 'quote',
      id: makeFlowId(ctx),
      step: 'loading',
      args: how.args?.trim() || undefined,
    };
    return at(session, state, [{ type: 'fetchAssets' }]);
  },
  handle,
  back(session, state) {
    if (state.step === 'loading') return { session, effects: [], exit: [] };
    const index = ASK_ORDER.indexOf(state.step as AskStep);
    if (index === 0) return { session, effects: [], exit: [] };
    const previous = index === -1 ? 'amount' : ASK_ORDER[index - 1]!;
    const cleared: QuoteState = { ...state, quote: undefined, step: previous };
    if (previous === 'direction') Object.assign(cleared, { direction: undefined, amount: undefined });
    if (previous === 'token') Object.assign(cleared, { token: undefined, network: undefined });
    if (previous === 'network') cleared.network = undefined;
    if (previous === 'amount') cleared.amount = undefined;
    return at(session, cleared, [prompt(session, cleared, previous, [])]);
  },
};
