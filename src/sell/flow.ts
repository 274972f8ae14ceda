/**
 * Sell (off-ramp), pure: token, network, amount (KES to receive or tokens to send), the M-Pesa
 * number, the sending wallet if known, the quote, Confirm. Confirm asks for one sell intent per flow
 * instance (`sell:<flowId>`): the effect handler binds phone, wallet, token, total, fee and the time
 * window to it and answers with the signing link. While it waits, a pasted hash is checked the same
 * way as one reported by the signing page; results arrive as `sellUpdate` inputs.
 */
import { z } from 'zod';
import { NETWORK_INFO } from '../domain/networks.js';
import type { Network, Quote, TokenInfo } from '../domain/types.js';
import { listedSymbols, networksFor } from '../flows/assets.js';
import { failureTexts } from '../flows/failures.js';
import type { FlowDef, FlowStep } from '../flows/flow.js';
import {
  button,
  displayPhone,
  isEffectResult,
  makeFlowId,
  navRow,
  plainButton,
  rows,
  send,
  shortAddress,
  text,
  unhandled,
  word,
  YES_WORDS,
} from '../flows/flow.js';
import { SUPPORT_OPEN } from '../flows/help.js';
import { menuButton } from '../flows/menu.js';
import {
  parseKesAmount,
  parseOrderWords,
  parsePhone,
  parseTokenAmount,
  parseWallet,
} from '../flows/parse.js';
import { feeInTokens, kesValue, quoteTexts, withinLimits } from '../flows/quote-view.js';
import { limitsSchema, networkSchema, quoteSchema, tokenInfoSchema } from '../flows/schemas.js';
import type { Session } from '../flows/session.js';
import type {
  Button,
  Effect,
  EffectResult,
  FlowContext,
  Input,
  SellLink,
  SellUpdate,
  Text,
} from '../flows/types.js';
import { refusalTextId } from './reasons.js';

export const SELL_STEPS = [
  'loading',
  'token',
  'network',
  'amount',
  'phone',
  'quoting',
  'summary',
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
const ASK_ORDER: readonly AskStep[] = ['token', 'network', 'amount', 'phone'];
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

const at = (session: Session, state: SellState, effects: Effect[] = []): FlowStep => ({
  session: { ...session, flow: state },
  effects,
});
const displayNetwork = (n: Network): string => NETWORK_INFO[n].displayName;
const supportRow = (): Button[] => [button(SUPPORT_OPEN, 'sell-button-support')];

function findToken(state: SellState): TokenInfo | undefined {
  return (state.assets ?? []).find((t) => t.network === state.network && t.symbol === state.token);
}

function missing(state: SellState): AskStep | undefined {
  if (!state.token) return 'token';
  if (!state.network) return 'network';
  if (!state.amount) return 'amount';
  if (!state.phone) return 'phone';
  return undefined;
}

function prompt(session: Session, state: SellState, step: AskStep, notes: Text[]): Effect {
  const tokens = state.assets ?? [];
  switch (step) {
    case 'token':
      return send([...notes, text('sell-ask-token')], {
        buttons: [...rows(listedSymbols(tokens).map((s) => plainButton(`sell:tok:${s}`, s))), navRow(false)],
      });
    case 'network':
      return send([...notes, text('sell-ask-network', { token: state.token ?? '' })], {
        buttons: [
          ...rows(
            networksFor(tokens, state.token ?? '').map((n) =>
              plainButton(`sell:net:${n}`, displayNetwork(n)),
            ),
          ),
          navRow(),
        ],
      });
    case 'amount': {
      const texts = [...notes, text('sell-ask-amount', { token: state.token ?? '' })];
      if (state.limits)
        texts.push(text('sell-amount-range', { min: state.limits.min, max: state.limits.max }));
      const quick = QUICK_KES.filter(
        (n) => !state.limits || (n >= state.limits.min && n <= state.limits.max),
      ).map((n) => button(`sell:amt:${n}`, 'sell-button-kes', { amount: n }));
      return send(texts, { buttons: [...rows(quick), navRow()] });
    }
    case 'phone': {
      const saved = session.profile.phone;
      const buttons: Button[][] = saved
        ? [[button('sell:phone:saved', 'sell-button-saved-phone', { phone: displayPhone(saved) })]]
        : [];
      return send([...notes, text('sell-ask-phone')], {
        buttons: [...buttons, navRow()],
        requestPhone: true,
      });
    }
  }
}

function summary(session: Session, state: SellState, notes: Text[]): Effect {
  const quote = state.quote!;
  const wallet = state.wallet && state.wallet !== ANY_WALLET ? state.wallet : undefined;
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
        navRow(),
      ],
    },
  );
}

