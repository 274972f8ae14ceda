/**
 * Sell (off-ramp), pure: token, network, amount (KES to receive or tokens to send), the M-Pesa
 * number, the sending wallet if known, the quote, Confirm. Confirm asks for one sell intent per flow
 * instance (`sell:<flowId>`): the effect handler binds phone, wallet, token, total, fee and the time
 * window to it and answers with the signing link. While it waits, a pasted hash is checked the same
 * way as one reported by the signing page; results arrive as `sellUpdate` inputs.
 */
import { z } from 'zod';
import type { Button, Text } from '../chat/types.js';
import { checkWallet, chosenToken, displayNetwork, settleAsset } from '../flows/asset-steps.js';
import { failureTexts } from '../flows/failures.js';
import type { FlowDef, FlowStep } from '../flows/flow.js';
import {
  button,
  displayPhone,
  isEffectResult,
  navRow,
  rows,
  send,
  shortAddress,
  text,
  unhandled,
  word,
  YES_WORDS,
} from '../flows/flow.js';
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
  requoted,
  requoteFailed,
  startForm,
  stepBack,
} from '../flows/form.js';
import { SUPPORT_OPEN } from '../flows/help.js';
import { menuButton } from '../flows/menu.js';
import { type OrderWords, parseKesAmount, parseTokenAmount } from '../flows/parse.js';
import {
  amountOutside,
  feeInTokens,
  KNOWN_LIMITS,
  kesValue,
  quoteTexts,
  withinLimits,
} from '../flows/quote-view.js';
import { limitsSchema, networkSchema, quoteSchema, tokenInfoSchema } from '../flows/schemas.js';
import type { Session } from '../flows/session.js';
import type { Effect, EffectResult, FlowContext, Input, SellLink, SellUpdate } from '../flows/types.js';
import { refusalTextId } from './reasons.js';

export const SELL_STEPS = [
  'loading',
  'token',
  'network',
  'amount',
  'phone',
  'quoting',
  'summary',
  'reconfirming',
  'creating',
  'awaiting',
] as const;

export const sellStateSchema = z.object({
  name: z.literal('sell'),
  id: z.string().min(1),
  step: z.enum(SELL_STEPS),
  token: z.string().optional(),
  network: networkSchema.optional(),
  /** Whole KES to receive, or tokens to send (decimal text), per `amountIn`. */
  amount: z.string().optional(),
  amountIn: z.enum(['kes', 'token']).optional(),
  phone: z
    .string()
    .regex(/^254[17]\d{8}$/)
    .optional(),
  /** The sending wallet; `any` when the user chose to pick it in the wallet. */
  wallet: z.string().optional(),
  /** Tokens selling is configured for. */
  assets: z.array(tokenInfoSchema).optional(),
  quote: quoteSchema.optional(),
  limits: limitsSchema.optional(),
  args: z.string().optional(),
  intentId: z.string().optional(),
  signUrl: z.string().optional(),
  expiresAt: z.number().optional(),
  devSign: z.boolean().optional(),
});
export type SellState = z.infer<typeof sellStateSchema>;

type AskStep = 'token' | 'network' | 'amount' | 'phone';
const QUICK_KES = [500, 1000, 2000];
const ANY_WALLET = 'any';

/** The idempotency key of the one intent a sell flow instance may create. */
export const sellIntentKey = (flowId: string): string => `sell:${flowId}`;
export const sellConfirmButtonId = (flowId: string): string => `sell:confirm:${flowId}`;
export const SELL_DEVSIGN = 'sell:devsign';

const EVM_HASH = /^0x[0-9a-fA-F]{64}$/;
const ALGORAND_TXID = /^[A-Z2-7]{51}[AQ]$/;

/** A transaction hash pasted in chat (EVM 66 chars, Algorand 52), or undefined. */
export function pastedHash(typed: string): string | undefined {
  const t = typed.trim();
  if (EVM_HASH.test(t)) return t.toLowerCase();
  const upper = t.toUpperCase();
  if (ALGORAND_TXID.test(upper)) return upper;
  const inLink = /(?:^|[^A-Za-z0-9])(0x[0-9a-fA-F]{64}|[A-Z2-7]{51}[AQ])(?![A-Za-z0-9])/.exec(t);
  return inLink ? (inLink[1]!.startsWith('0x') ? inLink[1]!.toLowerCase() : inLink[1]) : undefined;
}

