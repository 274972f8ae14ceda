/**
 * What a flow is: a named, table-registered set of pure handlers. The router (router.ts) owns the
 * global inputs and the main menu; a flow only handles its own steps.
 */

import type { Button, OutMessage, Text } from '../chat/types.js';
import { userKey } from '../chat/types.js';
import type { FlowState } from './flow-state.js';
import type { Session } from './session.js';
import type { Effect, EffectResult, FlowContext, Input } from './types.js';

/** How a flow was started: by a command with its arguments, a menu entry or a button. */
export interface FlowStart {
  command?: string;
  /** Free text after the command (`/buy 500 USDT polygon`) or after `menu:<flow>:`. */
  args?: string;
  button?: string;
  /** With `button`: the channel's id of the message the button was on (see `ChatInput`). */
  on?: string;
}

/** A flow's answer. The router turns `exit` into the main menu and `start` into another flow. */
export interface FlowStep {
  session: Session;
  effects: Effect[];
  /** Leave to the main menu, showing these texts above it. */
  exit?: Text[];
  /**
   * How that menu message goes when it is an update the user did not ask for (a case closed by an
   * agent): outside WhatsApp's window its template may be enough (`templateSuffices`).
   */
  exitAs?: Pick<OutMessage, 'templateSuffices'>;
  /** Hand over to another registered flow. */
  start?: { flow: string; how?: FlowStart };
  /** The flow did not expect this effect result (stale or another flow's); the router offers it elsewhere. */
  unhandled?: boolean;
}

export interface FlowDef<S extends { name: string } = { name: string }> {
  readonly name: S['name'];
  /** The prefix of this flow's button ids: "buy" for "buy:confirm". */
  readonly prefix: string;
  /** Commands (without "/") that start this flow: `/buy`. */
  readonly commands?: readonly string[];
  /** Words typed at the main menu that start this flow ("buy", "nunua"). */
  readonly keywords?: readonly string[];
  /**
   * Words that start this flow from any step of any flow, as its command does, when one is the
   * whole message ("agent", not "my agent said"); not inside this flow itself, nor at a step that
   * takes free text (`takesFreeText`).
   */
  readonly globalKeywords?: readonly string[];
  /** Main-menu entry; entries are sorted by `order`. */
  readonly menu?: { order: number; label: Text };
  /**
   * Button ids (or prefixes ending in ":") that start this flow from anywhere, e.g. "support:".
   * The first flow in the table that lists one wins.
   */
  readonly startButtons?: readonly string[];
  start(session: Session, ctx: FlowContext, how: FlowStart): FlowStep;
  /** True at a step where any typed text is the answer (a description): global keywords are not read there. */
  takesFreeText?(state: S): boolean;
  handle(session: Session, state: S, input: Input, ctx: FlowContext): FlowStep;
  /** One step back; without it "back" leaves to the menu. */
  back?(session: Session, state: S, ctx: FlowContext): FlowStep;
  /** Leaving with "cancel"; without it the router leaves to the menu with a short note. */
  cancel?(session: Session, state: S, ctx: FlowContext): FlowStep;
  /** "cancel" at the main menu: what this flow still has open that it ends (a live sale); else undefined. */
  idleCancel?(session: Session, ctx: FlowContext): FlowStep | undefined;
  /** An effect result no active flow claimed (the user moved on); answer it or return undefined. */
  orphan?(session: Session, input: EffectResult, ctx: FlowContext): FlowStep | undefined;
  /** Text typed at the main menu that this flow recognises (a pasted transaction hash); else undefined. */
  idleText?(session: Session, typed: string, ctx: FlowContext): FlowStep | undefined;
  /**
   * A note the main menu shows above its title, with its own buttons first (a sale whose signing
   * link is still live: continue or cancel it); undefined when there is nothing to say.
   */
  menuNote?(session: Session, ctx: FlowContext): { texts: Text[]; buttons: Button[][] } | undefined;
  /**
   * Text typed at the main menu that nothing recognised (no command, keyword or greeting), before it
   * is answered "not understood": support relays it to the user's open case (the effect's answer
   * says "not understood" when there is none).
   */
  unclaimedText?(session: Session, typed: string, ctx: FlowContext): FlowStep | undefined;
}

export const text = (id: string, args?: Text['args']): Text => (args ? { id, args } : { id });

export const button = (id: string, labelId: string, args?: Text['args']): Button => ({
  id,
  label: text(labelId, args),
});

/** A button whose label is a value shown as is (a token symbol, an amount). */
export const plainButton = (id: string, value: string): Button => button(id, 'core-plain', { text: value });

export const send = (texts: Text[], extra: Omit<OutMessage, 'texts'> = {}): Effect => ({
  type: 'send',
  message: { texts, ...extra },
});

export const NAV_BACK = 'nav:back';
export const NAV_CANCEL = 'nav:cancel';
export const MENU_MAIN = 'menu:main';

/** The usual last row of a step's buttons. */
export const navRow = (withBack = true): Button[] =>
  withBack
    ? [button(NAV_BACK, 'core-button-back'), button(NAV_CANCEL, 'core-button-cancel')]
    : [button(NAV_CANCEL, 'core-button-cancel')];

/** Splits buttons into rows of `width`. */
export function rows(buttons: Button[], width = 3): Button[][] {
  const out: Button[][] = [];
  for (let i = 0; i < buttons.length; i += width) out.push(buttons.slice(i, i + width));
  return out;
}

export const isEffectResult = (input: Input): input is EffectResult =>
  input.kind !== 'text' && input.kind !== 'command' && input.kind !== 'button' && input.kind !== 'contact';

/** The flow at `state`, with the effects to carry out. */
export const at = <S extends FlowState>(session: Session, state: S, effects: Effect[] = []): FlowStep => ({
  session: { ...session, flow: state },
  effects,
});

export const unhandled = (session: Session): FlowStep => ({ session, effects: [], unhandled: true });

/** Letters and figures only (the usual typed word): nothing to strip. */
const PLAIN_WORD = /^[a-z0-9]*$/;

/** Lower-case, trimmed, without surrounding punctuation: "  Ndiyo! " -> "ndiyo". */
export function word(input: string): string {
  const lower = input.trim().toLowerCase();
  if (PLAIN_WORD.test(lower)) return lower;
  return lower.replace(/^[^\p{L}\p{N}/]+|[^\p{L}\p{N}]+$/gu, '');
}

export const YES_WORDS = [
  'yes',
  'y',
  'ok',
  'okay',
  'confirm',
  'ndiyo',
  'ndio',
  'sawa',
  'thibitisha',
  'kubali',
];
export const NO_WORDS = ['no', 'n', 'hapana', 'la'];

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * A flow instance id, deterministic from the time and the user (no randomness in transitions):
 * base-36 epoch ms and a short hash of the user key, e.g. "mcx8z3k1-1k2j9a".
 */
export function makeFlowId(ctx: FlowContext): string {
  return `${ctx.now.toString(36)}-${fnv1a(userKey(ctx.user)).toString(36)}`;
}

/** `254712345678` -> "+254 712 345 678". */
export function displayPhone(phone: string): string {
  return /^254\d{9}$/.test(phone)
    ? `+254 ${phone.slice(3, 6)} ${phone.slice(6, 9)} ${phone.slice(9)}`
    : phone;
}

/** `0xAbCd…1234` style shortening for buttons; the full address is shown in texts. */
export function shortAddress(address: string): string {
  return address.length > 14 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}
