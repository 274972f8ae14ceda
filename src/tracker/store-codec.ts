/**
 * The tracker store's key names and stored forms, shared by its Redis and memory variants: records
 * are validated when read, and one that does not validate is a `StoredStateError` (retrying cannot
 * fix it, so it is reported, not retried).
 */
import type { TrackedOrder } from '../flows/types.js';
import {
  type Decoded,
  describeIssues,
  type JsonCodec,
  jsonCodec,
  keysUnder,
  type TextKv,
} from '../store/keyed.js';
import { type DepositMarker, depositMarkerSchema, trackedOrderSchema, trackingStateSchema } from './state.js';
import type { StoredOrder } from './store-types.js';
import { timelineKey } from './timeline.js';

/** A stored record that does not validate: retrying cannot fix it, so it is reported, not retried. */
export class StoredStateError extends Error {
  override name = 'StoredStateError';
}

/** How long a user's list of orders is kept after their last order (a little beyond order retention). */
export const USER_ORDERS_TTL_MS = 45 * 24 * 3600_000;

/** The key of a chat user's order list: `<channel>:<id>`. */
export const ownerKey = (order: TrackedOrder) => `${order.user.channel}:${order.user.id}`;

/** The tracker's keys under its prefix (see the layout in ./store.ts). */
export function trackerKeys(prefix: string) {
  const key = keysUnder(prefix);
  return {
    order: (id: string) => key('order', id),
    deposit: (id: string) => key('deposit', id),
    tracking: key('tracking'),
    userOrders: (userKey: string) => key('user-orders', userKey),
    timeline: (id: string) => timelineKey(prefix, id),
  };
}

export const orderCodec = jsonCodec(trackedOrderSchema);
export const stateCodec = jsonCodec(trackingStateSchema);
export const markerCodec = jsonCodec(depositMarkerSchema);

/** Decodes one stored field; text that is not JSON throws at once. */
function decodeField<T>(codec: JsonCodec<T>, what: string, text: string) {
  const decoded = codec.decode(text);
  if (!decoded.ok && decoded.notJson) throw new StoredStateError(`Stored ${what} is not JSON`);
  return decoded as Exclude<Decoded<T>, { notJson: true }>;
}

/** An order's hash fields as a stored order (undefined when there is no order). */
export function decodeOrder(orderId: string, fields: Record<string, string>): StoredOrder | undefined {
  if (!fields.order) return undefined;
  const order = decodeField(orderCodec, 'order', fields.order);
  const state = decodeField(stateCodec, 'state', fields.state ?? '{}');
  if (!order.ok || !state.ok) {
    const issues = [...(order.ok ? [] : order.issues), ...(state.ok ? [] : state.issues)];
    throw new StoredStateError(`Stored order ${orderId} does not validate: ${describeIssues(issues)}`);
  }
  return {
    order: order.value,
    state: state.value,
    rev: Number(fields.rev ?? 0) || 0,
    posted: fields.posted,
    final: fields.final,
  };
}

/** A stored deposit marker (undefined when there is none). */
export function decodeMarker(text: string | null | undefined): DepositMarker | undefined {
  if (!text) return undefined;
  const decoded = decodeField(markerCodec, 'deposit marker', text);
  if (!decoded.ok) throw new StoredStateError(`Stored deposit marker does not validate: ${decoded.message}`);
  return decoded.value;
}

/** The `final` field while a worker posts the final message. */
export const finalClaimValue = (token: string, now: number) => `posting|${token}|${now}`;

/** How old a `final` claim is (infinitely old when it holds no time). */
export const claimAge = (value: string, now: number): number => {
  const at = Number(value.split('|')[2]);
  return Number.isFinite(at) ? now - at : Number.POSITIVE_INFINITY;
};

/** The deposit guard's reads and writes over the keyed-storage port (Redis or memory alike). */
export function depositOps(kv: TextKv, depositKey: (orderId: string) => string) {
  return {
    /** SET NX of the marker: undefined when claimed, else the marker already there. */
    async claimDeposit(orderId: string, marker: DepositMarker): Promise<DepositMarker | undefined> {
      if (await kv.set(depositKey(orderId), markerCodec.encode(marker), { nx: true })) return undefined;
      const existing = decodeMarker(await kv.get(depositKey(orderId)));
      if (!existing) throw new Error(`Deposit marker of ${orderId} vanished while claiming it`);
      return existing;
    },
    async getDeposit(orderId: string): Promise<DepositMarker | undefined> {
      return decodeMarker(await kv.get(depositKey(orderId)));
    },
    async setDeposit(orderId: string, marker: DepositMarker): Promise<void> {
      await kv.set(depositKey(orderId), markerCodec.encode(marker));
    },
  };
}
