import { readRampRefusal } from '../domain/refusals.js';
import type { Effect, EffectError, EffectResult } from '../flows/types.js';
import { isRampError, RampDuplicateError, RampNetworkError, RampValidationError } from '../ramp/errors.js';

/** Maps anything an effect threw to the serializable error a flow receives. */
export function toEffectError(error: unknown): EffectError {
  if (!isRampError(error)) return { kind: 'internal', message: 'internal error' };
  const out: EffectError = { kind: error.kind, message: error.message };
  const refusal = error.kind === 'validation' ? readRampRefusal(error.message) : undefined;
  if (refusal) out.refusal = refusal;
  if (error instanceof RampValidationError && error.supportedNetworks)
    out.supportedNetworks = [...error.supportedNetworks];
  if (error instanceof RampDuplicateError) out.existingOrderId = error.existingOrderId;
  if (error instanceof RampNetworkError && !error.delivered) out.notSent = true;
  return out;
}

/**
 * True when the ramp surely did not act on the request (it refused it, or the connection failed
 * before anything was sent), so the same idempotency key may be tried again.
 */
export function surelyNotActedOn(error: unknown): boolean {
  if (!isRampError(error)) return false;
  if (error instanceof RampNetworkError) return !error.delivered;
  return error.kind === 'validation' || error.kind === 'unauthorized';
}

export function effectFailed(effectType: string, error: EffectError, purpose?: string): EffectResult {
  const effect = effectType as Effect['type'];
  return purpose === undefined
    ? { kind: 'effectFailed', effect, error }
    : { kind: 'effectFailed', effect, error, purpose };
}

/** Thrown when a session kept changing under us for too many attempts. */
export class SaveConflictError extends Error {
  override name = 'SaveConflictError';
  constructor(attempts: number) {
    super(`The session changed concurrently ${attempts} times in a row; giving up on this input.`);
  }
}
