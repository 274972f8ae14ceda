/**
 * Refund tickets. From an order (`ticket:<orderId>`, `/ticket D-…`): a short description, then the
 * ramp's orderID form. Without an order id: the manual form, field by field (side, phone, chain,
 * token, token address, wallet, amount, description), each checked before the next is asked.
 * Filing goes through the support desk, which files once per order and notes it on the case.
 *
 * The steps live under `ticket/`: the state, the order path, the manual form's questions and
 * answers, and the results. This file routes inputs to them.
 */

import { findOrderId, ORDER_ID_PATTERN } from '../../domain/order-id.js';
import type { TokenInfo } from '../../domain/types.js';
import type { FlowDef, FlowStart, FlowStep } from '../../flows/flow.js';
import { isEffectResult, send, text, unhandled } from '../../flows/flow.js';
import type { Session } from '../../flows/session.js';
import { askDescription, askOrder, fileByOrder, readDescription } from './by-order.js';
import { answerManual } from './manual-answers.js';
import { advance, stepBack } from './manual-questions.js';
import { filed } from './results.js';
import { at, defaultDescription, TICKET_MANUAL, TICKET_NEW, type TicketState } from './state.js';

export { type TicketState, ticketStateSchema } from './state.js';

function begin(session: Session, how: FlowStart): FlowStep {
  const b = how.button ?? '';
  if (b === TICKET_MANUAL) return startManual(session);
  const fromButton = b.startsWith('ticket:') ? b.slice('ticket:'.length) : undefined;
  if (fromButton && ORDER_ID_PATTERN.test(fromButton)) return askDescription(session, fromButton);
  const fromArgs = how.args ? findOrderId(how.args) : undefined;
  if (fromArgs) return askDescription(session, fromArgs);
  return askOrder(session);
}

function startManual(session: Session): FlowStep {
  return at(session, { name: 'ticket', step: 'loading' }, [{ type: 'fetchAssets' }]);
}

export const ticketFlow: FlowDef<TicketState> = {
  name: 'ticket',
  prefix: 'ticket',
  commands: ['ticket', 'tiketi', 'refund'],
  keywords: ['ticket', 'tiketi', 'refund'],
  startButtons: ['ticket:'],
  // A description takes any text, so a word like "agent" in it is not read as a keyword.
  takesFreeText: (state) => state.step === 'describe' || state.step === 'description',
  start: (session, _ctx, how) => begin(session, how),
  handle(session, state, input) {
    if (isEffectResult(input)) {
      if (state.step === 'loading' && input.kind === 'assets') {
        const assets: TokenInfo[] = input.assets.tokens;
        return advance(session, { ...state, assets });
      }
      if (state.step === 'loading' && input.kind === 'effectFailed' && input.effect === 'fetchAssets') {
        // Without the listed assets the form still works: every network, typed token addresses.
        return advance(session, { ...state, assets: [] }, [text('support-ticket-assets-unavailable')]);
      }
      if (state.step === 'filing') return filed(session, state, input) ?? unhandled(session);
      return unhandled(session);
    }
    if (input.kind === 'button' && input.id !== TICKET_MANUAL) {
      const rest = input.id.slice('ticket:'.length);
      if (input.id === TICKET_NEW || ORDER_ID_PATTERN.test(rest)) return begin(session, { button: input.id });
    }
    if (input.kind === 'button' && input.id === TICKET_MANUAL) return startManual(session);
    switch (state.step) {
      case 'order': {
        const orderId = input.kind === 'text' ? findOrderId(input.text) : undefined;
        if (orderId) return askDescription(session, orderId);
        const shown = input.kind === 'text' ? input.text.trim().slice(0, 40) : '';
        return askOrder(session, [text('support-ticket-bad-order', { text: shown })]);
      }
      case 'describe': {
        if (input.kind === 'button' && input.id === 'ticket:desc:default')
          return fileByOrder(session, state, defaultDescription(state.orderId!));
        if (input.kind !== 'text') return askDescription(session, state.orderId!);
        const d = readDescription(input.text);
        if (!d.ok) return askDescription(session, state.orderId!, [d.problem]);
        return fileByOrder(session, state, d.value);
      }
      case 'filing':
        return at(session, state, [send([text('support-ticket-wait')])]);
      case 'loading':
        return at(session, state);
      default:
        return answerManual(session, state, input);
    }
  },
  back(session, state) {
    return stepBack(session, state) ?? { session, effects: [], exit: [] };
  },
  cancel(session) {
    return { session, effects: [], exit: [text('support-ticket-cancelled')] };
  },
  orphan(session, input) {
    if (
      input.kind === 'support' &&
      (input.outcome.action === 'fileTicket' || input.outcome.action === 'ticketManual')
    ) {
      const state: TicketState = { name: 'ticket', step: 'filing', orderId: input.outcome.orderId };
      const step = filed(session, state, input);
      return step ? { ...step, session } : undefined;
    }
    return undefined;
  },
};
