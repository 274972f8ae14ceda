/**
 * "Talk to a person": opens (or reopens) the user's support case and puts the chat in relay mode,
 * where every text goes to the case's agents. Leaving with /menu, "menu" or cancel ends relay mode
 * only; the case stays open for the agents, whose replies still reach the user.
 */
import * as z from 'zod';
import type { Text } from '../chat/types.js';
import { findOrderId, ORDER_ID_PATTERN } from '../domain/order-id.js';
import type { FlowDef, FlowStep } from '../flows/flow.js';
import { button, at as flowAt, isEffectResult, send, text, unhandled } from '../flows/flow.js';
import { menuButton } from '../flows/menu/menu.js';
import type { Session } from '../flows/session.js';
import type { EffectResult, SupportOutcome } from '../flows/types.js';
import { waitArgs } from './limits.js';

export const supportStateSchema = z.object({
  name: z.literal('support'),
  /** `opening`: the desk was asked to open the case; `relay`: texts go to the case. */
  step: z.enum(['opening', 'relay']),
  caseId: z.string().min(1).max(64).optional(),
  orderId: z.string().regex(ORDER_ID_PATTERN).optional(),
});
export type SupportState = z.infer<typeof supportStateSchema>;

/** Button ids: talk to a person in general, about an order, or answer an agent's message. */
export const SUPPORT_OPEN = 'support:open';
export const supportOrderButtonId = (orderId: string): string => `support:order:${orderId}`;
export const supportReplyButtonId = (caseId: string): string => `support:reply:${caseId}`;

/** The longest user message relayed (Telegram's own limit); the topic gets it in as many parts as needed. */
export const MAX_RELAY_CHARS = 4096;

/** "Talk to a person" about an order (or in general). */
export const talkButton = (orderId?: string) =>
  button(orderId ? supportOrderButtonId(orderId) : SUPPORT_OPEN, 'support-button-talk');

const at = flowAt<SupportState>;

const leaveButtons = () => [[menuButton()]];

function opened(session: Session, state: SupportState, outcome: Extract<SupportOutcome, { status: string }>) {
  const texts: Text[] = [];
  if (outcome.status === 'reopened') texts.push(text('support-case-reopened', { caseId: outcome.caseId }));
  if (outcome.status === 'existing') texts.push(text('support-case-existing', { caseId: outcome.caseId }));
  const about = outcome.orderId ? { caseId: outcome.caseId, orderId: outcome.orderId } : undefined;
  if (outcome.desk)
    texts.push(
      about ? text('support-connected-order', about) : text('support-connected', { caseId: outcome.caseId }),
    );
  else
    texts.push(
      about ? text('support-recorded-order', about) : text('support-recorded', { caseId: outcome.caseId }),
    );
  texts.push(text('support-relay-hint'));
  return at(session, { ...state, step: 'relay', caseId: outcome.caseId, orderId: outcome.orderId }, [
    send(texts, { buttons: leaveButtons() }),
  ]);
}

function closedMessage(outcome: Extract<SupportOutcome, { action: 'closed' }>): Text[] {
  const { orderId, message } = outcome;
  const said = message
    ? orderId
      ? text('support-resolved-order', { orderId, message })
      : text('support-resolved', { message })
    : orderId
      ? text('support-resolved-order-plain', { orderId })
      : text('support-resolved-plain');
  return [said, text('support-resolved-hint')];
}

function fromResult(session: Session, state: SupportState, input: EffectResult): FlowStep {
  if (input.kind === 'support') {
    const o = input.outcome;
    if (o.action === 'open') return opened(session, state, o);
    if (o.action === 'relay') {
      const next: SupportState = { ...state, step: 'relay', caseId: o.caseId, orderId: o.orderId };
      // Every message is acknowledged, so the user knows it reached a person's queue (or, with no
      // support chat wired, only their case: nobody is told it went to a team that is not there).
      const sent = !o.desk
        ? text('support-relay-recorded', { caseId: o.caseId })
        : text('support-relay-sent');
      if (o.status === 'existing') return at(session, next, [send([sent])]);
      const note =
        o.status === 'reopened'
          ? text('support-case-reopened', { caseId: o.caseId })
          : text('support-case-new', { caseId: o.caseId });
      return at(session, next, [send([note, sent])]);
    }
    // Sent on the agent's word, not in answer to the user: outside WhatsApp's window the template
    // carrying the closing words is enough, and they are not held to arrive a second time.
    if (o.action === 'closed')
      return { session, effects: [], exit: closedMessage(o), exitAs: { templateSuffices: true } };
    return unhandled(session);
  }
  if (input.kind === 'effectFailed' && input.effect === 'support') {
    // Too many new cases lately: nothing opened; how long to wait, and that open cases still work.
    if (input.error.kind === 'rate_limited')
      return { session, effects: [], exit: [text('support-limited', waitArgs(input.error.retryInMs))] };
    if (state.step === 'opening')
      return {
        session,
        effects: [],
        exit: [text('support-open-failed')],
      };
    return at(session, state, [send([text('support-relay-failed')], { buttons: leaveButtons() })]);
  }
  return unhandled(session);
}

