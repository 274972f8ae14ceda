import type {
  CheckoutSession,
  CheckoutSessionRequest,
  CreatedOrder,
  CreateOfframpOrder,
  CreateOnrampOrder,
  DepositRequest,
  DepositResult,
  Direction,
  HistoryPage,
  ListedAssets,
  OfframpOrderState,
  OnrampOrderState,
  Quote,
  QuoteRequest,
  Ticket,
  TicketRequest,
} from '../domain/types.js';

/**
 * The ramp service, whichever path generation answers. Every method rejects with a `RampError`
 * (see ./errors.ts). Methods that create or release something are never retried once sent.
 */
export interface RampClient {
  getQuote(request: QuoteRequest): Promise<Quote>;
  listAssets(): Promise<ListedAssets>;
  /** Sends the M-Pesa STK push. */
  createOnrampOrder(request: CreateOnrampOrder): Promise<CreatedOrder>;
  getOnrampStatus(orderId: string): Promise<OnrampOrderState>;
  /** Releases the crypto of a paid on-ramp order. Never retried once sent. */
  deposit(request: DepositRequest): Promise<DepositResult>;
  createOfframpOrder(request: CreateOfframpOrder): Promise<CreatedOrder>;
  getOfframpStatus(orderId: string): Promise<OfframpOrderState>;
  createTicket(request: TicketRequest): Promise<Ticket>;
  getHistory(
    side: Direction,
    userAddress: string,
    page?: { page?: number; limit?: number },
  ): Promise<HistoryPage>;
  createCheckoutSession(request: CheckoutSessionRequest): Promise<CheckoutSession>;
}
