/**
 * The conversation contract. Flows are pure transitions `(state, input, ctx) -> { state, effects }`;
 * the engine carries out effects and feeds their results back as inputs. Nothing here imports a
 * channel, ramp, chain or storage SDK.
 */

import type { ChatInput, Locale, OutMessage, UserRef } from '../chat/types.js';
import type { RampErrorKind } from '../domain/refusals.js';
import type {
  CreateOnrampOrder,
  Direction,
  HistoryPage,
  ListedAssets,
  Network,
  Quote,
  QuoteRequest,
  Ticket,
  TicketRequest,
  TokenInfo,
} from '../domain/types.js';

/** What the user saved: the M-Pesa phone and one wallet per network. */
export interface Profile {
  phone?: string;
  wallets: Partial<Record<Network, string>>;
  /** The user's own M-Pesa number as the channel proved it (Telegram contact share, WhatsApp sender). */
  ownPhone?: string;
  /** Every typed number counts as the user's own (the terminal chat). */
  ownsTypedPhones?: boolean;
  /** The user's latest sale (intent id): a hash pasted once that flow is over is checked against it. */
  lastSellIntent?: string;
  /** The latest sale whose outcome the user was told: a progress note of it arriving later is dropped. */
  lastSellEnded?: string;
  /** The token and network of the user's last buy: a plain Buy starts from them. */
  lastBuy?: { token: string; network: Network };
  /** The latest sale's signing link while it may be live (see profileSchema). */
  liveSale?: {
    intentId: string;
    signUrl: string;
    expiresAt: number;
    network: Network;
    token: string;
    total: string;
    devSign?: boolean;
  };
  /** The latest STK push of this chat, to tell a second push to the same waiting number why. */
  lastPush?: { phone: string; orderId: string; at: number };
  /** The user chose the language: a Kiswahili word no longer switches it (flows/language.ts). */
  localeChosen?: boolean;
  /** The user was shown the welcome. */
  welcomed?: boolean;
}

/** An order the tracker follows until it is final. */
export interface TrackedOrder {
  orderId: string;
  side: Direction;
  user: UserRef;
  network: Network;
  /** On-ramp: where tokens go. Off-ramp: the wallet that sent them. */
  walletAddress: string;
  token: { symbol: string; address: string; decimals: number };
  amountKes: number;
  /** On-ramp: the KES the user pays, fee included (the summary's "You pay"), when known. */
  paidKes?: number;
  /** Tokens expected (on-ramp) or sent (off-ramp), decimal text. */
  tokenAmount?: string;
  /** 254XXXXXXXXX: the payer (on-ramp) or the recipient (off-ramp). */
  phone: string;
  /** Epoch ms when the order was created. */
  createdAt: number;
  /** Off-ramp: the on-chain transaction that funded it. */
  txHash?: string;
  /** A standing buy's run that paid for it, "<planId>:<run number>" (absent for other orders). */
  plan?: string;
}

/** Sell: what the flow binds to an intent on Confirm; nothing later may change it. */
export interface SellIntentRequest {
  network: Network;
  token: { symbol: string; address: string; decimals: number };
  /**
   * Tokens the seller sends, fee included, decimal text: the quote's `inputAmount` (the ramp deducts
   * its fee from the gross KES of these tokens, reference §2.1/§4).
   */
  total: string;
  /** The ramp's fee in tokens, part of `total`, decimal text (the quote's fee amount). */
  fee: string;
  /** KES the recipient should get (the quote's estimate). */
  amountKes: number;
  exchangeRate: number;
  /** 254XXXXXXXXX: the M-Pesa number the payout goes to. */
  phone: string;
  /** The wallet that must send, when the user named one. */
  wallet?: string;
}

/** Sell: where the user signs, as the effect handler made it. */
export interface SellLink {
  intentId: string;
  /** Epoch ms. */
  expiresAt: number;
  /** Tokens to send including the fee, decimal text. */
  total: string;
  signUrl: string;
  /** Wallet deep links (https only; absent when the page is not on https). */
  metamaskUrl?: string;
  trustUrl?: string;
  algorand?: { uri: string; peraUrl: string; qrUrl: string; note: string; receiver: string };
  /** Algorand: why the named sender cannot pay yet. */
  senderProblem?: 'not_opted_in' | 'asset_frozen' | 'insufficient_algo' | 'insufficient_asset';
  /** Local dev chain: the server can sign with the dev wallet. */
  devSign?: boolean;
}

