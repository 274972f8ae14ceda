/**
 * The outbox in this process (local mode, no Redis): the same contract as the Redis one, so the
 * worker is the same; it survives nothing a process does not.
 */
import { OUTBOUND_CLASSES, type OutboundClass } from './line-types.js';
import { chatOf, type OutboxEntry, type OutboxResult, type OutboxStore } from './outbox-store.js';

const rank = (cls: OutboundClass) => OUTBOUND_CLASSES.indexOf(cls);

/** Marks (`also`) are not kept here: in local mode they are written by their own stores. */
export function memoryOutboxStore(): OutboxStore {
  let seq = 0;
  const messages = new Map<string, OutboxEntry>();
  const queues = new Map<string, string[]>();
  const holders = new Map<string, string>();
  const alive = new Map<string, number>();
  const results = new Map<string, OutboxResult>();
  const slots = new Map<string, string>();
  const names = new Map<string, string>();
  const slotOf = (key: string, slot: string) => `${chatOf(key)}\n${slot}`;
  const live = (chat: string) => {
    const h = holders.get(chat);
    return h !== undefined && (alive.get(h) ?? 0) > Date.now() ? h : undefined;
  };
  const head = (chat: string, owner: string): OutboxEntry | undefined => {
    if (holders.get(chat) !== owner) return undefined;
    const q = queues.get(chat) ?? [];
    for (;;) {
      const id = q[0];
      if (id === undefined) {
        queues.delete(chat);
        holders.delete(chat);
        return undefined;
      }
      const m = messages.get(id);
      if (m) return m;
      q.shift();
    }
  };
  return {
    async put(m, owner) {
      const was = m.once !== undefined ? names.get(m.once) : undefined;
      if (was !== undefined && results.get(was)?.ok !== false) {
        const held = live(m.key) === owner;
        return { id: was, held, replaced: false, first: false, again: true };
      }
      const waiting = m.slot !== undefined ? slots.get(slotOf(m.key, m.slot)) : undefined;
      const old = waiting !== undefined ? messages.get(waiting) : undefined;
      const id = old ? (waiting as string) : (m.id ?? String(++seq));
      // The waiting one keeps its place and the more urgent class; the newest body wins.
      const cls = old && rank(old.cls) < rank(m.cls) ? old.cls : m.cls;
      messages.set(id, { id, ...m, key: old?.key ?? m.key, cls });
      if (!old) {
        const q = queues.get(m.key) ?? [];
        q.push(id);
        queues.set(m.key, q);
        if (m.slot !== undefined) slots.set(slotOf(m.key, m.slot), id);
        if (m.once !== undefined) names.set(m.once, id);
        if (names.size > 100_000) names.delete(names.keys().next().value as string);
      }
      const placed = { id, replaced: old !== undefined, first: queues.get(m.key)?.[0] === id, again: false };
      const h = live(m.key);
      if (h && h !== owner) return { ...placed, held: false };
      holders.set(m.key, owner);
      return { ...placed, held: true };
    },
    async begin(key, id) {
      const m = messages.get(id);
      if (m?.slot !== undefined && slots.get(slotOf(key, m.slot)) === id) slots.delete(slotOf(key, m.slot));
      return m;
    },
    async claim(owner, max) {
      const got: string[] = [];
      for (const chat of queues.keys()) {
        if (got.length >= max) break;
        const h = live(chat);
        if (h && h !== owner) continue;
        holders.set(chat, owner);
        got.push(chat);
      }
      return got;
    },
    head: async (key, owner) => head(key, owner),
    async finish(key, owner, id, result) {
      results.set(id, result);
      if (results.size > 100_000) results.delete(results.keys().next().value as string);
      messages.delete(id);
      const q = queues.get(key);
      const at = q?.indexOf(id) ?? -1;
      if (q && at >= 0) q.splice(at, 1);
      return head(key, owner);
    },
    result: async (id) => results.get(id),
    async beat(owner, ttlMs) {
      alive.set(owner, Date.now() + ttlMs);
    },
    async release(owner) {
      for (const [chat, h] of holders) if (h === owner) holders.delete(chat);
      alive.delete(owner);
    },
    depth: async () => messages.size,
    writesAlso: false,
  };
}
