/**
 * Buy (on-ramp): amount in KES, token, network, wallet, payer phone, a quote summary, Confirm.
 * Confirm re-quotes; the order is created once per flow instance (`buy:<flowId>:confirm`), after
 * which further confirms are only answered.
 */
import { z } from 'zod';
import { NETWORK_INFO } from '../domain/networks.js';
import type { Network, Quote, TokenInfo } from '../domain/types.js';
import { formatKes } from '../i18n/format.js';
import { findToken, listedSymbols, networksFor } from './assets.js';
import { failureTexts, mayHaveReachedService } from './failures.js';
import type { FlowDef, FlowStep } from './flow.js';
import {
  button,
  displayPhone,
  isEffectResult,
  makeFlowId,
  NO_WORDS,
  navRow,
  plainButton,
  rows,
  send,
  shortAddress,
  text,
  unhandled,
  word,
  YES_WORDS,
} from './flow.js';
import { menuButton } from './menu.js';
import { parseKesAmount, parseOrderWords, parsePhone, parseWallet } from './parse.js';
import { quoteTexts, rateMovePct, withinLimits } from './quote-view.js';
import { limitsSchema, networkSchema, quoteSchema, tokenInfoSchema } from './schemas.js';
import type { Session } from './session.js';
import type { Button, Effect, EffectResult, FlowContext, Input, Text } from './types.js';

export const BUY_STEPS = [
  'loading',
  'amount',
  'token',
  'network',
  'wallet',
  'phone',
  'quoting',
  'summary',
  'reconfirming',
  'submitting',
  'awaiting',
] as const;

export const buyStateSchema = z.object({
  name: z.literal('buy'),
  id: z.string().min(1),
  step: z.enum(BUY_STEPS),
  amountKes: z.number().int().positive().optional(),
  token: z.string().optional(),
  network: networkSchema.optional(),
  /** Canonical once the network is known; raw text from a one-line command before that. */
  wallet: z.string().optional(),
  phone: z
    .string()
    .regex(/^254[17]\d{8}$/)
    .optional(),
  /** Listed assets, fetched once per flow. */
  assets: z.array(tokenInfoSchema).optional(),
  quote: quoteSchema.optional(),
  /** The last limits the ramp quoted, shown when asking the amount again. */
  limits: limitsSchema.optional(),
  /** One-line command text waiting for the assets. */
  args: z.string().optional(),
  orderId: z.string().optional(),
});
export type BuyState = z.infer<typeof buyStateSchema>;

type AskStep = 'amount' | 'token' | 'network' | 'wallet' | 'phone';
const ASK_ORDER: readonly AskStep[] = ['amount', 'token', 'network', 'wallet', 'phone'];
const QUICK_AMOUNTS = [500, 1000, 2000];

/** The idempotency key of the one order a buy flow instance may create. */
export const buyOrderKey = (flowId: string): string => `buy:${flowId}:confirm`;
export const buyConfirmButtonId = (flowId: string): string => `buy:confirm:${flowId}`;

const at = (session: Session, state: BuyState, effects: Effect[] = []): FlowStep => ({
  session: { ...session, flow: state },
  effects,
});

const displayNetwork = (n: Network): string => NETWORK_INFO[n].displayName;

function missing(state: BuyState): AskStep | undefined {
  if (state.amountKes === undefined) return 'amount';
  if (!state.token) return 'token';
  if (!state.network) return 'network';
  if (!state.wallet) return 'wallet';
  if (!state.phone) return 'phone';
  return undefined;
}