const supportRow = (): Button[] => [button(SUPPORT_OPEN, 'sell-button-support')];

const sellForm: ConfirmForm<SellState, AskStep> = {
  order: ['token', 'network', 'amount', 'phone'],
  fields: {
    token: ['token', 'network', 'wallet'],
    network: ['network', 'wallet'],
    amount: ['amount', 'amountIn'],
    phone: ['phone'],
  },
  assets: {
    prefix: 'sell',
    tokenBack: false,
    askToken: 'sell-ask-token',
    askNetwork: 'sell-ask-network',
    tokenUnknown: 'sell-token-unknown',
    networkUnknown: 'sell-network-unknown',
    notOnNetwork: 'sell-token-not-on-network',
    warnUnlistedToken: true,
  },
  texts: {
    pleaseWait: 'sell-please-wait',
    wordsIgnored: 'sell-words-ignored',
    noAssets: 'sell-unavailable',
    phoneInvalid: 'sell-phone-invalid',
    summaryNotUnderstood: 'sell-summary-not-understood',
    rateMoved: 'sell-rate-moved',
    tryAgain: 'sell-try-again',
  },
  purpose: 'sell',
  reconfirmPurpose: 'sell-reconfirm',
  ask,
  notUnderstood: (step, typed) =>
    step === 'amount'
      ? text('sell-amount-invalid', { amount: typed })
      : text('sell-phone-invalid', { phone: typed }),
  advance,
  fillWords,
  quoteRequest(state) {
    const base = {
      type: 'offramp' as const,
      network: state.network!,
      token: state.token!,
      fiatCurrency: 'KES' as const,
    };
    return state.amountIn === 'token'
      ? { ...base, amount: state.amount! }
      : { ...base, fiatAmount: state.amount! };
  },
  summary,
  amountInLimits: (_state, quote) => withinLimits(quote, kesValue(quote)),
  amountOutOfLimits(_session, _state, quote) {
    const limits = quote.limits!;
    const kes = kesValue(quote);
    return kes < limits.min
      ? text('sell-amount-below-min', { amount: Math.round(kes), min: limits.min })
      : text('sell-amount-above-max', { amount: Math.round(kes), max: limits.max });
  },
  readTyped,
  tapped(_session, state, kind, value) {
    const kes = kind === 'amt' ? parseKesAmount(value) : undefined;
    return kes?.ok ? { ...state, amount: String(kes.value), amountIn: 'kes' } : undefined;
  },
};

function ask(session: Session, state: SellState, step: Exclude<AskStep, AssetStep>, notes: Text[]): Effect {
  if (step === 'amount') {
    const texts = [...notes, text('sell-ask-amount', { token: state.token ?? '' })];
    if (state.limits) texts.push(text('sell-amount-range', { min: state.limits.min, max: state.limits.max }));
    const quick = QUICK_KES.filter(
      (n) => !state.limits || (n >= state.limits.min && n <= state.limits.max),
    ).map((n) => button(`sell:amt:${n}`, 'sell-button-kes', { amount: n }));
    return send(texts, { buttons: [...rows(quick), navRow()] });
  }
  const saved = session.profile.phone;
  const buttons: Button[][] = saved
    ? [[button('sell:phone:saved', 'sell-button-saved-phone', { phone: displayPhone(saved) })]]
    : [];
  return send([...notes, text('sell-ask-phone')], { buttons: [...buttons, navRow()], requestPhone: true });
}

