/**
 * Typed errors of the ramp client. Every failure of a ramp call is one of these, so callers
 * switch on `kind` and never parse messages themselves.
 */

import type { RampErrorKind } from '../domain/refusals.js';

export type { RampErrorKind };

/**
 * Why a deposit (crypto release) was refused, read from the service's message:
 * `pending` ("STK push payment is being processed"), `payment_failed` ("Payment failed"),
 * `already_processed` ("has already been processed").
 */
export type DepositRefusal = 'pending' | 'payment_failed' | 'already_processed';

export interface RampErrorOptions {
  /** HTTP status, when the service answered. */
  status?: number;
  /** The service's message, verbatim. */
  serviceMessage?: string;
  cause?: unknown;
}

export class RampError extends Error {
  override name = 'RampError';
  readonly kind: RampErrorKind;
  readonly status?: number;
  readonly serviceMessage?: string;

  constructor(kind: RampErrorKind, message: string, opts: RampErrorOptions = {}) {
    super(message, { cause: opts.cause });
    this.kind = kind;
    this.status = opts.status;
    this.serviceMessage = opts.serviceMessage;
  }
}

export class RampUnauthorizedError extends RampError {
  override name = 'RampUnauthorizedError';
  constructor(opts: RampErrorOptions = {}) {
    super(
      'unauthorized',
      'The ramp service refused our credentials (check RAMP_API_KEY and RAMP_API_SECRET).',
      opts,
    );
  }
}

export class RampValidationError extends RampError {
  override name = 'RampValidationError';
  /** Networks the service says it supports, when the body lists them. */
  readonly supportedNetworks?: string[];
  /** Set when a deposit was refused for a known reason. */
  readonly depositRefusal?: DepositRefusal;
  constructor(
    message: string,
    opts: RampErrorOptions & { supportedNetworks?: string[]; depositRefusal?: DepositRefusal } = {},
  ) {
    super('validation', message, opts);
    this.supportedNetworks = opts.supportedNetworks;
    this.depositRefusal = opts.depositRefusal;
  }
}

export class RampDuplicateError extends RampError {
  override name = 'RampDuplicateError';
  /** The order the service already filed for this transaction hash. */
  readonly existingOrderId: string;
  constructor(existingOrderId: string, opts: RampErrorOptions = {}) {
    super('duplicate', `This transaction was already filed as order ${existingOrderId}.`, opts);
    this.existingOrderId = existingOrderId;
  }
}

export class RampNotFoundError extends RampError {
  override name = 'RampNotFoundError';
  readonly orderId?: string;
  constructor(message: string, opts: RampErrorOptions & { orderId?: string } = {}) {
    super('not_found', message, opts);
    this.orderId = opts.orderId;
  }
}

export class RampServerError extends RampError {
  override name = 'RampServerError';
  constructor(message: string, opts: RampErrorOptions = {}) {
    super('server', message, opts);
  }
}

export class RampTimeoutError extends RampError {
  override name = 'RampTimeoutError';
  constructor(message: string, opts: RampErrorOptions = {}) {
    super('timeout', message, opts);
  }
}

/**
 * The request did not complete. `delivered` says whether the service may have received it:
 * false only when the connection was refused before anything was sent.
 */
export class RampNetworkError extends RampError {
  override name = 'RampNetworkError';
  readonly delivered: boolean;
  constructor(message: string, opts: RampErrorOptions & { delivered: boolean }) {
    super('network', message, opts);
    this.delivered = opts.delivered;
  }
}

export const isRampError = (e: unknown): e is RampError => e instanceof RampError;
