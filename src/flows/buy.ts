/**
 * Buy (on-ramp): amount in KES, token, network, wallet, payer phone, a quote summary, Confirm.
 * Confirm re-quotes; the order is created once per flow instance (`buy:<flowId>:confirm`), after
 * which further confirms are only answered.
 */
import { z } from 'zod';
import type { Button, Text } from '../chat/types.js';
import type { Network, Quote, TokenInfo } from '../domain/types.js';
import { formatKes } from '../i18n/format.js';
import { checkWallet, chosenToken, displayNetwork, settleAsset } from './asset-steps.js';
import { listedSymbols } from './assets.js';
import { failureTexts, mayHaveReachedService } from './failures.js';
import type { FlowDef, FlowStep } from './flow.js';
import {
  button,
  displayPhone,
  isEffectResult,
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
import {
  type AssetStep,
  answerForm,
  answerTap,
  askAgain,
  askNextOrQuote,
  assetsLoaded,
  at,
  type ConfirmForm,
  clearStep,
  confirmSummary,
  fillWalletAndPhone,
  quoted,
  quoteFailed,
  requoted,
  requoteFailed,
  startForm,
  stepBack,
} from './form.js';
import { menuButton } from './menu.js';
import { type OrderWords, parseKesAmount, parseOrderWords, parseWallet } from './parse.js';
import { amountOutside, KNOWN_LIMITS, onrampTotalKes, quoteTexts, withinLimits } from './quote-view.js';
import { limitsSchema, networkSchema, quoteSchema, tokenInfoSchema } from './schemas.js';
import type { Session } from './session.js';
import type { Effect, EffectResult, FlowContext, Input } from './types.js';

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
const QUICK_AMOUNTS = [500, 1000, 2000];
/** What the summary offers to change (each clears what depends on it and asks it again). */
const CHANGEABLE: readonly AskStep[] = ['amount', 'token', 'wallet', 'phone'];

/** The idempotency key of the one order a buy flow instance may create. */
export const buyOrderKey = (flowId: string): string => `buy:${flowId}:confirm`;
export const buyConfirmButtonId = (flowId: string): string => `buy:confirm:${flowId}`;

const buyForm: ConfirmForm<BuyState, AskStep> = {
  order: ['amount', 'token', 'network', 'wallet', 'phone'],
  fields: {
    amount: ['amountKes'],
    token: ['token', 'network', 'wallet'],
    network: ['network', 'wallet'],
    wallet: ['wallet'],
    phone: ['phone'],
  },
  assets: {
    prefix: 'buy',
    tokenBack: true,
    askToken: 'buy-ask-token',
    askNetwork: 'buy-ask-network',
    tokenUnknown: 'buy-token-unknown',
    networkUnknown: 'buy-network-unknown',
    notOnNetwork: 'buy-token-not-on-network',
  },
  texts: {
    pleaseWait: 'buy-please-wait',
    wordsIgnored: 'buy-words-ignored',
    noAssets: 'buy-no-assets',
    phoneInvalid: 'buy-phone-invalid',
    summaryNotUnderstood: 'buy-summary-not-understood',
    rateMoved: 'buy-rate-moved',
    tryAgain: 'buy-try-again',
  },
  purpose: 'buy',
  reconfirmPurpose: 'reconfirm',
  ask,
  notUnderstood,
  advance,
  fillWords,
  quoteRequest: (state) => ({
    type: 'onramp',
    network: state.network!,
    token: state.token!,
    fiatCurrency: 'KES',
    amount: String(state.amountKes),
  }),
  summary,
  amountInLimits: (state, quote) => withinLimits(quote, state.amountKes!),
  amountOutOfLimits(session, state, quote) {
    const limits = quote.limits!;
    const amount = formatKes(session.locale, state.amountKes!);
    return state.amountKes! < limits.min
      ? text('buy-amount-below-min', { amount, min: formatKes(session.locale, limits.min) })
      : text('buy-amount-above-max', { amount, max: formatKes(session.locale, limits.max) });
  },
  readTyped,
  tapped(session, state, kind, value) {
    if (kind === 'amt') {
      const amount = parseKesAmount(value);
      return amount.ok ? { ...state, amountKes: amount.value } : undefined;
    }
    const saved = kind === 'wallet' && state.network ? session.profile.wallets[state.network] : undefined;
    return saved ? { ...state, wallet: saved } : undefined;
  },
};

function ask(session: Session, state: BuyState, step: Exclude<AskStep, AssetStep>, notes: Text[]): Effect {
  const { locale, profile } = session;
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

/** True when the STK push would go to a number the channel has not proven to be the user's. */
export function isThirdPartyPhone(session: Session, phone: string): boolean {
  return !session.profile.ownsTypedPhones && session.profile.ownPhone !== phone;
}

function summary(session: Session, state: BuyState, notes: Text[]): Effect {
  const quote = state.quote!;
  const thirdParty = isThirdPartyPhone(session, state.phone!);
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
      ...(thirdParty ? [text('buy-third-party-note', { phone: displayPhone(state.phone!) })] : []),
      text(thirdParty ? 'buy-summary-confirm-third-party' : 'buy-summary-confirm'),
    ],
    {
      buttons: [
        [
          button(
            buyConfirmButtonId(state.id),
            thirdParty ? 'buy-button-confirm-third-party' : 'buy-button-confirm',
          ),
        ],
        [
          button('buy:change:amount', 'buy-button-change-amount'),
          button('buy:change:token', 'buy-button-change-token'),
        ],
        [
          button('buy:change:wallet', 'buy-button-change-wallet'),
          button('buy:change:phone', 'buy-button-change-phone'),
        ],
        navRow(),
      ],
    },
  );
}

