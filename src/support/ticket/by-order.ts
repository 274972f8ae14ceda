/**
 * A ticket about an order (`ticket:<orderId>`, `/ticket D-…`): the order id if it was not given,
 * a short description (or the default one, in one tap), then the ramp's orderID form is filed.
 */
import type { Text } from '../../chat/types.js';
import { sideOfOrder } from '../../domain/order-id.js';
import type { TicketRequest } from '../../domain/types.js';
import type { FlowStep } from '../../flows/flow.js';
import { button, navRow, send, text } from '../../flows/flow.js';
import type { Session } from '../../flows/session.js';
import { at, MAX_DESCRIPTION, MIN_DESCRIPTION, TICKET_MANUAL, type TicketState } from './state.js';

/** Asks which order (or offers the manual form for a ticket without one). */
export function askOrder(session: Session, notes: Text[] = []): FlowStep {
  return at(session, { name: 'ticket', step: 'order' }, [
    send([...notes, text('support-ticket-ask-order')], {
      buttons: [[button(TICKET_MANUAL, 'support-ticket-button-no-order')], navRow(false)],
    }),
  ]);
}

/** Asks what went wrong with the order (the default description is one tap away). */
export function askDescription(session: Session, orderId: string, notes: Text[] = []): FlowStep {
  const side = sideOfOrder(orderId);
  // A sale's example is a payout that did not come, never "I paid but got no tokens".
  const ask = side === 'offramp' ? 'support-ticket-ask-description-sale' : 'support-ticket-ask-description';
  return at(session, { name: 'ticket', step: 'describe', orderId, side }, [
    send([...notes, text(ask, { orderId })], {
      buttons: [[button('ticket:desc:default', 'support-ticket-button-default-description')], navRow(false)],
    }),
  ]);
}

/** Checks a description: trimmed, 3 to 500 characters. */
export function readDescription(input: string): { ok: true; value: string } | { ok: false; problem: Text } {
  const value = input.trim().replace(/\s+/g, ' ');
  if (value.length < MIN_DESCRIPTION)
    return { ok: false, problem: text('support-ticket-description-short', { min: MIN_DESCRIPTION }) };
  if (value.length > MAX_DESCRIPTION)
    return { ok: false, problem: text('support-ticket-description-long', { max: MAX_DESCRIPTION }) };
  return { ok: true, value };
}

/** Asks the desk to file the order's ticket with this description. */
export function fileByOrder(session: Session, state: TicketState, description: string): FlowStep {
  const orderId = state.orderId!;
  const request: TicketRequest = { side: sideOfOrder(orderId), orderId, description };
  return at(session, { ...state, step: 'filing', description }, [
    send([text('support-ticket-filing', { orderId })]),
    { type: 'support', request: { action: 'fileTicket', request } },
  ]);
}
