/**
 * The tracker store's key names and stored forms, shared by its Redis and memory variants: records
 * are validated when read, and one that does not validate is a `StoredStateError` (retrying cannot
 * fix it, so it is reported, not retried).
 */
import type { TrackedOrder } from '../../flows/types.js';
import { describeIssues, jsonCodec, keysUnder, type TextKv } from '../../store/keyed/keyed.js';
import { type DepositMarker, depositMarkerSchema, trackedOrderSchema, trackingStateSchema } from './state.js';
import { MARK_FIELD, orderFromFields, stateFromFields } from './store-fields.js';
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

/** The sweep scheduler's sorted set of due polls. */
export const dueKey = (prefix: string) => `${prefix}due`;

/** The tracker's keys under its prefix (see the layout in ./store.ts). */
export function trackerKeys(prefix: string) {
  const key = keysUnder(prefix);
  return {
    order: (id: string) => key('order', id),
    deposit: (id: string) => key('deposit', id),
    tracking: key('tracking'),
    /** The sweep scheduler's set of due polls (../schedule/sweep-scheduler.ts). */
    due: dueKey(prefix),
    userOrders: (userKey: string) => key('user-orders', userKey),
    timeline: (id: string) => timelineKey(prefix, id),
  };
}

export const markerCodec = jsonCodec(depositMarkerSchema);

/**
 * An order's hash fields as a stored order (undefined when there is no order): the compact record
 * (./store-fields.ts), or the previous layout's `order` and `state` JSON fields, still read.
 */
export function decodeOrder(orderId: string, fields: Record<string, string>): StoredOrder | undefined {
  const parts = fields.order
    ? decodeLegacy(fields)
    : fields[MARK_FIELD]
      ? decodeCompact(orderId, fields)
      : undefined;
  if (!parts) return undefined;
  const { order, state } = parts;
  if (!order.success || !state.success) {
    const issues = [...(order.error?.issues ?? []), ...(state.error?.issues ?? [])];
    throw new StoredStateError(`Stored order ${orderId} does not validate: ${describeIssues(issues)}`);
  }
  return {
    order: order.data,
    state: state.data,
    rev: Number(fields.rev ?? 0) || 0,
    posted: fields.posted,
    final: fields.final,
  };
}

/** The previous layout: the order and its state as JSON fields. */
function decodeLegacy(fields: Record<string, string>) {
  return {
    order: trackedOrderSchema.safeParse(parseField('order', fields.order ?? '')),
    state: trackingStateSchema.safeParse(parseField('state', fields.state ?? '{}')),
  };
}

/** The compact record: one field per value. */
function decodeCompact(orderId: string, fields: Record<string, string>) {
  let state: unknown;
  try {
    state = stateFromFields(fields);
  } catch {
    throw new StoredStateError('Stored outcome is not JSON');
  }
  return {
    order: trackedOrderSchema.safeParse(orderFromFields(orderId, fields)),
    state: trackingStateSchema.safeParse(state),
  };
}

/** Parses one stored JSON field; text that is not JSON throws at once. */
function parseField(what: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new StoredStateError(`Stored ${what} is not JSON`);
  }
}

/** A stored deposit marker (undefined when there is none). */
export function decodeMarker(text: string | null | undefined): DepositMarker | undefined {
  if (!text) return undefined;
  const decoded = markerCodec.decode(text);
  if (!decoded.ok && decoded.notJson) throw new StoredStateError('Stored deposit marker is not JSON');
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