/**
 * A plain Buy (no one-line words) from a returning user starts from the last buy's token and network
 * with the saved wallet and phone, so it is Buy -> amount -> Confirm; the summary offers to change
 * each. Nothing is prefilled when the token is no longer listed there or a piece is missing.
 */
function withSavedChoices(session: Session, state: BuyState, tokens: TokenInfo[]): BuyState {
  const last = session.profile.lastBuy;
  if (state.args || !last) return state;
  const wallet = session.profile.wallets[last.network];
  const phone = session.profile.phone;
  const listed = tokens.some((t) => t.network === last.network && t.symbol === last.token);
  if (!wallet || !phone || !listed) return state;
  return { ...state, token: last.token, network: last.network, wallet, phone };
}

/** Checks the filled fields against each other, then asks the first missing one or fetches the quote. */
function advance(session: Session, input: BuyState, notes: Text[], auto = true): FlowStep {
  const settled = settleAsset({ ...input, quote: undefined }, buyForm.assets, notes, auto);
  return askNextOrQuote(buyForm, session, checkWallet(settled, notes, walletProblemText), notes);
}

function walletProblemText(problem: 'checksum' | 'format', network: Network, address: string): Text {
  if (problem === 'checksum' && network === 'algorand')
    return text('buy-wallet-bad-checksum-algorand', { address });
  return problem === 'checksum'
    ? text('buy-wallet-bad-checksum', { address, network: displayNetwork(network) })
    : text('buy-wallet-wrong-format', { address, network: displayNetwork(network) });
}

function fillWords(next: BuyState, words: OrderWords, notes: Text[]): boolean {
  if (words.amount) {
    const amount = parseKesAmount(words.amount.text);
    const outside = amount.ok
      ? amountOutside('buy-amount-outside', amount.value, next.limits ?? KNOWN_LIMITS.onramp)
      : undefined;
    if (outside) notes.push(outside);
    else if (amount.ok) next.amountKes = amount.value;
    else if (amount.problem === 'not-whole')
      notes.push(text('buy-amount-not-whole', { amount: words.amount.text }));
    else notes.push(text('buy-amount-invalid', { amount: words.amount.text }));
  }
  return fillWalletAndPhone(next, words, notes, 'buy-phone-invalid') || words.amount !== undefined;
}

function notUnderstood(step: Exclude<AskStep, AssetStep>, typed: string, state: BuyState): Text {
  switch (step) {
    case 'amount':
      return text('buy-amount-invalid', { amount: typed });
    case 'wallet':
      return text('buy-wallet-wrong-format', {
        address: typed,
        network: state.network ? displayNetwork(state.network) : '',
      });
    case 'phone':
      return text('buy-phone-invalid', { phone: typed });
  }
}

