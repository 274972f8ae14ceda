/**
 * What a user actually got of a message, told back to whoever sent it: the sender runs the send in
 * `reportingDelivery` and the channel notes, in the same async context, the language it rendered
 * and how it went (in full, or as WhatsApp's approved template outside the 24-hour window, the
 * message itself held until the user writes again, or not held when the template carried it whole).
 */

import type { Locale } from '../chat/types.js';
import { contextSlot } from '../log/context.js';

export interface Delivery {
  locale?: Locale;
  /** `full`: the message as it is; `template`: the approved template carrying its gist. */
  form?: 'full' | 'template';
  /** A template stood in: the message itself goes when the user writes again. */
  held?: boolean;
}

const reports = contextSlot<Delivery>('reports');

/** Runs `send` and returns what the channel noted of the delivery (empty when it noted nothing). */
export async function reportingDelivery(send: () => Promise<void>): Promise<Delivery> {
  const report: Delivery = {};
  await reports.run(report, send);
  return report;
}

/** Notes facts of the delivery in progress for its sender (nothing outside `reportingDelivery`). */
export function noteDelivery(facts: Delivery): void {
  const report = reports.getStore();
  if (report) Object.assign(report, facts);
}
