/**
 * Open support cases kept outside Redis too (the standing record, src/recovery/standing-record.ts),
 * so a Redis that comes back empty loses neither a case nor the lines its user was told went to
 * support: each change of an open case replaces its file (a closed case's file goes), and the
 * recovery pass puts the case back (its slots, its topic) and posts the lines it still had waiting.
 */
import type { Logger } from '../../log/logger.js';
import type { StandingRecord, StandingRestorer } from '../../recovery/index.js';
import { type SupportCase, supportCaseSchema } from './case.js';
import type { CaseStore } from './store.js';

/** The store, with every open case written to the record after it changed in Redis. */
export function recordedCases(store: CaseStore, record: StandingRecord, log: Logger): CaseStore {
  const latest = new Map<string, SupportCase>();
  const writing = new Map<string, Promise<void>>();
  /** One write at a time per case in this process, always of its latest state. */
  const keep = async (c: SupportCase | undefined) => {
    if (!c) return;
    latest.set(c.id, c);
    const write = (writing.get(c.id) ?? Promise.resolve()).then(async () => {
      const now = latest.get(c.id);
      if (!now) return;
      latest.delete(c.id);
      await record.put('cases', now.id, now.status === 'open' ? now : undefined);
    });
    writing.set(c.id, write);
    await write.catch((err: unknown) =>
      log.error({ caseId: c.id, err: (err as Error).message }, 'could not keep a support case outside Redis'),
    );
    if (writing.get(c.id) === write) writing.delete(c.id);
  };
  return {
    ...store,
    async create(c) {
      const created = await store.create(c);
      if (created) await keep(c);
      return created;
    },
    async update(caseId, change) {
      // A change that left the case as it was writes nothing.
      let changed = false;
      const updated = await store.update(caseId, (c) => {
        const next = change(c);
        changed = next !== undefined;
        return next;
      });
      if (changed) await keep(updated);
      return updated;
    },
  };
}

/**
 * Puts a recorded case back into Redis after it came back empty: the record, the user's slot for it
 * (unless a new case took it meanwhile), the topic's link, then `resume` posts its waiting lines.
 */
export function caseRestorer(
  store: CaseStore,
  record: StandingRecord,
  resume: (caseId: string, lines: number[]) => Promise<void>,
): StandingRestorer {
  return {
    async backfill() {
      let n = 0;
      for (const id of await store.openIds()) {
        const c = await store.get(id).catch(() => undefined);
        if (c?.status !== 'open') continue;
        await record.put('cases', c.id, c);
        n += 1;
      }
      return n;
    },
    lostMessage: { texts: [{ id: 'support-case-lost-after-outage' }], notice: true },
    async restore(raw) {
      const parsed = supportCaseSchema.safeParse(raw);
      if (!parsed.success) {
        const user = supportCaseSchema.shape.user.safeParse((raw as { user?: unknown } | undefined)?.user);
        return { restored: 0, present: 0, lost: 1, ...(user.success ? { user: user.data } : {}) };
      }
      const c = parsed.data;
      if ((await store.get(c.id)) || !(await store.create(c))) return { restored: 0, present: 1, lost: 0 };
      await store.swapSlot(
        c.user,
        c.orderId ? { kind: 'order', orderId: c.orderId } : { kind: 'general' },
        undefined,
        c.id,
      );
      await store.swapSlot(c.user, { kind: 'last' }, undefined, c.id);
      if (c.topic) await store.setTopic(c.topic.chatId, c.topic.threadId, c.id);
      if (c.unposted?.length) await resume(c.id, c.unposted);
      return { restored: 1, present: 0, lost: 0, user: c.user };
    },
  };
}
