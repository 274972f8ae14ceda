import type { OutMessage, UserRef } from '../chat/types.js';
import type { OwnOrdersPage, TrackedOrder } from '../flows/types.js';
import type { SendScope } from '../outbound/index.js';

/** Posts a message to a user on whichever channel they use (implemented by the engine; the tracker, sell and support need it). */
export interface Notifier {
  /** `scope`: what the sender's work says of its sends (its name, a mark: src/outbound/scope.ts). */
  notify(user: UserRef, message: OutMessage, scope?: SendScope): Promise<void>;
  /**
   * Tells the conversation an order is over: its final message was posted (and support alerted when
   * it went there). Flows waiting on it move on; the order journal notes it.
   */
  orderFinal?(user: UserRef, orderId: string): Promise<void>;
}

/** Follows orders until they are final. Tracking the same order id twice is a no-op. */
export interface OrderTracker {
  track(order: TrackedOrder): Promise<void>;
  /** A chat user's own orders, newest first, with what became of each (pages from 1). */
  ordersOf(user: UserRef, page: number, limit: number): Promise<OwnOrdersPage>;
  /** Who made an order through rampchat (undefined when unknown here: made elsewhere, or expired). */
  ownerOf(orderId: string): Promise<UserRef | undefined>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Why an order was handed to support instead of finishing on its own. */
export type EscalationReason = 'horizon' | 'deposit_unknown' | 'deposit_refused' | 'undeliverable';

/** What support gets when the tracker cannot finish an order by itself. */
export interface EscalationCase {
  reason: EscalationReason;
  order: TrackedOrder;
  /** The last status the ramp reported (PENDING, SUCCESS, FAILED, CANCELLED), if any. */
  lastStatus?: string;
  /** The last error while polling or releasing, in words. */
  lastError?: string;
  /** The M-Pesa receipt, when the payment went through. */
  receipt?: string;
  /** Status polls made. */
  polls: number;
  /** Epoch ms of the escalation. */
  at: number;
  /** What the deposit guard holds for on-ramp orders (intent/unknown/sent…), for support's eyes. */
  deposit?: Record<string, unknown>;
  /** A line for the agents (why the user could not be told). */
  detail?: string;
}

/** Health of the tracker's backing services. */
export interface TrackerHealth {
  ok: boolean;
  details: Record<string, unknown>;
}
