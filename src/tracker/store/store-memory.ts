/** The tracker store in memory, for local mode (one process, nothing survives a restart). */
import { type MemoryKv, memoryKv } from '../../store/keyed/keyed-memory.js';
import { claimAge, decodeMarker, decodeOrder, depositOps, finalClaimValue, ownerKey } from './store-codec.js';
import { MARK_FIELD, orderFields, STATE_FIELDS, stateFields } from './store-fields.js';
import type { TrackerStore } from './store-types.js';
import { decodeOrderEvents, encodeOrderEvent, TIMELINE_MAX } from './timeline.js';

/** In-memory store for local mode (one process, nothing survives a restart). */
export function createMemoryTrackerStore(): TrackerStore {
  const orders = new Map<string, Record<string, string>>();
  const tracking = new Set<string>();
  const byUser = new Map<string, Array<{ id: string; at: number }>>();
  const fieldsOf = (id: string) => orders.get(id);

  return {
    kind: 'memory',
    async addOrder(order, state) {
      const existing = orders.get(order.orderId);
      if (existing?.[MARK_FIELD]) return false;
      orders.set(order.orderId, { ...existing, ...orderFields(order), ...stateFields(state) });
      tracking.add(order.orderId);
      const mine = byUser.get(ownerKey(order)) ?? [];
      mine.push({ id: order.orderId, at: order.createdAt });
      byUser.set(ownerKey(order), mine);
      return true;
    },
    async ordersOf(userKey, offset, limit) {
      const mine = [...(byUser.get(userKey) ?? [])].sort((a, b) => b.at - a.at);
      return { ids: mine.slice(offset, offset + limit).map((o) => o.id), total: mine.length };
    },
    async load(orderId) {
      const f = fieldsOf(orderId);
      return f ? decodeOrder(orderId, f) : undefined;
    },
    async saveState(orderId, state, rev) {
      const f = fieldsOf(orderId);
      if (!f?.[MARK_FIELD] || (Number(f.rev ?? 0) || 0) !== rev) return undefined;
      for (const k of STATE_FIELDS) delete f[k];
      Object.assign(f, stateFields(state), { rev: String(rev + 1) });
      return rev + 1;
    },
    async setPosted(orderId, key) {
      const f = fieldsOf(orderId);
      if (f) f.posted = key;
    },
    async claimFinal(orderId, token, now, staleMs) {
      const f = fieldsOf(orderId);
      if (!f) return 'busy';
      if (f.final === 'done') return 'done';
      if (f.final && claimAge(f.final, now) <= staleMs) return 'busy';
      f.final = finalClaimValue(token, now);
      return 'claimed';
    },
    async releaseFinal(orderId, token) {
      const f = fieldsOf(orderId);
      if (f?.final?.startsWith(`posting|${token}|`)) delete f.final;
    },
    async completeFinal(orderId) {
      const f = fieldsOf(orderId);
      if (f) f.final = 'done';
      tracking.delete(orderId);
    },
    async trackingIds() {
      return [...tracking];
    },
    async countTracking() {
      return tracking.size;
    },
    ...guardOps(orders, memoryKv()),
    async ping() {},
    async close() {},
  };
}

/** The deposit guard (markers by order id) and the orders' timelines. */
function guardOps(
  orders: Map<string, Record<string, string>>,
  deposits: MemoryKv,
): Pick<
  TrackerStore,
  'claimDeposit' | 'getDeposit' | 'setDeposit' | 'releaseDeposit' | 'appendEvent' | 'timeline'
> {
  const timelines = new Map<string, string[]>();
  return {
    ...depositOps(deposits, (orderId) => orderId),
    async releaseDeposit(orderId, token) {
      const m = decodeMarker(deposits.peek(orderId));
      if (m?.state !== 'intent' || m.token !== token) return false;
      deposits.drop(orderId);
      return true;
    },
    async appendEvent(orderId, event) {
      if (!orders.get(orderId)?.[MARK_FIELD]) return;
      const { json, once } = encodeOrderEvent(event);
      const list = timelines.get(orderId) ?? [];
      if (once && list.some((e) => e.startsWith(once))) return;
      list.push(json);
      timelines.set(orderId, list.slice(-TIMELINE_MAX));
    },
    async timeline(orderId) {
      return decodeOrderEvents(timelines.get(orderId) ?? []);
    },
  };
}