/** Sell: what became of a reported transaction (or of the intent itself). */
export type SellUpdate =
  /** `unseen`: the chain does not know the transaction (yet); it is still looked for a while. */
  | { status: 'checking'; hash: string; unseen?: boolean; network?: Network }
  /** `afterCancel`: the payment arrived after the user cancelled the sale; it is paid out all the same. */
  | { status: 'filed'; hash: string; orderId: string; existing: boolean; afterCancel?: boolean }
  | { status: 'refused'; reason: string; hash?: string; escalated: boolean }
  | { status: 'uncertain'; hash: string }
  | { status: 'expired' }
  | { status: 'cancelled' }
  /** Cancel came too late: a verified payment is already being filed (and will be paid out). */
  | { status: 'cancel-too-late' }
  /** The sale's link died with Redis (it came back empty) and no deposit for it was found. */
  | { status: 'lost' };

/** Support: what a flow asks of the support desk. */
export type SupportRequest =
  /** Opens the user's case (about `orderId`, or general), reopening a recently closed one. */
  | { action: 'open'; orderId?: string }
  /** A message from the user for the agents of their case (opened or reopened when needed). */
  | { action: 'relay'; text: string; caseId?: string; orderId?: string }
  /**
   * Text typed at the menu that nothing recognised: relayed to the user's open case (or one closed
   * within the reopen window, reopened); answered `noCase` when there is none.
   */
  | { action: 'relayIfOpen'; text: string }
  /** Files a ramp ticket (once per order id) and notes it on the user's case. */
  | { action: 'fileTicket'; request: TicketRequest };

/** Support: how the desk answered, or (`closed`) what it tells the flow when an agent closed a case. */
export type SupportOutcome =
  | {
      action: 'open' | 'relay';
      caseId: string;
      orderId?: string;
      /** `opened`: a new case; `reopened`: a closed one within the reopen window; `existing`: already open. */
      status: 'opened' | 'reopened' | 'existing';
      /** True when agents work in a support chat; false when cases are only stored and logged. */
      desk: boolean;
      /** The text was typed at the menu, outside the support chat (`relayIfOpen`). */
      unasked?: boolean;
    }
  /** `relayIfOpen` found no case to take the text. */
  | { action: 'noCase' }
  | { action: 'fileTicket'; ticket: Ticket; orderId?: string; existing: boolean }
  /** The order is not the requester's: no ramp ticket, a case for an agent to look at by hand. */
  /** `uncertain`: the ramp's answer may hide a filed ticket; an agent checks. */
  | { action: 'ticketManual'; caseId: string; orderId: string; desk: boolean; uncertain?: boolean }
  /** `message`: the agent's words to the user; without one, a plain "resolved". */
  | { action: 'closed'; caseId: string; orderId?: string; message?: string };

/** Savings: a standing buy as the flow shows it. */
export interface PlanView {
  id: string;
  amountKes: number;
  token: string;
  network: Network;
  wallet: string;
  /** The cadence in its stored form ("w5@9", "m1@9", "d@9"; see src/savings/schedule.ts). */
  cadence: string;
  status: 'active' | 'paused';
  /** Epoch ms of the next run (active plans). */
  nextDue?: number;
  /** Runs so far. */
  runs: number;
  /** The latest runs, newest first: their number, period and what became of them. */
  recent: Array<{ no: number; period: string; status: SavingsRunStatus; orderId?: string }>;
}

/** What became of one run of a standing buy. */
export type SavingsRunStatus = 'sent' | 'paid' | 'skipped' | 'missed';

