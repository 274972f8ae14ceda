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

import type {
  AlertsOutcome,
  AlertsRequest,
  ChartRequest,
  ChartView,
  ReceiptOutcome,
  SavingsOutcome,
  SavingsRequest,
  SellIntentRequest,
  SellLink,
  SellUpdate,
  StatementRequest,
  StatementView,
  SupportOutcome,
  SupportRequest,
} from './capability-types.js';

export type * from './capability-types.js';

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
  /** Off-ramp: the ramp's fee in tokens, part of `tokenAmount`, decimal text (for the receipt). */
  fee?: string;
  /** A standing buy's run that paid for it, "<planId>:<run number>" (absent for other orders). */
  plan?: string;
}

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
  | { type: 'alerts'; request: AlertsRequest }
  /** Price charts: a picture of a token's rates (src/charts), answered `chart`. */
  | { type: 'chart'; request: ChartRequest }
  /** Receipts: the user's finished order as a receipt (src/receipts); `picture`: draw it too. */
  | { type: 'receipt'; orderId: string; picture: boolean }
  /** Statements: the month's orders as a PDF and a CSV in the media store (src/statements). */
  | { type: 'statement'; request: StatementRequest };

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
  /** A sell's fee in tokens (part of `tokenAmount`), when the order recorded it. */
  feeToken?: string;
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
  | { kind: 'chart'; chart: ChartView }
  | { kind: 'receipt'; outcome: ReceiptOutcome }
  | { kind: 'statement'; statement: StatementView }
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
