/**
 * A sale whose signing link is still live after the user left it (typed "menu", started something
 * else): the menu mentions it, a new Sell offers to continue or cancel it instead of starting a
 * second one without a word, and its buttons resume it or cancel it. Pure.
 */
import type { Button, Text } from '../../chat/types.js';
import type { FlowStep } from '../../flows/flow.js';
import { button, makeFlowId, send, text } from '../../flows/flow.js';
import { menuButton } from '../../flows/menu/menu.js';
import type { Session } from '../../flows/session.js';
import type { FlowContext, SellLink } from '../../flows/types.js';
import { awaitingReply } from './flow-link.js';
import type { SellState } from './flow-state.js';

/** The buttons of a live sale's note: continue it, cancel it. */
export const SELL_LIVE_RESUME = 'sell:live:resume';
export const SELL_LIVE_CANCEL = 'sell:live:cancel';

type LiveSale = NonNullable<Session['profile']['liveSale']>;

/** The profile with the sale whose link was just made kept as the live one. */
export function keepLiveSale(session: Session, state: SellState, link: SellLink): Session {
  const liveSale: LiveSale = {
    intentId: link.intentId,
    signUrl: link.signUrl,
    expiresAt: link.expiresAt,
    network: state.network!,
    token: state.token ?? '',
    total: link.total,
    ...(link.devSign ? { devSign: true } : {}),
  };
  return { ...session, profile: { ...session.profile, lastSellIntent: link.intentId, liveSale } };
}

/** The live sale: its link made, not ended (told to the user), not expired. */
export function liveSaleOf(session: Session, now: number): LiveSale | undefined {
  const live = session.profile.liveSale;
  if (!live || live.intentId === session.profile.lastSellEnded || live.expiresAt <= now) return undefined;
  return live;
}

const minutesLeft = (live: LiveSale, now: number): number =>
  Math.max(1, Math.round((live.expiresAt - now) / 60_000));

const liveArgs = (live: LiveSale, now: number) => ({
  total: live.total,
  token: live.token,
  url: live.signUrl,
  minutes: minutesLeft(live, now),
});

const liveButtons = (): Button[][] => [
  [button(SELL_LIVE_RESUME, 'sell-button-live-resume')],
  [button(SELL_LIVE_CANCEL, 'sell-button-cancel-sale')],
];

/** The menu's note of a live sale (not while the sale itself is the active flow). */
export function liveSaleNote(
  session: Session,
  ctx: FlowContext,
): { texts: Text[]; buttons: Button[][] } | undefined {
  if (session.flow.name === 'sell') return undefined;
  const live = liveSaleOf(session, ctx.now);
  if (!live) return undefined;
  return { texts: [text('sell-live-note', liveArgs(live, ctx.now))], buttons: liveButtons() };
}

/** Sell started while a sale is live: say so, offering to continue it or cancel it. */
export function saleAlreadyLive(session: Session, live: LiveSale, ctx: FlowContext): FlowStep {
  return {
    session: { ...session, flow: { name: 'menu' } },
    effects: [
      send([text('sell-live-exists', liveArgs(live, ctx.now))], {
        buttons: [...liveButtons(), [menuButton()]],
      }),
    ],
  };
}

/** A live sale's button: continue it (waiting for the tokens again) or cancel it. */
export function onLiveButton(session: Session, id: string, ctx: FlowContext): FlowStep {
  const live = liveSaleOf(session, ctx.now);
  if (!live) return { session, effects: [], exit: [text('sell-live-gone')] };
  if (id === SELL_LIVE_CANCEL) {
    // As Cancel in the sale itself: the outcome ("cancelled", or "too late") comes next, with the menu.
    return {
      session: { ...session, flow: { name: 'menu' } },
      effects: [send([text('sell-cancel-requested')]), { type: 'sellCancelIntent', intentId: live.intentId }],
    };
  }
  const state: SellState = {
    name: 'sell',
    id: makeFlowId(ctx),
    step: 'awaiting',
    network: live.network,
    token: live.token || undefined,
    intentId: live.intentId,
    signUrl: live.signUrl,
    expiresAt: live.expiresAt,
    ...(live.devSign ? { devSign: true } : {}),
  };
  return awaitingReply({ ...session, flow: state }, state, []);
}