/** What a button or command asked for: an order, a case to answer, or support in general. */
function target(how: { button?: string; args?: string }): { orderId?: string; caseId?: string } {
  const b = how.button ?? '';
  if (b.startsWith('support:order:')) {
    const orderId = b.slice('support:order:'.length);
    return ORDER_ID_PATTERN.test(orderId) ? { orderId } : {};
  }
  if (b.startsWith('support:reply:')) return { caseId: b.slice('support:reply:'.length) || undefined };
  const orderId = how.args ? findOrderId(how.args) : undefined;
  return orderId ? { orderId } : {};
}

export const supportFlow: FlowDef<SupportState> = {
  name: 'support',
  prefix: 'support',
  commands: ['support', 'agent', 'wakala'],
  keywords: ['support', 'agent', 'person', 'human', 'wakala', 'mhudumu'],
  globalKeywords: ['support', 'agent', 'person', 'wakala', 'mhudumu'],
  startButtons: ['support:'],
  start(session, _ctx, how) {
    const { orderId, caseId } = target(how);
    if (caseId) {
      return at(session, { name: 'support', step: 'relay', caseId }, [
        send([text('support-reply-prompt', { caseId }), text('support-relay-hint')], {
          buttons: leaveButtons(),
        }),
      ]);
    }
    return at(session, { name: 'support', step: 'opening', ...(orderId ? { orderId } : {}) }, [
      { type: 'support', request: { action: 'open', ...(orderId ? { orderId } : {}) } },
    ]);
  },
  handle(session, state, input, ctx) {
    if (isEffectResult(input)) return fromResult(session, state, input);
    if (input.kind === 'button') {
      if (input.id.startsWith('support:')) return supportFlow.start(session, ctx, { button: input.id });
      return unhandled(session);
    }
    if (input.kind === 'text') {
      const message = input.text.trim();
      if (!message) return at(session, state);
      const relayed =
        message.length > MAX_RELAY_CHARS ? `${message.slice(0, MAX_RELAY_CHARS - 1)}…` : message;
      const notes = message.length > MAX_RELAY_CHARS ? [send([text('support-relay-cut')])] : [];
      return at(session, state, [
        {
          type: 'support',
          request: {
            action: 'relay',
            text: relayed,
            ...(state.caseId ? { caseId: state.caseId } : {}),
            ...(state.orderId ? { orderId: state.orderId } : {}),
          },
        },
        ...notes,
      ]);
    }
    return at(session, state, [send([text('support-text-only'), text('support-relay-hint')])]);
  },
  // What the user types at the menu that nothing else takes goes to their open case, if any (an
  // answer to an agent typed without tapping "Reply"); the desk answers `noCase` otherwise.
  unclaimedText(session, typed) {
    const relayed = typed.length > MAX_RELAY_CHARS ? `${typed.slice(0, MAX_RELAY_CHARS - 1)}…` : typed;
    return { session, effects: [{ type: 'support', request: { action: 'relayIfOpen', text: relayed } }] };
  },
  cancel(session) {
    return { session, effects: [], exit: [text('support-relay-ended')] };
  },
  back(session) {
    return { session, effects: [], exit: [text('support-relay-ended')] };
  },
  orphan(session, input) {
    // Text typed at the menu could not be offered to a case (no desk wired, the store down): it
    // gets the menu's own answer.
    if (input.kind === 'effectFailed' && input.effect === 'support' && session.flow.name === 'menu')
      return { session, effects: [], exit: [text('core-not-understood')] };
    if (input.kind !== 'support') return undefined;
    const o = input.outcome;
    if (o.action === 'closed')
      return { session, effects: [send(closedMessage(o), { notice: true, templateSuffices: true })] };
    // No case took the text: the menu's own answer, unless the user has moved on to a flow since.
    if (o.action === 'noCase')
      return session.flow.name === 'menu'
        ? { session, effects: [], exit: [text('core-not-understood')] }
        : { session, effects: [] };
    if (o.action === 'relay' && o.unasked) {
      const note =
        o.status === 'reopened'
          ? [text('support-case-reopened', { caseId: o.caseId })]
          : o.status === 'opened'
            ? [text('support-case-new', { caseId: o.caseId })]
            : [];
      return {
        session,
        effects: [
          send(
            [
              ...note,
              text(!o.desk ? 'support-relay-recorded' : 'support-relay-sent-case', {
                caseId: o.caseId,
              }),
            ],
            {
              buttons: [[button(supportReplyButtonId(o.caseId), 'support-button-reply')], [menuButton()]],
            },
          ),
        ],
      };
    }
    // The user moved on before the desk answered: the case is open all the same.
    if (o.action === 'open' || o.action === 'relay') return { session, effects: [] };
    return undefined;
  },
};
