/** What the tracker's store offers (key layout and guarantees: ./store.ts). */
import type { TrackedOrder } from '../../flows/types.js';
import type { DepositMarker, TrackingState } from './state.js';
import type { OrderEvent } from './timeline.js';

export interface StoredOrder {
  order: TrackedOrder;
  state: TrackingState;
  /** The revision `state` was read at: a save is only taken over this same revision. */
  rev: number;
  posted?: string;
  final?: string;
}

export type FinalClaim = 'claimed' | 'done' | 'busy';

export interface TrackerStore {
  readonly kind: 'redis' | 'memory';
  /** Saves a new order; false when it is already stored (then nothing changes). */
  addOrder(order: TrackedOrder, state: TrackingState): Promise<boolean>;
  /** Reads an order back; throws when the stored record does not validate. */
  load(orderId: string): Promise<StoredOrder | undefined>;
  /**
   * Saves the state if the stored one is still at revision `rev` (compare-and-set): the new revision,
   * or undefined when another worker saved in between (or the order is gone) and nothing changed.
   */
  saveState(orderId: string, state: TrackingState, rev: number): Promise<number | undefined>;
  setPosted(orderId: string, key: string): Promise<void>;
  /** Takes the right to post the final message (or to take over a claim older than `staleMs`). */
  claimFinal(orderId: string, token: string, now: number, staleMs: number): Promise<FinalClaim>;
  releaseFinal(orderId: string, token: string): Promise<void>;
  /** Marks the final message posted and the order finished; keys expire after `retentionMs`. */
  completeFinal(orderId: string, retentionMs: number): Promise<void>;
  trackingIds(): Promise<string[]>;
  /** A chat user's order ids, newest first (`offset`/`limit` page them), and how many there are. */
  ordersOf(userKey: string, offset: number, limit: number): Promise<{ ids: string[]; total: number }>;
  countTracking(): Promise<number>;
  /** SET NX of the deposit marker: undefined when claimed, else the marker already there. */
  claimDeposit(orderId: string, marker: DepositMarker): Promise<DepositMarker | undefined>;
  getDeposit(orderId: string): Promise<DepositMarker | undefined>;
  setDeposit(orderId: string, marker: DepositMarker): Promise<void>;
  /** Deletes the marker only if it still holds this claim token. */
  releaseDeposit(orderId: string, token: string): Promise<boolean>;
  /** Appends to the order's timeline (nothing for an unknown order, or a repeat of a once-only event). */
  appendEvent(orderId: string, event: OrderEvent): Promise<void>;
  /** The order's timeline, oldest first. */
  timeline(orderId: string): Promise<OrderEvent[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
