/**
 * What a piece of work says about the messages it sends, handed down with each send from whoever
 * starts the work (an update, a notice, a desk action) to the channel and its outbox. An argument,
 * not an AsyncLocalStorage: on Node 20 one storage in use sends every promise and native callback of
 * the process through its hooks, about 110 µs of an update's CPU (README, "Conversation").
 */
import type { Locale } from '../chat/types.js';
import type { MarkSlot } from '../store/marks.js';
import type { OutboundClass, Prebooked } from './line-types.js';
import type { Reservation } from './reserve.js';

export interface SendScope {
  /** The class its messages are counted as (see OUTBOUND_CLASSES); by chat when unset. */
  readonly cls?: OutboundClass;
  /**
   * Its sends are named `<key>:<n>` in order: run again, its sends are the same outbox messages, so
   * those the first run put in the outbox are not sent twice. `strict` (a notice its sender retries)
   * never goes around the outbox when Redis does not answer: it fails, and is tried again.
   */
  readonly sends?: { key: string; n: number; strict: boolean };
  /**
   * The first step of an update still unfinished, with its save left to the update's `finish`: a
   * kill before that redoes the step, so its reply may go straight to the platform at its slot.
   */
  readonly redo?: boolean;
  /** The update's reply slot, asked for with its `begin` (Telegram: ../channels/telegram/send/straight.ts). */
  readonly straight?: StraightSlot;
  /** Sent at its turn in the outbound line: already paced. */
  readonly inTurn?: boolean;
  /** The sends the platform refused (what it said), for whoever asked. */
  readonly refused?: string[];
  /** What the user actually got of the message, noted by the channel for its sender. */
  readonly report?: Delivery;
  /** A mark written in the same Redis step as the first message put in the outbox. */
  readonly mark?: MarkSlot;
}

/** A reply slot booked for an update: when Redis answered, and whether a reply took it (or it was given back). */
export interface StraightSlot {
  chatId: string;
  pre: Prebooked;
  answered?: { r: Reservation; at: number };
  done: boolean;
}

/** What a user actually got of a message. */
export interface Delivery {
  locale?: Locale;
  /** `full`: the message as it is; `template`: the approved template carrying its gist. */
  form?: 'full' | 'template';
  /** A template stood in: the message itself goes when the user writes again. */
  held?: boolean;
}

/** No scope: a send on its own. */
export const NO_SCOPE: SendScope = Object.freeze({});

/** `scope` with its messages counted as `cls`. */
export const withClass = (
  scope: SendScope | undefined,
  cls: OutboundClass,
): SendScope & { readonly cls: OutboundClass } =>
  scope?.cls === cls ? (scope as SendScope & { cls: OutboundClass }) : Object.assign({}, scope, { cls });

/** A scope whose sends are named `<key>:<n>` in order (see `SendScope.sends`). */
export const sendScope = (key: string, opts: { strict?: boolean } = {}): SendScope => ({
  sends: { key, n: 0, strict: opts.strict === true },
});

/** The name of the scope's next send, if its sends are named. */
export function nextSendName(scope: SendScope | undefined): string | undefined {
  const s = scope?.sends;
  return s ? `${s.key}:${s.n++}` : undefined;
}

/** Whether the scope's sends must not go around the outbox. */
export const sendIsStrict = (scope: SendScope | undefined): boolean => scope?.sends?.strict === true;

/** Notes facts of the delivery for the scope's sender (nothing without a report). */
export function noteDelivery(scope: SendScope | undefined, facts: Delivery): void {
  if (scope?.report) Object.assign(scope.report, facts);
}