function prompt(session: Session, state: BuyState, step: AskStep, notes: Text[]): Effect {
  const { locale, profile } = session;
  const tokens = state.assets ?? [];
  switch (step) {
    case 'amount': {
      const texts = [...notes, text('buy-ask-amount')];
      if (state.limits) {
        texts.push(
          text('buy-amount-range', {
            min: formatKes(locale, state.limits.min),
            max: formatKes(locale, state.limits.max),
          }),
        );
      }
      const quick = QUICK_AMOUNTS.filter(
        (n) => !state.limits || (n >= state.limits.min && n <= state.limits.max),
      ).map((n) => plainButton(`buy:amt:${n}`, formatKes(locale, n)));
      return send(texts, { buttons: [...rows(quick), navRow(false)] });
    }
    case 'token': {
      const symbols = listedSymbols(tokens).map((s) => plainButton(`buy:tok:${s}`, s));
      return send([...notes, text('buy-ask-token')], { buttons: [...rows(symbols), navRow()] });
    }
    case 'network': {
      const nets = networksFor(tokens, state.token ?? '').map((n) =>
        plainButton(`buy:net:${n}`, displayNetwork(n)),
      );
      return send([...notes, text('buy-ask-network', { token: state.token ?? '' })], {
        buttons: [...rows(nets), navRow()],
      });
    }
    case 'wallet': {
      const network = state.network!;
      const saved = profile.wallets[network];
      const buttons: Button[][] = saved
        ? [[button('buy:wallet:saved', 'buy-button-saved-wallet', { address: shortAddress(saved) })]]
        : [];
      return send([...notes, text('buy-ask-wallet', { network: displayNetwork(network) })], {
        buttons: [...buttons, navRow()],
      });
    }
    case 'phone': {
      const saved = profile.phone;
      const buttons: Button[][] = saved
        ? [[button('buy:phone:saved', 'buy-button-saved-phone', { phone: displayPhone(saved) })]]
        : [];
      return send([...notes, text('buy-ask-phone')], { buttons: [...buttons, navRow()], requestPhone: true });
    }
  }
}

function summary(session: Session, state: BuyState, notes: Text[]): Effect {
  const quote = state.quote!;
  return send(
    [
      ...notes,
      text('buy-summary-title'),
      ...quoteTexts(session.locale, quote, state.token!),
      text('buy-summary-details', {
        wallet: state.wallet!,
        network: displayNetwork(state.network!),
        phone: displayPhone(state.phone!),
      }),
      text('buy-summary-confirm'),
    ],
    { buttons: [[button(buyConfirmButtonId(state.id), 'buy-button-confirm')], navRow()] },
  );
}

/** Checks the filled fields against each other, then asks the first missing one or fetches the quote. */
function advance(session: Session, input: BuyState, notes: Text[], auto = true): FlowStep {
  const state: BuyState = { ...input, quote: undefined };
  const tokens = state.assets ?? [];
  const symbols = listedSymbols(tokens);
  if (state.token && !symbols.includes(state.token)) state.token = undefined;
  if (auto && !state.token && symbols.length === 1) state.token = symbols[0];
  if (state.token && state.network && !findToken(tokens, state.network, state.token)) {
    notes.push(
      text('buy-token-not-on-network', { token: state.token, network: displayNetwork(state.network) }),
    );
    state.network = undefined;
  }
  if (auto && state.token && !state.network) {
    const nets = networksFor(tokens, state.token);
    if (nets.length === 1) state.network = nets[0];
  }
  if (state.network && state.wallet) {
    const wallet = parseWallet(state.network, state.wallet);
    if (wallet.ok) state.wallet = wallet.value;
    else {
      notes.push(walletProblemText(wallet.problem, state.network, state.wallet));
      state.wallet = undefined;
    }
  }
  const next = missing(state);
  if (next) return at(session, { ...state, step: next }, [prompt(session, state, next, notes)]);
  const request = {
    type: 'onramp' as const,
    network: state.network!,
    token: state.token!,
    fiatCurrency: 'KES' as const,
    amount: String(state.amountKes),
  };
  const effects: Effect[] = notes.length > 0 ? [send(notes)] : [];
  effects.push({ type: 'fetchQuote', request, purpose: 'buy' });
  return at(session, { ...state, step: 'quoting' }, effects);
}

function walletProblemText(problem: 'checksum' | 'format', network: Network, address: string): Text {
  return problem === 'checksum'
    ? text('buy-wallet-bad-checksum', { address, network: displayNetwork(network) })
    : text('buy-wallet-wrong-format', { address, network: displayNetwork(network) });
}

function amountProblemText(problem: string, typed: string): Text {
  if (problem === 'not-whole') return text('buy-amount-not-whole', { amount: typed });
  return text('buy-amount-invalid', { amount: typed });
}

