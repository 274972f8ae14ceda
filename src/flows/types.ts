/**
 * The conversation contract. Flows are pure transitions `(state, input, ctx) -> { state, effects }`;
 * the engine carries out effects and feeds their results back as inputs. Nothing here imports a
 * channel, ramp, chain or storage SDK.
 */

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
} from '../domain/types.js';
import type { RampErrorKind } from '../ramp/errors.js';

export type ChannelName = 'telegram' | 'whatsapp' | 'terminal';
export type Locale = 'en' | 'sw';
export const LOCALES: readonly Locale[] = ['en', 'sw'];

/** Who we talk to: a Telegram chat id, a WhatsApp phone number, or the terminal user. */
export interface UserRef {
  channel: ChannelName;
  id: string;
}
export const userKey = (u: UserRef): string => `${u.channel}:${u.id}`;

/** A localised text: a message id from `locales/` and its arguments (user-supplied args are escaped by the channel). */
export interface Text {
  id: string;
  args?: Record<string, string | number>;
}

/** A choice. `id` travels back as a `button` input (keep it under 64 bytes); `url` makes it a link button. */
export interface Button {
  id: string;
  label: Text;
  url?: string;
}

export interface OutMessage {
  /** Paragraphs, in order. */
  texts: Text[];
  /** Rows of buttons. Channels without buttons print them as a numbered menu. */
  buttons?: Button[][];
  /** Offer the "share my phone number" contact button where the channel has one. */
  requestPhone?: boolean;
  /** Messages with the same key replace each other where the channel can edit (e.g. `order:D-…`). */
  replaceKey?: string;
}

/** What the user saved: the M-Pesa phone and one wallet per network. */
export interface Profile {
  phone?: string;
  wallets: Partial<Record<Network, string>>;
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
  /** Tokens expected (on-ramp) or sent (off-ramp), decimal text. */
  tokenAmount?: string;
  /** 254XXXXXXXXX: the payer (on-ramp) or the recipient (off-ramp). */
  phone: string;
  /** Epoch ms when the order was created. */
  createdAt: number;
  /** Off-ramp: the on-chain transaction that funded it. */
  txHash?: string;
}

/** Support: what a flow asks of the support desk. */
export type SupportRequest =
  /** Opens the user's case (about `orderId`, or general), reopening a recently closed one. */
  | { action: 'open'; orderId?: string }
  /** A message from the user for the agents of their case (opened or reopened when needed). */
  | { action: 'relay'; text: string; caseId?: string; orderId?: string }
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
    }
  | { action: 'fileTicket'; ticket: Ticket; orderId?: string; existing: boolean }
  | { action: 'closed'; caseId: string; orderId?: string; message: string };

/** Serializable description of a failed effect. */
export interface EffectError {
  kind: RampErrorKind | 'internal';
  message?: string;
  supportedNetworks?: string[];
  existingOrderId?: string;
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
      track: Omit<TrackedOrder, 'orderId' | 'createdAt'>;
    }
  | { type: 'fetchHistory'; side: Direction; address: string; page: number }
  | { type: 'createTicket'; request: TicketRequest }
  /** Support: asks the support desk (src/support) to open a case, relay a message or file a ticket. */
  | { type: 'support'; request: SupportRequest };

/** Inputs produced by carrying out effects. */
export type EffectResult =
  | { kind: 'assets'; assets: ListedAssets }
  | { kind: 'quote'; quote: Quote; purpose: string }
  | { kind: 'onrampCreated'; orderId: string; idempotencyKey: string }
  | { kind: 'history'; side: Direction; page: HistoryPage }
  | { kind: 'ticketCreated'; ticket: Ticket }
  | { kind: 'support'; outcome: SupportOutcome }
  | { kind: 'effectFailed'; effect: Effect['type']; error: EffectError; purpose?: string };

export type Input =
  | { kind: 'text'; text: string }
  | { kind: 'command'; command: string; args: string }
  | { kind: 'button'; id: string }
  | { kind: 'contact'; phone: string }
  | EffectResult;

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
