/**
 * Receipts in the chat: the 🧾 Receipt button under a finished buy or sale (`rc:<order id>`), or
 * `/receipt <order id>` (`/risiti`), sends the order's receipt as one picture with its explorer
 * link; the terminal, which shows no picture, gets the receipt's lines as text. An order that is
 * not the user's own, or not finished, is refused in words. Pure: drawing is the `receipt` effect's.
 */
import * as z from 'zod';
import type { Button, Locale } from '../chat/types.js';
import type { FlowDef, FlowStep } from '../flows/flow.js';
import { button, isEffectResult, send, text, unhandled } from '../flows/flow.js';
import { menuButton } from '../flows/menu/menu.js';
import type { Session } from '../flows/session.js';
import type {
  Effect,
  EffectResult,
  FlowContext,
  Input,
  ReceiptOutcome,
  ReceiptView,
} from '../flows/types.js';
import { receiptTexts } from './lines.js';

/** Order ids as the tracker keeps them (letters, digits, - and _): a forged button names no other key. */
const orderIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/);

export const receiptsStateSchema = z.object({
  name: z.literal('receipt'),
  step: z.enum(['making', 'shown']),
  orderId: orderIdSchema,
});
export type ReceiptsState = z.infer<typeof receiptsStateSchema>;

const PREFIX = 'rc:';

/** Asks for the receipt: a picture, except in the terminal. */
function making(session: Session, ctx: FlowContext, typed: string): FlowStep {
  const orderId = orderIdSchema.safeParse(typed.trim()).data;
  if (!orderId) return { session, effects: [], exit: [text('receipts-ask')] };
  const effect: Effect = { type: 'receipt', orderId, picture: ctx.user.channel !== 'terminal' };
  return { session: { ...session, flow: { name: 'receipt', step: 'making', orderId } }, effects: [effect] };
}

/** The explorer's page of the hash as a link button (the terminal prints it as a line). */
function buttonsOf(r: ReceiptView): Button[][] {
  const link: Button[][] = r.explorerUrl
    ? [[{ ...button(`explorer:${r.orderId}`, 'tracker-explorer-button'), url: r.explorerUrl }]]
    : [];
  return [...link, [menuButton()]];
}

/** The receipt's message: the picture with a short caption, or its lines as text. */
function receiptMessage(locale: Locale, r: ReceiptView): Effect {
  if (!r.ref) return send(receiptTexts(locale, r), { buttons: buttonsOf(r) });
  return send([text('receipts-caption', { orderId: r.orderId })], {
    buttons: buttonsOf(r),
    media: { kind: 'photo', ref: r.ref, filename: `receipt-${r.orderId}.png` },
  });
}

function answered(session: Session, outcome: ReceiptOutcome): FlowStep {
  if (outcome.status === 'refused')
    return { session, effects: [], exit: [text(`receipts-${outcome.reason}`, { orderId: outcome.orderId })] };
  const r = outcome.receipt;
  return {
    session: { ...session, flow: { name: 'receipt', step: 'shown', orderId: r.orderId } },
    effects: [receiptMessage(session.locale, r)],
  };
}

function onResult(session: Session, state: ReceiptsState, input: EffectResult): FlowStep {
  if (input.kind === 'receipt' && state.step === 'making') return answered(session, input.outcome);
  if (input.kind === 'effectFailed' && input.effect === 'receipt' && state.step === 'making')
    return { session, effects: [], exit: [text('receipts-draw-failed')] };
  return unhandled(session);
}

function handle(session: Session, state: ReceiptsState, input: Input, ctx: FlowContext): FlowStep {
  if (isEffectResult(input)) return onResult(session, state, input);
  if (input.kind === 'button' && input.id.startsWith(PREFIX))
    return making(session, ctx, input.id.slice(PREFIX.length));
  if (state.step === 'making') return { session, effects: [send([text('buy-please-wait')])] };
  return { session, effects: [], exit: [text('core-not-understood')] };
}

export const receiptsFlow: FlowDef<ReceiptsState> = {
  name: 'receipt',
  prefix: 'rc',
  commands: ['receipt', 'risiti'],
  startButtons: [PREFIX],
  start(session, ctx, how) {
    if (how.button) return making(session, ctx, how.button.slice(PREFIX.length));
    return making(session, ctx, how.args ?? '');
  },
  handle,
  back: (session) => ({ session, effects: [], exit: [] }),
  // The user moved on while it was drawn: the receipt still comes, the new flow is left as it is.
  orphan(session, input) {
    if (input.kind !== 'receipt') return undefined;
    const { outcome } = input;
    if (outcome.status === 'refused')
      return { session, effects: [send([text(`receipts-${outcome.reason}`, { orderId: outcome.orderId })])] };
    return { session, effects: [receiptMessage(session.locale, outcome.receipt)] };
  },
};