/** Applies what a message held; returns the new state, notes, and whether anything was recognised. */
function applyWords(state: BuyState, raw: string): { state: BuyState; notes: Text[]; used: boolean } {
  const words = parseOrderWords(raw, listedSymbols(state.assets ?? []));
  const next = { ...state };
  const notes: Text[] = [];
  let used = false;
  if (words.amount) {
    used = true;
    const amount = parseKesAmount(words.amount.text);
    if (amount.ok) next.amountKes = amount.value;
    else notes.push(amountProblemText(amount.problem, words.amount.text));
  }
  if (words.token) {
    used = true;
    next.token = words.token;
  }
  if (words.network) {
    used = true;
    if (words.network !== state.network && !words.wallet) next.wallet = undefined;
    next.network = words.network;
  }
  if (words.wallet) {
    used = true;
    next.wallet = words.wallet;
  }
  if (words.phone) {
    used = true;
    next.phone = words.phone;
  }
  if (words.badPhone) {
    used = true;
    notes.push(text('buy-phone-invalid', { phone: words.badPhone }));
  }
  if (used && words.ignored.length > 0)
    notes.push(text('buy-words-ignored', { words: words.ignored.join(' ') }));
  return { state: next, notes, used };
}

function notUnderstood(step: AskStep, typed: string, network?: Network): Text {
  switch (step) {
    case 'amount':
      return text('buy-amount-invalid', { amount: typed });
    case 'token':
      return text('buy-token-unknown', { token: typed });
    case 'network':
      return text('buy-network-unknown', { network: typed });
    case 'wallet':
      return text('buy-wallet-wrong-format', {
        address: typed,
        network: network ? displayNetwork(network) : '',
      });
    case 'phone':
      return text('buy-phone-invalid', { phone: typed });
  }
}

function onText(session: Session, state: BuyState, typed: string): FlowStep {
  const step = state.step as AskStep;
  // Digits at the phone step are a phone, never an amount; one word at the wallet step is an address.
  if (step === 'phone' && /^[\d\s+\-().]+$/.test(typed.trim())) {
    const phone = parsePhone(typed);
    if (!phone)
      return at(session, state, [
        prompt(session, state, 'phone', [text('buy-phone-invalid', { phone: typed.trim() })]),
      ]);
    return advance(session, { ...state, phone }, []);
  }
  if (step === 'wallet' && state.network && !/\s/.test(typed.trim())) {
    const wallet = parseWallet(state.network, typed);
    if (wallet.ok) return advance(session, { ...state, wallet: wallet.value }, []);
    const words = parseOrderWords(typed, listedSymbols(state.assets ?? []));
    if (!words.network && !words.token) {
      return at(session, state, [
        prompt(session, state, 'wallet', [walletProblemText(wallet.problem, state.network, typed.trim())]),
      ]);
    }
  }
  const applied = applyWords(state, typed);
  if (!applied.used) {
    return at(session, state, [
      prompt(session, state, step, [notUnderstood(step, typed.trim(), state.network)]),
    ]);
  }
  return advance(session, applied.state, applied.notes);
}

function onButton(session: Session, state: BuyState, id: string, ctx: FlowContext): FlowStep {
  const [, kind, value = ''] = id.split(':');
  if (kind === 'confirm') return confirm(session, state, value, ctx);
  if (state.step === 'submitting' || state.step === 'awaiting') return awaitingReply(session, state);
  if (!(ASK_ORDER as readonly string[]).includes(state.step)) return pleaseWait(session, state);
  const step = state.step as AskStep;
  switch (kind) {
    case 'amt': {
      const amount = parseKesAmount(value);
      if (amount.ok) return advance(session, { ...state, amountKes: amount.value }, []);
      break;
    }
    case 'tok':
      if (listedSymbols(state.assets ?? []).includes(value))
        return advance(session, { ...state, token: value }, []);
      break;
    case 'net': {
      const network = networkSchema.safeParse(value);
      if (network.success) {
        const wallet = network.data === state.network ? state.wallet : undefined;
        return advance(session, { ...state, network: network.data, wallet }, []);
      }
      break;
    }
    case 'wallet': {
      const saved = state.network ? session.profile.wallets[state.network] : undefined;
      if (saved) return advance(session, { ...state, wallet: saved }, []);
      break;
    }
    case 'phone':
      if (session.profile.phone) return advance(session, { ...state, phone: session.profile.phone }, []);
      break;
  }
  return at(session, state, [prompt(session, state, step, [text('core-button-stale')])]);
}

