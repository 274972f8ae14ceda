/**
 * Domain types shared by every capability. The ramp client normalises both API generations
 * into these; flows, the tracker and the channels only ever see these.
 */

export const NETWORKS = ['polygon', 'lisk', 'celo', 'base', 'scroll', 'algorand'] as const;
export type Network = (typeof NETWORKS)[number];
export const EVM_NETWORKS = ['polygon', 'lisk', 'celo', 'base', 'scroll'] as const;
export type EvmNetwork = (typeof EVM_NETWORKS)[number];

export type Direction = 'onramp' | 'offramp';
export type FeeCategory = 'B2C' | 'B2B';

/** Final or not; CANCELLED only ever comes from the legacy generation. */
export type OrderStatus = 'PENDING' | 'SUCCESS' | 'FAILED' | 'CANCELLED';

/** A token the ramp lists. `address` is the contract (zero address = native) or, on Algorand, the ASA id. */
export interface TokenInfo {
  network: Network;
  symbol: string;
  name: string;
  decimals: number;
  address: string;
}

export interface ListedAssets {
  networks: Network[];
  fiat: string[];
  tokens: TokenInfo[];
}

/**
 * On-ramp: `amount` is the KES paid. Off-ramp: either `fiatAmount` (KES to receive, current generation)
 * or `amount` (tokens to send, as the public examples and the legacy generation do).
 */
export interface QuoteRequest {
  type: Direction;
  network: Network;
  token: string;
  fiatCurrency: 'KES';
  amount?: string;
  fiatAmount?: string;
  category?: FeeCategory;
}

export interface Quote {
  type: Direction;
  network: Network;
  /** KES for on-ramp; for off-ramp the tokens the seller sends, the ramp's fee included (its KES fee comes out of their gross value, reference §2.1/§4). Decimal text. */
  inputAmount: string;
  inputCurrency: string;
  /** Tokens for on-ramp; gross KES for off-ramp. Decimal text. */
  outputAmount: string;
  outputCurrency: string;
  /** KES per token unit. */
  exchangeRate: number;
  fee: {
    /** Fee in tokens, decimal text (off-ramp: the escrow call's fee amount). */
    amount: string;
    currency?: string;
    /** Fee in KES. */
    kes: number;
  };
  /** Off-ramp: KES the recipient gets. On-ramp: KES charged including the fee. */
  estimatedOutputKes?: number;
  limits?: { min: number; max: number; currency: string };
  /** When the client received it (ISO 8601). */
  receivedAt: string;
}

export interface CreateOnrampOrder {
  /** 254XXXXXXXXX */
  phone: string;
  amountKes: number;
  userAddress: string;
  tokenAddress: string;
}

export interface CreatedOrder {
  orderId: string;
  message?: string;
}

export interface OnrampOrderState {
  orderId: string;
  status: OrderStatus;
  message?: string;
  phone?: string;
  /** The 10-character M-Pesa receipt; only once SUCCESS. */
  receipt?: string;
  /** The M-Pesa checkout request id (`ws_CO_…`) the service shows while not SUCCESS. */
  checkoutRequestId?: string;
  transactionDate?: string;
  resultDescription?: string;
}

export interface CreateOfframpOrder {
  chain: Network;
  hash: string;
  /** 254XXXXXXXXX */
  phone: string;
  tokenAddress: string;
  userAddress: string;
  project: string;
}

export interface OfframpOrderState {
  orderId: string;
  status: OrderStatus;
  message?: string;
  phone?: string;
  receiverName?: string;
  amountKes?: string;
  initiatedAt?: string;
  completedAt?: string;
  receipt?: string;
  failureReason?: string;
  resultCode?: string;
}

export interface DepositRequest {
  chain: Network;
  address: string;
  orderId: string;
  project: string;
}

export interface DepositResult {
  hash: string;
  message?: string;
  createdAt?: string;
  updatedAt?: string;
}

export interface ManualTicketFields {
  phone: string;
  amount: string;
  description: string;
  userAddress: string;
  symbol: string;
  tokenAddress: string;
  chain: string;
}

export type TicketRequest =
  | { side: Direction; orderId: string; description: string; symbol?: string; chain?: string }
  | ({ side: Direction } & ManualTicketFields);

export interface Ticket {
  id: string;
  phone?: string;
  amount?: string;
  description?: string;
  side?: string;
  userAddress?: string;
  symbol?: string;
  tokenAddress?: string;
  chain?: string;
  createdAt?: string;
}

export interface HistoryRecord {
  id: string;
  orderId?: string;
  side: Direction;
  kesAmount?: number;
  cryptoAmount?: string;
  symbol?: string;
  chain?: string;
  receipt?: string;
  txHash?: string;
  phone?: string;
  createdAt?: string;
  resultDescription?: string;
}

export interface HistoryPage {
  records: HistoryRecord[];
  page: number;
  limit: number;
  totalPages: number;
  totalCount: number;
}

export interface CheckoutSessionRequest {
  amount: number;
  currency: string;
  customer: { email: string; phone: string };
  metadata: { order_id: string };
}

/** The checkout response is not documented; the client keeps what it can read. */
export interface CheckoutSession {
  id?: string;
  url?: string;
  raw: unknown;
}