/** One word at the wallet step is an address, unless it names a token or a network. */
function readTyped(session: Session, state: BuyState, step: AskStep, typed: string): FlowStep | undefined {
  if (step !== 'wallet' || !state.network || /\s/.test(typed.trim())) return undefined;
  const wallet = parseWallet(state.network, typed);
  if (wallet.ok) return advance(session, { ...state, wallet: wallet.value }, []);
  const words = parseOrderWords(typed, listedSymbols(state.assets ?? []));
  if (words.network || words.token) return undefined;
  return askAgain(buyForm, session, state, 'wallet', [
    walletProblemText(wallet.problem, state.network, typed.trim()),
  ]);
}

function onButton(session: Session, state: BuyState, id: string, ctx: FlowContext): FlowStep {
  const [, kind = '', value = ''] = id.split(':');
  if (kind === 'confirm') return confirm(session, state, value, ctx);
  if (state.step === 'submitting' || state.step === 'awaiting') return awaitingReply(session, state);
  if (kind === 'change' && state.step === 'summary' && CHANGEABLE.includes(value as AskStep)) {
    const step = value as AskStep;
    const cleared: BuyState = { ...clearStep(buyForm, state, step), quote: undefined };
    return askAgain(buyForm, session, { ...cleared, step }, step, []);
  }
  return answerTap(buyForm, session, state, kind, value);
}

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
  return confirmSummary(buyForm, session, state, flowId);
}

function onQuote(session: Session, state: BuyState, quote: Quote, ctx: FlowContext): FlowStep {
  if (state.step === 'quoting') return quoted(buyForm, session, state, quote);
  return requoted(buyForm, session, state, quote, ctx, (fresh) => {
    const token = chosenToken(fresh);
    if (!token)
      return {
        session: { ...session, flow: { name: 'menu' } },
        effects: [],
        exit: [text('core-error-unavailable')],
      };
    return createOrder(session, fresh, token, ctx);
  });
}

function createOrder(session: Session, state: BuyState, token: TokenInfo, ctx: FlowContext): FlowStep {
  const network = state.network!;
  const wallet = state.wallet!;
  const phone = state.phone!;
  const order: Effect = {
    type: 'createOnrampOrder',
    request: { phone, amountKes: state.amountKes!, userAddress: wallet, tokenAddress: token.address },
    idempotencyKey: buyOrderKey(state.id),
    ...(isThirdPartyPhone(session, phone) ? { thirdParty: true } : {}),
    track: {
      side: 'onramp',
      user: ctx.user,
      network,
      walletAddress: wallet,
      token: { symbol: token.symbol, address: token.address, decimals: token.decimals },
      amountKes: state.amountKes!,
      paidKes: onrampTotalKes(state.quote!),
      tokenAmount: state.quote!.outputAmount,
      phone,
    },
  };
  const profile = {
    ...session.profile,
    phone,
    wallets: { ...session.profile.wallets, [network]: wallet },
    lastBuy: { token: token.symbol, network },
  };
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
  if (error.kind === 'rate_limited')
    return [
      text('buy-rate-limited', { minutes: Math.max(1, Math.ceil((error.retryInMs ?? 60_000) / 60_000)) }),
    ];
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
      return assetsLoaded(
        buyForm,
        session,
        withSavedChoices(session, state, input.assets.tokens),
        input.assets.tokens,
      );
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
    case 'orderFinal':
      // The tracker has told the outcome: the buy no longer waits (a typed "thanks" must not hear
      // that the order is still waiting for payment). Back to the menu, quietly.
      if (state.step !== 'awaiting' || state.orderId !== input.orderId) return unhandled(session);
      return { session: { ...session, flow: { name: 'menu' } }, effects: [] };
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
    if (state.step === 'reconfirming' && error.kind !== 'validation')
      return requoteFailed(buyForm, session, state, error);
    return quoteFailed(buyForm, session, state, error);
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
  return answerForm(buyForm, session, state, input);
}

export const buyFlow: FlowDef<BuyState> = {
  name: 'buy',
  prefix: 'buy',
  commands: ['buy', 'nunua'],
  keywords: ['buy', 'nunua'],
  menu: { order: 10, label: text('core-menu-buy') },
  start: (session, ctx, how) => startForm(session, ctx, how, 'buy', { type: 'fetchAssets' }),
  handle,
  back(session, state) {
    if (state.step === 'submitting' || state.step === 'awaiting') return awaitingReply(session, state);
    return stepBack(buyForm, session, state);
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
