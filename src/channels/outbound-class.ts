/**
 * What a channel-neutral message is to its user, for the outbound line's order (src/outbound): the
 * answer to what they just did, an order's outcome (and any other notice), or an order's progress.
 * Every channel sends by it, so the same message has the same place on Telegram and WhatsApp.
 */
import type { OutMessage } from '../chat/types.js';
import type { OutboundClass } from '../outbound/index.js';

/** The class of `message` on the outbound line. */
export function classOfMessage(message: OutMessage): OutboundClass {
  if (message.outcome) return 'outcome';
  if (message.replaceKey) return 'progress';
  return message.notice ? 'outcome' : 'reply';
}
