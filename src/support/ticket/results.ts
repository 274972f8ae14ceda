/**
 * What the user is told once the desk answers: the ticket's number (or that one exists), that an
 * agent took it over (someone else's order, or a filing that may or may not have gone through),
 * or why the ramp refused it, always with a way to a person.
 */
import type { Text } from '../../chat/types.js';
import { sideOfOrder } from '../../domain/order-id.js';
import type { FlowStep } from '../../flows/flow.js';
import { send, text } from '../../flows/flow.js';
import { menuButton } from '../../flows/menu/menu.js';
import type { Session } from '../../flows/session.js';
import type { EffectError, EffectResult } from '../../flows/types.js';
import { talkButton } from '../flow.js';
import { waitArgs } from '../limits.js';
import type { TicketState } from './state.js';

const REFUSED_ORDER = /no failed (or pending )?transaction found/i;
const MISSING_FIELDS = /provide all required inputs/i;

/** Why the ramp would not take the ticket, in the user's words, with a way to a person. */
function refusalTexts(state: TicketState, error: EffectError): Text[] {
  const message = error.message ?? '';
  const orderId = state.orderId;
  // Our own limit, before the ramp was asked: a new case (someone else's order) or a ticket.
  if (error.kind === 'rate_limited')
    return [
      text(message === 'cases' ? 'support-limited' : 'support-ticket-limited', waitArgs(error.retryInMs)),
    ];
  if (orderId && (REFUSED_ORDER.test(message) || error.kind === 'not_found')) {
    return [
      text(
        sideOfOrder(orderId) === 'onramp'
          ? 'support-ticket-refused-onramp-order'
          : 'support-ticket-refused-offramp-order',
        { orderId },
      ),
      text('support-ticket-offer-person'),
    ];
  }
  if (MISSING_FIELDS.test(message))
    return [text('support-ticket-refused-fields'), text('support-ticket-offer-person')];
  if (error.kind === 'validation' && message)
    return [
      text('support-ticket-refused', { reason: message.slice(0, 300) }),
      text('support-ticket-offer-person'),
    ];
  return [text('support-ticket-unavailable'), text('support-ticket-offer-person')];
}

/** The desk's answer to a filing, told to the user, back at the menu; undefined for any other input. */
export function filed(session: Session, state: TicketState, input: EffectResult): FlowStep | undefined {
  if (input.kind === 'support' && input.outcome.action === 'ticketManual') {
    const { caseId, orderId, uncertain } = input.outcome;
    return {
      session: { ...session, flow: { name: 'menu' } },
      effects: [
        send(
          [
            uncertain
              ? text('support-ticket-uncertain', { caseId })
              : text('support-ticket-not-owner', { orderId, caseId }),
          ],
          { buttons: [[menuButton()]] },
        ),
      ],
    };
  }
  if (input.kind === 'support' && input.outcome.action === 'fileTicket') {
    const { ticket, existing } = input.outcome;
    const orderId = input.outcome.orderId ?? state.orderId;
    const texts = orderId
      ? [
          text(existing ? 'support-ticket-existing' : 'support-ticket-filed', {
            ticketId: ticket.id,
            orderId,
          }),
        ]
      : [text('support-ticket-filed-manual', { ticketId: ticket.id })];
    texts.push(text('support-ticket-next'));
    return {
      session: { ...session, flow: { name: 'menu' } },
      effects: [send(texts, { buttons: [[talkButton(orderId)], [menuButton()]] })],
    };
  }
  if (input.kind === 'effectFailed' && input.effect === 'support') {
    return {
      session: { ...session, flow: { name: 'menu' } },
      effects: [
        send(refusalTexts(state, input.error), { buttons: [[talkButton(state.orderId)], [menuButton()]] }),
      ],
    };
  }
  return undefined;
}
