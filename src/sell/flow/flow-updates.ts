/**
 * What the user is told about a reported transaction or the intent itself (`SellUpdate`), and where
 * the conversation goes after: a final update ends the sale and returns to the menu. Pure.
 */
import type { Button, Text } from '../../chat/types.js';
import type { FlowStep } from '../../flows/flow.js';
import { button, send, text, unhandled } from '../../flows/flow.js';
import { displayNetwork } from '../../flows/form/asset-steps.js';
import { at } from '../../flows/form/form.js';
import { SUPPORT_OPEN } from '../../flows/menu/help.js';
import { menuButton } from '../../flows/menu/menu.js';
import type { Session } from '../../flows/session.js';
import type { SellUpdate } from '../../flows/types.js';
import { linkButtons } from './flow-link.js';
import type { SellState } from './flow-state.js';
import { refusalTextId } from './reasons.js';

const supportRow = (): Button[] => [button(SUPPORT_OPEN, 'sell-button-support')];

/** The texts of an update; `final` when the sale is over. */
export function updateTexts(update: SellUpdate): { texts: Text[]; final: boolean; buttons?: Button[][] } {
  switch (update.status) {
    case 'checking':
      return {
        texts: [
          update.unseen
            ? text('sell-checking-unseen', {
                hash: update.hash,
                network: update.network ? displayNetwork(update.network) : '',
              })
            : text('sell-checking', { hash: update.hash }),
        ],
        final: false,
      };
    case 'filed':
      return {
        texts: [
          text(
            update.afterCancel
              ? 'sell-filed-after-cancel'
              : update.existing
                ? 'sell-filed-existing'
                : 'sell-filed',
            { orderId: update.orderId },
          ),
        ],
        final: true,
        buttons: [[menuButton()]],
      };
    case 'refused': {
      // A hash pasted with no sale to check it against (none in Redis, none in the journal).
      if (update.reason === 'no_sale')
        return { texts: [text('sell-hash-no-sale')], final: false, buttons: [[menuButton()]] };
      const reason = text(refusalTextId(update.reason));
      // Not a hash at all: the format expected is all there is to say; the sale goes on.
      if (update.reason.startsWith('malformed_')) return { texts: [reason], final: false };
      // Only the ramp refusing the sale's own deposit ends the sale; a deposit that does not match
      // it (support has it when tokens moved) leaves it open for the right one.
      const final = update.reason === 'ramp_refused';
      const texts = [reason, update.escalated ? text('sell-escalated') : text('sell-nothing-moved')];
      return { texts, final, buttons: [supportRow(), [menuButton()]] };
    }
    case 'uncertain':
      return {
        texts: [
          update.restored ? text('sell-restore-failed', { hash: update.hash }) : text('sell-uncertain'),
        ],
        final: true,
        buttons: [supportRow(), [menuButton()]],
      };
    case 'expired':
      return { texts: [text('sell-expired')], final: true, buttons: [[menuButton()]] };
    case 'cancelled':
      return { texts: [text('sell-cancelled')], final: true, buttons: [[menuButton()]] };
    case 'cancel-too-late':
      return { texts: [text('sell-cancel-paid')], final: true, buttons: [[menuButton()]] };
    case 'lost':
      return { texts: [text('sell-link-lost')], final: true, buttons: [supportRow(), [menuButton()]] };
  }
}

/** Notes that the user was told how sale `intentId` ended. */
export const endedSale = (session: Session, intentId: string): Session => ({
  ...session,
  profile: { ...session.profile, lastSellEnded: intentId },
});

/**
 * An update for a sale no flow waits on (the user left it, or it ended). A progress note
 * ("checking", "on its way") of a sale whose outcome was already told is stale: two reports of one
 * transaction (the watcher's and a pasted hash) can finish in either order, and the user must read a
 * sale's messages in order, so it is dropped.
 */
export function orphanUpdate(session: Session, intentId: string, update: SellUpdate): FlowStep {
  if (update.status === 'checking' && session.profile.lastSellEnded === intentId)
    return { session, effects: [] };
  const { texts, final, buttons } = updateTexts(update);
  return {
    session: final ? endedSale(session, intentId) : session,
    effects: [send(texts, buttons ? { buttons } : {})],
  };
}

/** An update for the intent this flow waits on. */
export function onUpdate(session: Session, state: SellState, intentId: string, update: SellUpdate): FlowStep {
  if (state.step !== 'awaiting' || state.intentId !== intentId) return unhandled(session);
  const { texts, final, buttons } = updateTexts(update);
  if (final) {
    return {
      session: { ...endedSale(session, intentId), flow: { name: 'menu' } },
      effects: [send(texts, buttons ? { buttons } : {})],
    };
  }
  return at(session, state, [
    send(texts, { buttons: buttons ? [...buttons.slice(0, 1), ...linkButtons(state)] : linkButtons(state) }),
  ]);
}
