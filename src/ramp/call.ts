/** The shape of one call to the ramp and of the transport that makes it (a leaf: http.ts re-exports it). */
import type { Logger } from 'pino';

/**
 * `idempotent`: safe to send again (GETs, quotes) after a timeout, a network failure or a 5xx.
 * `unsent`: creates or releases something; sent again only when the connection was refused.
 */
export type RetryRule = 'idempotent' | 'unsent';

export interface Call {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  retry: RetryRule;
  /** Which endpoint, for error reading (deposit refusals) and the log. */
  endpoint: string;
  /** The order the call is about, named in a not-found error. */
  orderId?: string;
  /** The checkout endpoint: its own base address and bearer secret. */
  checkout?: boolean;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  checkoutUrl?: string;
  checkoutSecret?: string;
  timeoutMs: number;
  retries: number;
  retryDelayMs: number;
  logger?: Logger;
}

export type Transport = (call: Call) => Promise<unknown>;