function quoteRequest(state: SellState): Effect {
  const base = {
    type: 'offramp' as const,
    network: state.network!,
    token: state.token!,
    fiatCurrency: 'KES' as const,
  };
  const request =
    state.amountIn === 'token' ? { ...base, amount: state.amount! } : { ...base, fiatAmount: state.amount! };
  return { type: 'fetchQuote', request, purpose: 'sell' };
}

/** Checks the filled fields against each other, then asks the first missing one or fetches the quote. */
function advance(session: Session, input: SellState, notes: Text[]): FlowStep {
  const state: SellState = { ...input, quote: undefined };
  const tokens = state.assets ?? [];
  const symbols = listedSymbols(tokens);
  if (state.token && !symbols.includes(state.token)) {
    notes.push(text('sell-token-unknown', { token: state.token }));
    state.token = undefined;
  }
  if (!state.token && symbols.length === 1) state.token = symbols[0];
  if (state.token && state.network && !findToken(state)) {
    notes.push(
      text('sell-token-not-on-network', { token: state.token, network: displayNetwork(state.network) }),
    );
    state.network = undefined;
  }
  if (state.token && !state.network) {
    const nets = networksFor(tokens, state.token);
    if (nets.length === 1) state.network = nets[0];
  }
  if (state.network && !state.wallet && session.profile.wallets[state.network]) {
    state.wallet = session.profile.wallets[state.network];
  }
  if (state.network && state.wallet && state.wallet !== ANY_WALLET) {
    const wallet = parseWallet(state.network, state.wallet);
    if (wallet.ok) state.wallet = wallet.value;
    else {
      notes.push(
        text('sell-wallet-invalid', { address: state.wallet, network: displayNetwork(state.network) }),
      );
      state.wallet = undefined;
    }
  }
  const next = missing(state);
  if (next) return at(session, { ...state, step: next }, [prompt(session, state, next, notes)]);
  const effects: Effect[] = notes.length > 0 ? [send(notes)] : [];
  effects.push(quoteRequest(state));
  return at(session, { ...state, step: 'quoting' }, effects);
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

function applyWords(state: SellState, raw: string): { state: SellState; notes: Text[]; used: boolean } {
  const words = parseOrderWords(raw, listedSymbols(state.assets ?? []));
  const next = { ...state };
  const notes: Text[] = [];
  let used = false;
  if (words.token) {
    used = true;
    next.token = words.token;
  }
  if (words.network) {
    used = true;
    if (words.network !== state.network && !words.wallet) next.wallet = undefined;
    next.network = words.network;
  }
  if (words.amount) {
    used = true;
    const read = readAmount(words.amount, words.token !== undefined);
    if ('id' in read) notes.push(read);
    else Object.assign(next, read);
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
    notes.push(text('sell-phone-invalid', { phone: words.badPhone }));
  }
  if (used && words.ignored.length > 0)
    notes.push(text('sell-words-ignored', { words: words.ignored.join(' ') }));
  return { state: next, notes, used };
}

function notUnderstood(step: AskStep, typed: string, network?: Network): Text {
  switch (step) {
    case 'token':
      return text('sell-token-unknown', { token: typed });
    case 'network':
      return text('sell-network-unknown', { network: typed });
    case 'amount':
      return text('sell-amount-invalid', { amount: typed });
    case 'phone':
      return text('sell-phone-invalid', { phone: typed });
  }
}

function onText(session: Session, state: SellState, typed: string): FlowStep {
  const step = state.step as AskStep;
  const t = typed.trim();
  if (step === 'phone' && /^[\d\s+\-().]+$/.test(t)) {
    const phone = parsePhone(t);
    if (!phone)
      return at(session, state, [
        prompt(session, state, 'phone', [text('sell-phone-invalid', { phone: t })]),
      ]);
    return advance(session, { ...state, phone }, []);
  }
  if (step === 'amount' && /^[\d.,]+$/.test(t)) {
    const read = readAmount({ text: t, kes: true }, false);
    if ('id' in read) return at(session, state, [prompt(session, state, 'amount', [read])]);
    return advance(session, { ...state, ...read }, []);
  }
  const applied = applyWords(state, typed);
  if (!applied.used) {
    return at(session, state, [prompt(session, state, step, [notUnderstood(step, t, state.network)])]);
  }
  return advance(session, applied.state, applied.notes);
}

function onButton(session: Session, state: SellState, id: string): FlowStep {
  const [, kind, value = ''] = id.split(':');
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
  if (!(ASK_ORDER as readonly string[]).includes(state.step)) return pleaseWait(session, state);
  const step = state.step as AskStep;
  switch (kind) {
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
    case 'amt': {
      const kes = parseKesAmount(value);
      if (kes.ok) return advance(session, { ...state, amount: String(kes.value), amountIn: 'kes' }, []);
      break;
    }
    case 'phone':
      if (session.profile.phone) return advance(session, { ...state, phone: session.profile.phone }, []);
      break;
  }
  return at(session, state, [prompt(session, state, step, [text('core-button-stale')])]);
}

const pleaseWait = (session: Session, state: SellState): FlowStep =>
  at(session, state, [send([text('sell-please-wait')])]);

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
  if (state.step === 'quoting' || state.step === 'loading') return pleaseWait(session, state);
  if (state.step !== 'summary' || !state.quote) {
    const step = (ASK_ORDER as readonly string[]).includes(state.step) ? (state.step as AskStep) : 'token';
    return at(session, state, [prompt(session, state, step, [text('core-button-stale')])]);
  }
  if (flowId !== undefined && flowId !== state.id) {
    return at(session, state, [summary(session, state, [text('core-button-stale')])]);
  }
  const quote = state.quote;
  if (!withinLimits(quote, kesValue(quote))) return refuseAmount(session, state, quote);
  const token = findToken(state);
  if (!token) return { session, effects: [], exit: [text('core-error-unavailable')] };
  const wallet = state.wallet && state.wallet !== ANY_WALLET ? state.wallet : undefined;
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

function refuseAmount(session: Session, state: SellState, quote: Quote): FlowStep {
  const limits = quote.limits!;
  const kes = kesValue(quote);
  const note =
    kes < limits.min
      ? text('sell-amount-below-min', { amount: Math.round(kes), min: limits.min })
      : text('sell-amount-above-max', { amount: Math.round(kes), max: limits.max });
  const next: SellState = {
    ...state,
    amount: undefined,
    amountIn: undefined,
    quote: undefined,
    limits,
    step: 'amount',
  };
  return at(session, next, [prompt(session, next, 'amount', [note])]);
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
      return { texts: [text('sell-checking', { hash: update.hash })], final: false };
    case 'filed':
      return {
        texts: [text(update.existing ? 'sell-filed-existing' : 'sell-filed', { orderId: update.orderId })],
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
    case 'sellOptions': {
      if (state.step !== 'loading') return unhandled(session);
      if (input.tokens.length === 0) return { session, effects: [], exit: [text('sell-unavailable')] };
      const loaded: SellState = { ...state, assets: input.tokens, args: undefined };
      if (!state.args) return advance(session, loaded, []);
      const applied = applyWords(loaded, state.args);
      if (!applied.used) applied.notes.push(text('sell-words-ignored', { words: state.args }));
      return advance(session, applied.state, applied.notes);
    }
    case 'quote': {
      if (input.purpose !== 'sell' || state.step !== 'quoting') return unhandled(session);
      const quote = input.quote;
      const limits = quote.limits ?? state.limits;
      if (!withinLimits(quote, kesValue(quote))) return refuseAmount(session, state, quote);
      const next: SellState = { ...state, quote, limits, step: 'summary' };
      return at(session, next, [summary(session, next, [])]);
    }
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
      return at(session, next, [linkMessage(next, input.link, ctx.now)]);
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
  if (effect === 'fetchQuote' && state.step === 'quoting') {
    if (error.kind === 'validation') {
      return advance(session, { ...state, amount: undefined, amountIn: undefined }, failureTexts(error));
    }
    return { session, effects: [], exit: failureTexts(error) };
  }
  if (effect === 'sellCreateIntent' && state.step === 'creating') {
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
  if (!(ASK_ORDER as readonly string[]).includes(state.step) && state.step !== 'summary')
    return pleaseWait(session, state);
  if (input.kind === 'contact') {
    const phone = parsePhone(input.phone);
    if (!phone) {
      const step = state.step === 'summary' ? 'phone' : (state.step as AskStep);
      return at(session, { ...state, step }, [
        prompt(session, state, step, [text('sell-phone-invalid', { phone: input.phone })]),
      ]);
    }
    return advance(session, { ...state, phone }, []);
  }
  if (input.kind === 'text') {
    if (state.step === 'summary') {
      const applied = applyWords(state, input.text);
      if (!applied.used)
        return at(session, state, [summary(session, state, [text('sell-summary-not-understood')])]);
      return advance(session, applied.state, applied.notes);
    }
    return onText(session, state, input.text);
  }
  return at(session, state, [send([text('core-not-understood')])]);
}

function clearFrom(state: SellState, step: AskStep): SellState {
  switch (step) {
    case 'token':
      return { ...state, token: undefined, network: undefined, wallet: undefined };
    case 'network':
      return { ...state, network: undefined, wallet: undefined };
    case 'amount':
      return { ...state, amount: undefined, amountIn: undefined };
    case 'phone':
      return { ...state, phone: undefined };
  }
}

export const sellFlow: FlowDef<SellState> = {
  name: 'sell',
  prefix: 'sell',
  commands: ['sell', 'uza'],
  keywords: ['sell', 'uza'],
  menu: { order: 20, label: text('sell-menu') },
  start(session, ctx, how) {
    const state: SellState = {
      name: 'sell',
      id: makeFlowId(ctx),
      step: 'loading',
      args: how.args?.trim() || undefined,
    };
    return at(session, state, [{ type: 'sellOptions' }]);
  },
  handle,
  back(session, state) {
    if (state.step === 'creating' || state.step === 'awaiting') return awaitingReply(session, state, []);
    if (state.step === 'loading') return { session, effects: [], exit: [] };
    const index = ASK_ORDER.indexOf(state.step as AskStep);
    const current = index === -1 ? ASK_ORDER.length : index;
    if (current === 0) return { session, effects: [], exit: [] };
    const previous = ASK_ORDER[current - 1]!;
    const next: SellState = { ...clearFrom(state, previous), quote: undefined, step: previous };
    return at(session, next, [prompt(session, next, previous, [])]);
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
        session,
        effects: [send([text('sell-link-late', { url: input.link.signUrl })], { buttons: [[menuButton()]] })],
      };
    }
    return undefined;
  },
};