/** What the savings flow asks of the plans' store (src/savings). */
export type SavingsRequest =
  | {
      action: 'create';
      plan: {
        amountKes: number;
        token: string;
        network: Network;
        wallet: string;
        phone: string;
        cadence: string;
      };
    }
  | { action: 'list' }
  /** The runs of the user's plans that bought nothing (skipped, missed), for /history. */
  | { action: 'runs' }
  | { action: 'pause' | 'resume' | 'cancel'; planId: string }
  | { action: 'change'; planId: string; amountKes?: number; cadence?: string }
  /** Pay now: checks the run is open and the plan still valid, then takes a fresh quote. */
  | { action: 'pay'; planId: string; runId: string }
  | { action: 'skip'; planId: string; runId: string }
  /** The run's STK push was sent: its order is noted on the run. */
  | { action: 'paid'; planId: string; runId: string; orderId: string };

/** How the plans' store answered. */
export type SavingsOutcome =
  | { action: 'created'; plan: PlanView }
  | { action: 'list'; plans: PlanView[] }
  | {
      action: 'runs';
      runs: Array<{ no: number; period: string; status: SavingsRunStatus; token: string; amountKes: number }>;
    }
  | { action: 'updated'; change: 'pause' | 'resume' | 'cancel' | 'change'; plan: PlanView }
  | { action: 'tooMany'; max: number }
  | { action: 'notFound' }
  /** The run is open: pay it with this quote (and token) to this phone. */
  | {
      action: 'payReady';
      plan: PlanView;
      runId: string;
      runNo: number;
      phone: string;
      quote: Quote;
      token: TokenInfo;
    }
  /** The run cannot be paid: its window passed, or it was skipped, missed or paid already. */
  | { action: 'runClosed'; reason: 'passed' | 'skipped' | 'paid'; orderId?: string }
  | { action: 'skipped'; plan: PlanView; runNo: number }
  /** The plan's wallet, phone or token is no longer valid: it was paused. */
  | { action: 'invalid'; plan: PlanView; problem: 'wallet' | 'phone' | 'token' }
  | { action: 'noted' };

/** Rate alerts: which side of a level the rate must reach (below: the buy rate; above: the sell rate). */
export type AlertSide = 'below' | 'above';

/** One rate alert as the user sees it. */
export interface AlertView {
  /** Slot number 1..10 within the user's alerts. */
  slot: number;
  token: string;
  network: Network;
  side: AlertSide;
  /** KES per token. */
  level: number;
  /** Epoch ms. */
  expiresAt: number;
}

/** Rate alerts: what a flow asks of the alert store (src/alerts). */
export type AlertsRequest =
  | { action: 'set'; token: string; network: Network; side: AlertSide; level: number; slot?: number }
  | { action: 'list' }
  | { action: 'delete'; slot: number }
  | { action: 'renew'; slot: number };

/** Rate alerts: how the store answered. */
export type AlertsOutcome =
  | { action: 'set'; alert: AlertView; changed: boolean }
  /** The user already has the most alerts allowed. */
  | { action: 'full'; max: number }
  | { action: 'list'; alerts: AlertView[] }
  | { action: 'deleted'; slot: number }
  | { action: 'renewed'; alert: AlertView }
  /** The slot named holds no alert (deleted or expired meanwhile). */
  | { action: 'missing'; slot: number };

/** Serializable description of a failed effect. */
export interface EffectError {
  /** `rate_limited`: refused by our own limits (src/limits) before anything was sent. */
  kind: RampErrorKind | 'internal' | 'rate_limited';
  message?: string;
  /** rate_limited: how long until the action is allowed again. */
  retryInMs?: number;
  supportedNetworks?: string[];
  existingOrderId?: string;
  /** network: no connection was ever made, so the ramp surely never got the request. */
  notSent?: boolean;
  /** validation: what the ramp's refusal means, when it is one we know (src/ramp/refusals). */
  refusal?: { code: string; range?: { min: number; max: number } };
}