const pleaseWait = (session: Session, state: BuyState): FlowStep =>
  at(session, state, [send([text('buy-please-wait')])]);

const awaitingReply = (session: Session, state: BuyState): FlowStep =>
  at(session, state, [
    send([state.orderId ? text('buy-awaiting', { orderId: state.orderId }) : text('buy-please-wait')], {
      buttons: [[menuButton()]],
    }),
  ]);

function confirm(session: Session, state: BuyState, flowId: string | undefined, _ctx: FlowContext): FlowStep {
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
  if (state.step === 'reconfirming' || state.step === 'quoting' || state.step === 'loading') {
    return pleaseWait(session, state);
  }
  if (state.step !== 'summary' || !state.quote) {
    const step = (ASK_ORDER as readonly string[]).includes(state.step) ? (state.step as AskStep) : 'amount';
    return at(session, state, [prompt(session, state, step, [text('core-button-stale')])]);
  }
  if (flowId !== undefined && flowId !== state.id) {
    return at(session, state, [summary(session, state, [text('core-button-stale')])]);
  }
  if (!withinLimits(state.quote, state.amountKes!)) return refuseAmount(session, state, state.quote);
  return at(session, { ...state, step: 'reconfirming' }, [
    {
      type: 'fetchQuote',
      request: {
        type: 'onramp',
        network: state.network!,
        token: state.token!,
        fiatCurrency: 'KES',
        amount: String(state.amountKes),
      },
      purpose: 'reconfirm',
    },
  ]);
}

function refuseAmount(session: Session, state: BuyState, quote: Quote): FlowStep {
  const limits = quote.limits!;
  const amount = formatKes(session.locale, state.amountKes!);
  const note =
    state.amountKes! < limits.min
      ? text('buy-amount-below-min', { amount, min: formatKes(session.locale, limits.min) })
      : text('buy-amount-above-max', { amount, max: formatKes(session.locale, limits.max) });
  const next: BuyState = { ...state, amountKes: undefined, quote: undefined, limits, step: 'amount' };
  return at(session, next, [prompt(session, next, 'amount', [note])]);
}

function onQuote(session: Session, state: BuyState, quote: Quote, ctx: FlowContext): FlowStep {
  const limits = quote.limits ?? state.limits;
  if (state.step === 'quoting') {
    if (!withinLimits(quote, state.amountKes!)) return refuseAmount(session, state, quote);
    const next: BuyState = { ...state, quote, limits, step: 'summary' };
    return at(session, next, [summary(session, next, [])]);
  }
  // Reconfirming: the price the user accepted against the price now.
  if (!withinLimits(quote, state.amountKes!)) return refuseAmount(session, state, quote);
  const before = state.quote!;
  if (rateMovePct(before, quote) > ctx.config.rateTolerancePct) {
    const next: BuyState = { ...state, quote, limits, step: 'summary' };
    const note = text('buy-rate-moved', {
      before: formatKes(session.locale, before.exchangeRate),
      after: formatKes(session.locale, quote.exchangeRate),
      token: state.token!,
    });
    return at(session, next, [summary(session, next, [note])]);
  }
  const token = findToken(state.assets ?? [], state.network!, state.token!);
  if (!token)
    return {
      session: { ...session, flow: { name: 'menu' } },
      effects: [],
      exit: [text('core-error-unavailable')],
    };
  return createOrder(session, { ...state, quote, limits }, token, ctx);
}

