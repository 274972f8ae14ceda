/**
 * What the flows ask of the capabilities beside the ramp (selling, the support desk, standing buys,
 * rate alerts) and how those answer: the payloads of their effects and effect results in ./types.ts.
 */

import type { Direction, Network, Quote, Ticket, TicketRequest, TokenInfo } from '../domain/types.js';

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
  /** `restored`: a sale put back after Redis came back empty, whose filing could not be settled. */
  | { status: 'uncertain'; hash: string; restored?: boolean }
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

/** Price charts: the span a chart covers. */
export type ChartRange = '24h' | '7d' | '30d';

/** Price charts: draw a token's buy and sell rate on a network over a range (src/charts). */
export interface ChartRequest {
  token: string;
  network: Network;
  range: ChartRange;
}

/** Price charts: what was drawn, for the caption. */
export interface ChartView extends ChartRequest {
  /** The picture in the media store; absent when fewer than two rates are kept yet. */
  ref?: string;
  /** KES per token now, and its change over the range in % (from the range's first rate kept). */
  buy?: { now: number; changePct?: number };
  sell?: { now: number; changePct?: number };
  /** Epoch ms the history begins, when that is within the range (a feed charted only lately). */
  since?: number;
}

/** Receipts: one finished order as its receipt shows it (src/receipts), money exactly as it moved. */
export interface ReceiptView {
  orderId: string;
  side: Direction;
  network: Network;
  symbol: string;
  /** The token's decimals: no amount of it moves with more. */
  decimals: number;
  /** KES the user paid, fee included (a buy), or received (a sale), as the order stored it. */
  kes: number;
  /** Tokens the user received (a buy) or sent, fee included (a sale), decimal text. */
  tokens?: string;
  /** The fee as it was charged: KES (a buy) or tokens (a sale), decimal text. */
  fee?: string;
  /** The M-Pesa receipt code. */
  mpesa?: string;
  /** The release (a buy) or the user's deposit (a sale) on chain, and its explorer page. */
  txHash?: string;
  explorerUrl?: string;
  /** Epoch ms the order finished (its final message), else when it was made. */
  at: number;
  /** The picture in the media store (absent when only the lines were asked for). */
  ref?: string;
}

/** Receipts: the receipt, or why there is none for this user and order. */
export type ReceiptOutcome =
  | { status: 'ready'; receipt: ReceiptView }
  /** `unknown`: no order of the asker's with that id; `unfinished`: still moving; `failed`: no money moved. */
  | { status: 'refused'; orderId: string; reason: 'unknown' | 'unfinished' | 'failed' };
/** Statements: a calendar month in Nairobi time (src/statements). */
export interface StatementRequest {
  year: number;
  /** 1-12. */
  month: number;
}

/** Statements: what was built for the month; the files are in the media store. */
export interface StatementView extends StatementRequest {
  /** The user's orders made in the month (none: no files). */
  orders: number;
  pdf?: { ref: string; filename: string };
  csv?: { ref: string; filename: string };
}