export type Effect =
  | { type: 'send'; message: OutMessage }
  | { type: 'fetchAssets' }
  | { type: 'fetchQuote'; request: QuoteRequest; purpose: string }
  /**
   * Sends the STK push once per `idempotencyKey`, then starts tracking `track` with the new order id.
   * A second effect with the same key never reaches the ramp.
   */
  | {
      type: 'createOnrampOrder';
      request: CreateOnrampOrder;
      idempotencyKey: string;
      /** The push goes to a number not proven the user's own: rate limited per phone and user. */
      thirdParty?: boolean;
      track: Omit<TrackedOrder, 'orderId' | 'createdAt'>;
    }
  | { type: 'fetchHistory'; side: Direction; address: string; page: number }
  /** The caller's own orders (made through rampchat), newest first, with their real outcomes. */
  | { type: 'fetchOwnOrders'; page: number; limit: number }
  | { type: 'createTicket'; request: TicketRequest }
  /** Sell: the tokens and networks selling is configured for (listed assets ∩ escrow config). */
  | { type: 'sellOptions' }
  /** Sell: binds the request to a new intent and its signing link, once per `key`. */
  | { type: 'sellCreateIntent'; key: string; request: SellIntentRequest }
  /** Sell: a hash the user pasted in chat; verified before anything is filed. */
  | { type: 'sellReportHash'; intentId: string; hash: string }
  /** Sell, local dev chain only: the server signs with the dev wallet. */
  | { type: 'sellDevSign'; intentId: string }
  /** Sell: kills the signing link of an intent no hash was reported for. */
  | { type: 'sellCancelIntent'; intentId: string }
  /** Support: asks the support desk (src/support) to open a case, relay a message or file a ticket. */
  | { type: 'support'; request: SupportRequest }
  /** Savings: asks the standing buys' store (src/savings) to create, list, change or pay a plan. */
  | { type: 'savings'; request: SavingsRequest }
  /** Rate alerts: set, list, delete or renew the user's alerts (src/alerts). */
  | { type: 'alerts'; request: AlertsRequest };

/** What became of an order as far as rampchat knows it. */
export type OrderOutcome = 'completed' | 'failed' | 'cancelled' | 'pending' | 'support';

/** One of the user's own orders, as `/history` shows it. */
export interface OwnOrder {
  orderId: string;
  side: Direction;
  /** Epoch ms. */
  createdAt: number;
  network: Network;
  symbol: string;
  /** KES of the purchase as the chat said it (buy, fee not included) or to be received (sell). */
  amountKes: number;
  /** A buy's KES paid, fee included, when known. */
  paidKes?: number;
  tokenAmount?: string;
  outcome: OrderOutcome;
  receipt?: string;
  txHash?: string;
  /** Paid by a standing buy's run: its number ("standing buy, run 3"). */
  planRun?: number;
}

export interface OwnOrdersPage {
  orders: OwnOrder[];
  page: number;
  totalPages: number;
}

/** Inputs produced by carrying out effects. */
export type EffectResult =
  | { kind: 'assets'; assets: ListedAssets }
  | { kind: 'quote'; quote: Quote; purpose: string }
  | { kind: 'onrampCreated'; orderId: string; idempotencyKey: string }
  | { kind: 'history'; side: Direction; page: HistoryPage }
  | { kind: 'ownOrders'; page: OwnOrdersPage }
  | { kind: 'ticketCreated'; ticket: Ticket }
  | { kind: 'sellOptions'; tokens: TokenInfo[] }
  | { kind: 'sellIntent'; key: string; link: SellLink }
  | { kind: 'sellUpdate'; intentId: string; update: SellUpdate }
  | { kind: 'support'; outcome: SupportOutcome }
  | { kind: 'savings'; outcome: SavingsOutcome }
  | { kind: 'alerts'; outcome: AlertsOutcome }
  /** The tracker posted an order's final message: a flow still waiting on that order is over. */
  | { kind: 'orderFinal'; orderId: string }
  | { kind: 'effectFailed'; effect: Effect['type']; error: EffectError; purpose?: string };

/** What a flow reads: a chat input, or the result of an effect the engine carried out. */
export type Input = ChatInput | EffectResult;

/** What a transition may read besides its state and input. Keeps transitions pure. */
export interface FlowContext {
  /** Epoch ms. */
  now: number;
  user: UserRef;
  config: {
    rateTolerancePct: number;
    project: string;
  };
}

export interface Step<S> {
  state: S;
  effects: Effect[];
}

export type Transition<S> = (state: S, input: Input, ctx: FlowContext) => Step<S>;

/** What every persisted session carries, whatever the flow. Flows extend it. */
export interface SessionBase {
  /** Schema version of the persisted JSON. */
  v: number;
  locale: Locale;
  profile: Profile;
}