function createOrder(session: Session, state: BuyState, token: TokenInfo, ctx: FlowContext): FlowStep {
  const network = state.network!;
  const wallet = state.wallet!;
  const phone = state.phone!;
  const order: Effect = {
    type: 'createOnrampOrder',
    request: { phone, amountKes: state.amountKes!, userAddress: wallet, tokenAddress: token.address },
    idempotencyKey: buyOrderKey(state.id),
    track: {
      side: 'onramp',
      user: ctx.user,
      network,
      walletAddress: wallet,
      token: { symbol: token.symbol, address: token.address, decimals: token.decimals },
      amountKes: state.amountKes!,
      tokenAmount: state.quote!.outputAmount,
      phone,
    },
  };
  const profile = { ...session.profile, phone, wallets: { ...session.profile.wallets, [network]: wallet } };
  return { session: { ...session, profile, flow: { ...state, step: 'submitting' } }, effects: [order] };
}

function stkSent(state: BuyState | undefined, orderId: string): Effect {
  const texts: Text[] = state?.phone
    ? [text('buy-stk-sent', { orderId, phone: displayPhone(state.phone) })]
    : [text('buy-stk-sent-short', { orderId })];
  texts.push(text('buy-never-pin'));
  return send(texts, { buttons: [[menuButton()]] });
}

function orderFailedTexts(error: Extract<EffectResult, { kind: 'effectFailed' }>['error']): Text[] {
  if (error.kind === 'validation' || error.kind === 'duplicate' || error.kind === 'not_found') {
    return [text('buy-order-refused'), ...failureTexts(error)];
  }
  return mayHaveReachedService(error)
    ? [text('buy-order-uncertain')]
    : [text('buy-order-failed'), ...failureTexts(error)];
}

function onResult(session: Session, state: BuyState, input: EffectResult, ctx: FlowContext): FlowStep {
  switch (input.kind) {
    case 'assets': {
      if (state.step !== 'loading') return unhandled(session);
      const assets = input.assets.tokens;
      if (assets.length === 0) {
        return { session, effects: [], exit: [text('buy-no-assets')] };
      }
      const loaded: BuyState = { ...state, assets, args: undefined };
      if (!state.args) return advance(session, loaded, []);
      const applied = applyWords(loaded, state.args);
      if (!applied.used) applied.notes.push(text('buy-words-ignored', { words: state.args }));
      return advance(session, applied.state, applied.notes);
    }
    case 'quote':
      if (input.purpose === 'buy' && state.step === 'quoting')
        return onQuote(session, state, input.quote, ctx);
      if (input.purpose === 'reconfirm' && state.step === 'reconfirming') {
        return onQuote(session, state, input.quote, ctx);
      }
      return unhandled(session);
    case 'onrampCreated': {
      if (state.step !== 'submitting' || input.idempotencyKey !== buyOrderKey(state.id))
        return unhandled(session);
      const next: BuyState = { ...state, step: 'awaiting', orderId: input.orderId };
      return at(session, next, [stkSent(next, input.orderId)]);
    }
    case 'effectFailed':
      return onFailure(session, state, input);
    default:
      return unhandled(session);
  }
}

function onFailure(
  session: Session,
  state: BuyState,
  input: Extract<EffectResult, { kind: 'effectFailed' }>,
): FlowStep {
  const { effect, error } = input;
  if (effect === 'fetchAssets' && state.step === 'loading') {
    return { session, effects: [], exit: failureTexts(error) };
  }
  if (effect === 'fetchQuote' && (state.step === 'quoting' || state.step === 'reconfirming')) {
    if (error.kind === 'validation') {
      const notes = failureTexts(error);
      if (error.supportedNetworks?.length) {
        return advance(session, { ...state, network: undefined, wallet: undefined }, notes, false);
      }
      return advance(session, { ...state, amountKes: undefined }, notes);
    }
    if (state.step === 'reconfirming') {
      const next: BuyState = { ...state, step: 'summary' };
      return at(session, next, [summary(session, next, [...failureTexts(error), text('buy-try-again')])]);
    }
    return { session, effects: [], exit: failureTexts(error) };
  }
  if (effect === 'createOnrampOrder' && state.step === 'submitting') {
    return { session, effects: [], exit: orderFailedTexts(error) };
  }
  return unhandled(session);
}

