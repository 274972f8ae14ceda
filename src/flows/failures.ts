/** Localised answers to failed effects, one per error kind. */

import type { Text } from '../chat/types.js';
import { readRampRefusal, refusalCodeTextId } from '../domain/refusals.js';
import { text } from './flow.js';
import type { EffectError } from './types.js';

/** What to tell the user when an effect failed: the service is down, or the ramp's reason. */
export function failureTexts(error: EffectError): Text[] {
  switch (error.kind) {
    case 'validation': {
      // The ramp's own words never reach the user: a refusal we know is said in their language,
      // one we do not know is a plain "refused" with the way to a person.
      const refusal = error.refusal ?? readRampRefusal(error.message);
      const out = [
        !refusal
          ? text('core-error-refused-unknown')
          : refusal.code === 'amount_out_of_range' && refusal.range
            ? text('core-refused-amount-range', { min: refusal.range.min, max: refusal.range.max })
            : text(refusalCodeTextId(refusal.code)),
      ];
      if (error.supportedNetworks?.length) {
        out.push(text('core-error-supported-networks', { networks: error.supportedNetworks.join(', ') }));
      }
      return out;
    }
    case 'not_found':
      return [text('core-error-not-found')];
    case 'duplicate':
      return error.existingOrderId
        ? [text('core-error-duplicate', { orderId: error.existingOrderId })]
        : [text('core-error-refused-plain')];
    default:
      return [text('core-error-unavailable')];
  }
}

/** True when the request may have reached the service although we got no answer. */
export const mayHaveReachedService = (error: EffectError): boolean =>
  error.notSent !== true &&
  (error.kind === 'timeout' ||
    error.kind === 'network' ||
    error.kind === 'server' ||
    error.kind === 'internal');
