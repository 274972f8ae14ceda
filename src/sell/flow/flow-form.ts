/**
 * The sell form: the questions (token, network, amount, M-Pesa number), how typed words and taps fill
 * them, and the summary the user confirms. The shared form machinery (src/flows/form/form.ts) drives it
 * through `sellForm`. Pure.
 */
import type { Button, Text } from '../../chat/types.js';
import type { FlowStep } from '../../flows/flow.js';
import {
  button,
  displayPhone,
  navRow,
  plainButton,
  rows,
  send,
  shortAddress,
  text,
} from '../../flows/flow.js';
import { checkWallet, displayNetwork, otherFamilyWallet, settleAsset } from '../../flows/form/asset-steps.js';
import {
  type AssetStep,
  askAgain,
  askNextOrQuote,
  type ConfirmForm,
  fillWalletAndPhone,
} from '../../flows/form/form.js';
import { type OrderWords, parseKesAmount, parseTokenAmount } from '../../flows/parse.js';
import { KNOWN_LIMITS, kesValue, quoteTexts, withinLimits } from '../../flows/quote/quote-view.js';
import type { Session } from '../../flows/session.js';
import type { Effect } from '../../flows/types.js';
import { formatKes, formatKesButton, formatToken } from '../../i18n/format.js';
import { ANY_WALLET, type AskStep, boundWallet, type SellState, sellConfirmButtonId } from './flow-state.js';
import { receivable } from './receivable.js';

const QUICK_KES = [500, 1000, 2000];

/** Every token symbol the ramp lists or listed (reference §6), recognised in typed words only. */
const RAMP_SYMBOLS = ['USDT', 'USDC', 'ETH', 'MATIC', 'POL', 'cKES', 'CELO', 'cUSD', 'USDbC', 'LSK'];

export const sellForm: ConfirmForm<SellState, AskStep> = {
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
  // Symbols the ramp lists or has listed (reference §6): named as not sellable here when typed.
  knownSymbols: RAMP_SYMBOLS,
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
  amountOutOfLimits(session, state, quote) {
    const limits = quote.limits!;
    if (state.amountIn === 'token' && state.amount)
      return tokensOutside(session, state, state.amount, quote.exchangeRate, limits);
    return outsideText(Number(state.amount), limits);
  },
  readTyped,
  tapped(_session, state, kind, value) {
    const kes = kind === 'amt' ? parseKesAmount(value) : undefined;
    return kes?.ok ? { ...state, amount: String(kes.value), amountIn: 'kes' } : undefined;
  },
};

/** A KES amount to receive outside the limits, said as the seller meets them (the fee apart). */
function outsideText(amount: number, limits: { min: number; max: number }) {
  const r = receivable(limits);
  return text('sell-amount-outside', { amount, min: r.min, max: r.max, fee: r.topFee });
}

/**
 * A token amount outside the KES limits, said in both units: "1,000 USDT is about KES 129,500 at
 * today's rate, above the maximum of KES 29,984 you can receive (about 231.660231 USDT to send)".
 */
export function tokensOutside(
  session: Session,
  state: SellState,
  amount: string,
  rate: number,
  limits: { min: number; max: number },
): Text {
  const kes = Number(amount) * rate;
  const below = kes < limits.min;
  const gross = below ? limits.min : limits.max;
  const r = receivable(limits);
  const bound = below ? r.min : r.max;
  // The tokens to send at the bound (fee included), rounded inward to 6 decimals.
  const micro = (gross / rate) * 1e6;
  const boundTokens = (below ? Math.ceil(micro) : Math.floor(micro)) / 1e6;
  const token = state.token ?? '';
  return text(below ? 'sell-amount-tokens-below-min' : 'sell-amount-tokens-above-max', {
    amount: formatToken(session.locale, amount, token),
    kes: formatKes(session.locale, Math.round(kes)),
    bound: formatKes(session.locale, bound),
    boundTokens: formatToken(session.locale, boundTokens.toFixed(6), token),
  });
}

function ask(session: Session, state: SellState, step: Exclude<AskStep, AssetStep>, notes: Text[]): Effect {
  if (step === 'amount') {
    const texts = [...notes, text('sell-ask-amount', { token: state.token ?? '' })];
    const r = receivable(state.limits ?? KNOWN_LIMITS.offramp);
    texts.push(text('sell-amount-range', { min: r.min, max: r.max, fee: r.topFee }));
    const quick = QUICK_KES.filter((n) => n >= r.min && n <= r.max).map((n) =>
      plainButton(`sell:amt:${n}`, formatKesButton(session.locale, n)),
    );
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

/**
 * Checks the filled fields against each other, then asks the next or quotes. A wallet saved by a buy
 * is where tokens were received, not proof of where they are sent from: it is offered on the summary,
 * never bound on its own (a sale bound to it refused the local demo's dev wallet).
 */
export function advance(session: Session, input: SellState, notes: Text[]): FlowStep {
  const state = settleAsset({ ...input, quote: undefined }, sellForm.assets, notes);
  const checked =
    state.wallet === ANY_WALLET
      ? state
      : checkWallet(
          state,
          notes,
          (_problem, network, address) =>
            otherFamilyWallet(network, address) ??
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
  const limits = state.limits ?? KNOWN_LIMITS.offramp;
  const r = receivable(limits);
  const amount = Number(read.amount);
  return amount >= r.min && amount <= r.max ? read : outsideText(amount, limits);
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