function summary(session: Session, state: SellState, notes: Text[]): Effect {
  const quote = state.quote!;
  const wallet = boundWallet(state);
  const saved = !wallet && state.network ? session.profile.wallets[state.network] : undefined;
  return send(
    [
      ...notes,
      text('sell-summary-title'),
      ...quoteTexts(session.locale, quote, state.token!),
      text('sell-summary-details', {
        network: displayNetwork(state.network!),
        phone: displayPhone(state.phone!),
      }),
      wallet ? text('sell-summary-wallet', { wallet }) : text('sell-summary-any-wallet'),
      text('sell-summary-confirm'),
    ],
    {
      buttons: [
        [button(sellConfirmButtonId(state.id), 'sell-button-confirm')],
        ...(wallet ? [[button('sell:wallet:any', 'sell-button-any-wallet')]] : []),
        ...(saved
          ? [[button('sell:wallet:saved', 'sell-button-only-saved-wallet', { address: shortAddress(saved) })]]
          : []),
        navRow(),
      ],
    },
  );
}

/** The wallet the sale is bound to, unless the user chose to pick it when signing. */
const boundWallet = (state: SellState): string | undefined =>
  state.wallet && state.wallet !== ANY_WALLET ? state.wallet : undefined;

/**
 * Checks the filled fields against each other, then asks the next or quotes. A wallet saved by a buy
 * is where tokens were received, not proof of where they are sent from: it is offered on the summary,
 * never bound on its own (a sale bound to it refused the local demo's dev wallet).
 */
function advance(session: Session, input: SellState, notes: Text[]): FlowStep {
  const state = settleAsset({ ...input, quote: undefined }, sellForm.assets, notes);
  const checked =
    state.wallet === ANY_WALLET
      ? state
      : checkWallet(state, notes, (_problem, network, address) =>
          text('sell-wallet-invalid', { address, network: displayNetwork(network) }),
        );
  return askNextOrQuote(sellForm, session, checked, notes);
}

/** Reads an amount: KES unless a token symbol (and no KES word) came with it. */
function readAmount(
  amount: { text: string; kes: boolean },
  withToken: boolean,
): { amount: string; amountIn: 'kes' | 'token' } | Text {
  if (withToken && !amount.kes) {
    const tokens = parseTokenAmount(amount.text);
    return tokens.ok
      ? { amount: tokens.value, amountIn: 'token' }
      : text('sell-amount-invalid', { amount: amount.text });
  }
  const kes = parseKesAmount(amount.text);
  if (kes.ok) return { amount: String(kes.value), amountIn: 'kes' };
  return kes.problem === 'not-whole'
    ? text('sell-amount-not-whole', { amount: amount.text })
    : text('sell-amount-invalid', { amount: amount.text });
}

/** A KES amount outside the limits is refused where it is typed; tokens are checked by the quote. */
function inLimits(read: ReturnType<typeof readAmount>, state: SellState): ReturnType<typeof readAmount> {
  if ('id' in read || read.amountIn !== 'kes') return read;
  return (
    amountOutside('sell-amount-outside', Number(read.amount), state.limits ?? KNOWN_LIMITS.offramp) ?? read
  );
}

function fillWords(next: SellState, words: OrderWords, notes: Text[]): boolean {
  if (words.amount) {
    const read = inLimits(readAmount(words.amount, words.token !== undefined), next);
    if ('id' in read) notes.push(read);
    else Object.assign(next, read);
  }
  return fillWalletAndPhone(next, words, notes, 'sell-phone-invalid') || words.amount !== undefined;
}

/** A bare number at the amount step is shillings. */
function readTyped(session: Session, state: SellState, step: AskStep, typed: string): FlowStep | undefined {
  const t = typed.trim();
  if (step !== 'amount' || !/^[\d.,]+$/.test(t)) return undefined;
  const read = inLimits(readAmount({ text: t, kes: true }, false), state);
  if ('id' in read) return askAgain(sellForm, session, state, 'amount', [read]);
  return advance(session, { ...state, ...read }, []);
}