function handle(session: Session, state: BuyState, input: Input, ctx: FlowContext): FlowStep {
  if (isEffectResult(input)) return onResult(session, state, input, ctx);
  if (input.kind === 'button') return onButton(session, state, input.id, ctx);
  if (state.step === 'submitting' || state.step === 'awaiting') {
    if (input.kind === 'text' && YES_WORDS.includes(word(input.text)))
      return confirm(session, state, undefined, ctx);
    return awaitingReply(session, state);
  }
  if (state.step === 'summary' && input.kind === 'text') {
    if (YES_WORDS.includes(word(input.text))) return confirm(session, state, undefined, ctx);
    if (NO_WORDS.includes(word(input.text))) return { session, effects: [], exit: [text('core-cancelled')] };
  }
  if (!(ASK_ORDER as readonly string[]).includes(state.step) && state.step !== 'summary') {
    return pleaseWait(session, state);
  }
  if (input.kind === 'contact') {
    const phone = parsePhone(input.phone);
    if (!phone) {
      const step = state.step === 'summary' ? 'phone' : (state.step as AskStep);
      return at(session, { ...state, step }, [
        prompt(session, state, step, [text('buy-phone-invalid', { phone: input.phone })]),
      ]);
    }
    return advance(session, { ...state, phone }, []);
  }
  if (input.kind === 'text') {
    if (state.step === 'summary') {
      const applied = applyWords(state, input.text);
      if (!applied.used)
        return at(session, state, [summary(session, state, [text('buy-summary-not-understood')])]);
      return advance(session, applied.state, applied.notes);
    }
    return onText(session, state, input.text);
  }
  return at(session, state, [send([text('core-not-understood')])]);
}

/** Clears a step's field and what depends on it. */
function clearFrom(state: BuyState, step: AskStep): BuyState {
  switch (step) {
    case 'amount':
      return { ...state, amountKes: undefined };
    case 'token':
      return { ...state, token: undefined, network: undefined, wallet: undefined };
    case 'network':
      return { ...state, network: undefined, wallet: undefined };
    case 'wallet':
      return { ...state, wallet: undefined };
    case 'phone':
      return { ...state, phone: undefined };
  }
}

export const buyFlow: FlowDef<BuyState> = {
  name: 'buy',
  prefix: 'buy',
  commands: ['buy', 'nunua'],
  keywords: ['buy', 'nunua'],
  menu: { order: 10, label: text('core-menu-buy') },
  start(session, ctx, how) {
    const state: BuyState = {
      name: 'buy',
      id: makeFlowId(ctx),
      step: 'loading',
      args: how.args?.trim() || undefined,
    };
    return at(session, state, [{ type: 'fetchAssets' }]);
  },
  handle,
  back(session, state) {
    if (state.step === 'submitting' || state.step === 'awaiting') return awaitingReply(session, state);
    if (state.step === 'loading') return { session, effects: [], exit: [] };
    const index = ASK_ORDER.indexOf(state.step as AskStep);
    const current = index === -1 ? ASK_ORDER.length : index;
    if (current === 0) return { session, effects: [], exit: [] };
    const previous = ASK_ORDER[current - 1]!;
    const next: BuyState = { ...clearFrom(state, previous), quote: undefined, step: previous };
    return at(session, next, [prompt(session, next, previous, [])]);
  },
  cancel(session, state) {
    if (state.step === 'submitting' || state.step === 'awaiting') {
      return {
        session,
        effects: [],
        exit: [
          state.orderId
            ? text('buy-cancel-too-late', { orderId: state.orderId })
            : text('buy-cancel-too-late-short'),
        ],
      };
    }
    return { session, effects: [], exit: [text('core-cancelled')] };
  },
  orphan(session, input) {
    if (input.kind === 'onrampCreated' && input.idempotencyKey.startsWith('buy:')) {
      return { session, effects: [stkSent(undefined, input.orderId)] };
    }
    if (input.kind === 'effectFailed' && input.effect === 'createOnrampOrder') {
      return { session, effects: [send(orderFailedTexts(input.error), { buttons: [[menuButton()]] })] };
    }
    return undefined;
  },
};
