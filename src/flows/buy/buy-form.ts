/**
 * The buy's form description (see ../form/form.ts): its steps and fields, its texts, and how it reads
 * typed words and taps; a returning user's last choices are filled in.
 */
import type { Text } from '../../chat/types.js';
import type { TokenInfo } from '../../domain/types.js';
import { formatKes } from '../../i18n/format.js';
import type { FlowStep } from '../flow.js';
import { text } from '../flow.js';
import { checkWallet, settleAsset } from '../form/asset-steps.js';
import { listedSymbols } from '../form/assets.js';
import { askAgain, askNextOrQuote, type ConfirmForm, fillWalletAndPhone } from '../form/form.js';
import { type OrderWords, parseKesAmount, parseOrderWords, parseWallet } from '../parse.js';
import { amountOutside, KNOWN_LIMITS, withinLimits } from '../quote/quote-view.js';
import type { Session } from '../session.js';
import { ask, notUnderstood, summary, walletProblemText } from './buy-questions.js';
import type { AskStep, BuyState } from './buy-state.js';

/** The buy's form: amount, token, network, wallet, phone, then the summary with Confirm. */
export const buyForm: ConfirmForm<BuyState, AskStep> = {
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

/**
 * A plain Buy (no one-line words) from a returning user starts from the last buy's token and network
 * with the saved wallet and phone, so it is Buy -> amount -> Confirm; the summary offers to change
 * each. Nothing is prefilled when the token is no longer listed there or a piece is missing.
 */
export function withSavedChoices(session: Session, state: BuyState, tokens: TokenInfo[]): BuyState {
  const last = session.profile.lastBuy;
  if (state.args || !last) return state;
  const wallet = session.profile.wallets[last.network];
  const phone = session.profile.phone;
  const listed = tokens.some((t) => t.network === last.network && t.symbol === last.token);
  if (!wallet || !phone || !listed) return state;
  return { ...state, token: last.token, network: last.network, wallet, phone };
}

/**
 * A buy started from a tapped "Buy again" / "Try again" / "Buy this" names amount, token and network;
 * the saved wallet of that network and the saved phone fill the rest, as menu Buy does for a returning
 * user, once (a wallet or phone changed from the summary is asked, not filled again).
 */
export function withSavedWalletAndPhone(session: Session, state: BuyState): BuyState {
  if (!state.fillSaved) return state;
  const saved = state.network ? session.profile.wallets[state.network] : undefined;
  return {
    ...state,
    fillSaved: undefined,
    wallet: state.wallet ?? saved,
    phone: state.phone ?? session.profile.phone,
  };
}

/** Checks the filled fields against each other, then asks the first missing one or fetches the quote. */
function advance(session: Session, input: BuyState, notes: Text[], auto = true): FlowStep {
  const settled = settleAsset({ ...input, quote: undefined }, buyForm.assets, notes, auto);
  const filled = withSavedWalletAndPhone(session, settled);
  return askNextOrQuote(buyForm, session, checkWallet(filled, notes, walletProblemText), notes);
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