function onButton(session: Session, state: SellState, id: string): FlowStep {
  const [, kind = '', value = ''] = id.split(':');
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

function linkButtons(state: SellState, link?: SellLink): Button[][] {
  const out: Button[][] = [];
  if (link?.algorand) {
    out.push([{ id: 'sell:link:pera', label: text('sell-button-pera'), url: link.algorand.peraUrl }]);
  }
  if (link?.metamaskUrl)
    out.push([{ id: 'sell:link:metamask', label: text('sell-button-metamask'), url: link.metamaskUrl }]);
  if (link?.trustUrl)
    out.push([{ id: 'sell:link:trust', label: text('sell-button-trust'), url: link.trustUrl }]);
  const signUrl = link?.signUrl ?? state.signUrl;
  if (signUrl && /^https:/.test(signUrl)) {
    out.push([{ id: 'sell:link:page', label: text('sell-button-page'), url: signUrl }]);
  }
  if (state.devSign || link?.devSign) out.push([button(SELL_DEVSIGN, 'sell-button-devsign')]);
  out.push([button('nav:cancel', 'sell-button-cancel-sale')]);
  return out;
}

function awaitingReply(session: Session, state: SellState, notes: Text[]): FlowStep {
  if (state.step === 'creating') return at(session, state, [send([...notes, text('sell-please-wait')])]);
  return at(session, state, [
    send([...notes, text('sell-awaiting', { url: state.signUrl ?? '' }), text('sell-paste-hash')], {
      buttons: linkButtons(state),
    }),
  ]);
}

function confirm(session: Session, state: SellState, flowId: string | undefined): FlowStep {
  if (state.step === 'creating' || state.step === 'awaiting')
    return awaitingReply(session, state, [text('sell-already-confirmed')]);
  return confirmSummary(sellForm, session, state, flowId);
}

/** Asks for the flow instance's one intent, binding phone, wallet, token, total and fee from the fresh quote. */
function createIntent(session: Session, state: SellState): FlowStep {
  const token = chosenToken(state);
  if (!token) return { session, effects: [], exit: [text('core-error-unavailable')] };
  const quote = state.quote!;
  const wallet = boundWallet(state);
  const network = state.network!;
  const phone = state.phone!;
  const intent: Effect = {
    type: 'sellCreateIntent',
    key: sellIntentKey(state.id),
    request: {
      network,
      token: { symbol: token.symbol, address: token.address, decimals: token.decimals },
      amount: quote.inputAmount,
      fee: feeInTokens(quote),
      amountKes: quote.estimatedOutputKes ?? Number(quote.outputAmount),
      exchangeRate: quote.exchangeRate,
      phone,
      ...(wallet ? { wallet } : {}),
    },
  };
  const profile = {
    ...session.profile,
    phone,
    wallets: wallet ? { ...session.profile.wallets, [network]: wallet } : session.profile.wallets,
  };
  return { session: { ...session, profile, flow: { ...state, step: 'creating' } }, effects: [intent] };
}

function linkMessage(state: SellState, link: SellLink, now: number): Effect {
  const texts: Text[] = [];
  if (link.senderProblem) texts.push(text(`sell-sender-${link.senderProblem.replace(/_/g, '-')}`));
  if (link.algorand) {
    texts.push(
      text('sell-algorand-pay', {
        total: link.total,
        token: state.token ?? 'USDC',
        receiver: link.algorand.receiver,
      }),
      text('sell-algorand-note', { note: link.algorand.note }),
      text('sell-algorand-qr', { url: link.algorand.qrUrl }),
      text('sell-algorand-auto'),
    );
  } else {
    texts.push(text('sell-evm-sign', { total: link.total, token: state.token ?? '', url: link.signUrl }));
    texts.push(text('sell-paste-hash'));
  }
  texts.push(
    text('sell-link-expires', { minutes: Math.max(1, Math.round((link.expiresAt - now) / 60_000)) }),
  );
  return send(texts, { buttons: linkButtons(state, link) });
}

function updateTexts(update: SellUpdate): { texts: Text[]; final: boolean; buttons?: Button[][] } {
  switch (update.status) {
    case 'checking':
      return {
        texts: [
          update.unseen
            ? text('sell-checking-unseen', {
                hash: update.hash,
                network: update.network ? displayNetwork(update.network) : '',
              })
            : text('sell-checking', { hash: update.hash }),
        ],
        final: false,
      };
    case 'filed':
      return {
        texts: [
          text(
            update.afterCancel
              ? 'sell-filed-after-cancel'
              : update.existing
                ? 'sell-filed-existing'
                : 'sell-filed',
            { orderId: update.orderId },
          ),
        ],
        final: true,
        buttons: [[menuButton()]],
      };
    case 'refused': {
      const reason = text(refusalTextId(update.reason));
      const texts = [reason, update.escalated ? text('sell-escalated') : text('sell-nothing-moved')];
      return { texts, final: update.escalated, buttons: [supportRow(), [menuButton()]] };
    }
    case 'uncertain':
      return { texts: [text('sell-uncertain')], final: true, buttons: [supportRow(), [menuButton()]] };
    case 'expired':
      return { texts: [text('sell-expired')], final: true, buttons: [[menuButton()]] };
    case 'cancelled':
      return { texts: [text('sell-cancelled')], final: true, buttons: [[menuButton()]] };
    case 'cancel-too-late':
      return { texts: [text('sell-cancel-paid')], final: true, buttons: [[menuButton()]] };
  }
}

function onUpdate(session: Session, state: SellState, intentId: string, update: SellUpdate): FlowStep {
  if (state.step !== 'awaiting' || state.intentId !== intentId) return unhandled(session);
  const { texts, final, buttons } = updateTexts(update);
  if (final) {
    return {
      session: { ...session, flow: { name: 'menu' } },
      effects: [send(texts, buttons ? { buttons } : {})],
    };
  }
  return at(session, state, [
    send(texts, { buttons: buttons ? [...buttons.slice(0, 1), ...linkButtons(state)] : linkButtons(state) }),
  ]);
}

function onResult(session: Session, state: SellState, input: EffectResult, ctx: FlowContext): FlowStep {
  switch (input.kind) {
    case 'sellOptions':
      if (state.step !== 'loading') return unhandled(session);
      return assetsLoaded(sellForm, session, state, input.tokens);
    case 'quote':
      if (input.purpose === sellForm.purpose && state.step === 'quoting')
        return quoted(sellForm, session, state, input.quote);
      if (input.purpose === sellForm.reconfirmPurpose && state.step === 'reconfirming')
        return requoted(sellForm, session, state, input.quote, ctx, (fresh) => createIntent(session, fresh));
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
      const remembered = { ...session, profile: { ...session.profile, lastSellIntent: input.link.intentId } };
      return at(remembered, next, [linkMessage(next, input.link, ctx.now)]);
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
  if (effect === 'fetchQuote' && (state.step === 'quoting' || state.step === 'reconfirming')) {
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

function handle(session: Session, state: SellState, input: Input, ctx: FlowContext): FlowStep {
  if (isEffectResult(input)) return onResult(session, state, input, ctx);
  if (input.kind === 'button') return onButton(session, state, input.id);
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
  keywords: ['sell', 'uza'],
  menu: { order: 20, label: text('sell-menu') },
  start: (session, ctx, how) => startForm(session, ctx, how, 'sell', { type: 'sellOptions' }),
  handle,
  back(session, state) {
    if (state.step === 'creating' || state.step === 'awaiting') return awaitingReply(session, state, []);
    return stepBack(sellForm, session, state);
  },
  cancel(session, state) {
    if (state.step === 'awaiting' && state.intentId) {
      return {
        session,
        effects: [{ type: 'sellCancelIntent', intentId: state.intentId }],
        exit: [text('sell-cancel-requested')],
      };
    }
    if (state.step === 'creating') return { session, effects: [], exit: [text('sell-cancel-too-late')] };
    return { session, effects: [], exit: [text('core-cancelled')] };
  },
  orphan(session, input) {
    if (input.kind === 'sellUpdate') {
      const { texts, buttons } = updateTexts(input.update);
      return { session, effects: [send(texts, buttons ? { buttons } : {})] };
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
    const intentId = session.profile.lastSellIntent;
    if (!intentId)
      return { session, effects: [send([text('sell-hash-no-sale')], { buttons: [[menuButton()]] })] };
    return {
      session,
      effects: [send([text('sell-hash-received')]), { type: 'sellReportHash', intentId, hash }],
    };
  },
};
