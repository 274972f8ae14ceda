/**
 * Where cases live. Redis key layout (prefix `p`, default `rampchat:support:`):
 *
 * - `<p>case:<caseId>`               the case record (JSON, validated on read), updated by compare-and-set
 * - `<p>order:<userKey>:<orderId>`   the case id of a user's case about an order
 * - `<p>general:<userKey>`           the case id of a user's case without an order
 * - `<p>last:<userKey>`              the case id the user wrote about last (where relayed texts go)
 * - `<p>topic:<chatId>:<threadId>`   the case id of a support-chat topic
 * - `<p>ticket:<orderId>`            `opening|<ms>` while a ramp ticket is being filed, then its id;
 *                                    `refused|<ms>|<kind>|<reason>` a little while after the ramp refused an agent's
 * - `<p>topic-claim:<caseId>`        held (60 s) by whoever is creating the case's topic
 * - `<p>open`                        the ids of open cases (JSON array), for the agents' `/cases`
 *
 * Records and indexes expire `retentionMs` after their last change (default 90 days).
 * Without Redis the same operations run in memory (local mode; nothing survives a restart): both
 * share one implementation over the keyed-storage port (src/store/keyed/keyed.ts), and only the ticket
 * claim has a Redis script and a memory twin.
 */
import type { RedisClientType } from 'redis';
import type { UserRef } from '../../chat/types.js';
import { userKey } from '../../chat/types.js';
import {
  describeIssues,
  jsonCodec,
  type KeyNamer,
  keysUnder,
  type TextKv,
  updateRecord,
} from '../../store/keyed/keyed.js';
import { memoryKv } from '../../store/keyed/keyed-memory.js';
import { redisKv } from '../../store/keyed/keyed-redis.js';
import { runScript } from '../../store/script.js';
import { type SupportCase, supportCaseSchema } from './case.js';

/** Where a case is found: by order, the user's general case, or the last one they wrote about. */
export type CaseSlot = { kind: 'order'; orderId: string } | { kind: 'general' } | { kind: 'last' };

/** How an agent filed: by order number, or the manual form from the order's facts. */
export type TicketKind = 'order' | 'manual';

export type TicketClaim =
  | { claimed: true }
  | { claimed: false; ticketId?: string; refused?: { at: number; reason: string } };

export interface CaseStore {
  readonly kind: 'redis' | 'memory';
  get(caseId: string): Promise<SupportCase | undefined>;
  /** Stores a new case; false when the id is taken. */
  create(c: SupportCase): Promise<boolean>;
  /**
   * Read-modify-write with compare-and-set: `change` may run more than once (keep it pure); it
   * returns the new record, or undefined to leave the case as it is.
   */
  update(
    caseId: string,
    change: (c: SupportCase) => SupportCase | undefined,
  ): Promise<SupportCase | undefined>;
  /** The case id in a slot. */
  slot(user: UserRef, slot: CaseSlot): Promise<string | undefined>;
  /**
   * Points a slot at `caseId` if it still holds `expected` (undefined = empty). False when someone
   * else changed it first.
   */
  swapSlot(user: UserRef, slot: CaseSlot, expected: string | undefined, caseId: string): Promise<boolean>;
  setLast(user: UserRef, caseId: string): Promise<void>;
  byTopic(chatId: string, threadId: number): Promise<string | undefined>;
  setTopic(chatId: string, threadId: number, caseId: string): Promise<void>;
  /** Takes the right to create a case's topic for `ttlMs`; false when someone else holds it. */
  claimTopic(caseId: string, ttlMs: number): Promise<boolean>;
  releaseTopic(caseId: string): Promise<void>;
  /**
   * Takes the right to file the ticket of an order (or to take over a claim older than `staleMs`).
   * With `kind`, a refusal of that kind recorded by `refuseTicket` answers instead (the ask joins it).
   */
  claimTicket(orderId: string, now: number, staleMs: number, kind?: TicketKind): Promise<TicketClaim>;
  setTicket(orderId: string, ticketId: string): Promise<void>;
  releaseTicket(orderId: string): Promise<void>;
  /** Frees the claim, recording the ramp's refusal for `holdMs` (asks of that kind meanwhile join it). */
  refuseTicket(orderId: string, kind: TicketKind, reason: string, now: number, holdMs: number): Promise<void>;
  /** The ids of cases open now (kept by create and update; a gone case is dropped on the next change). */
  openIds(): Promise<string[]>;
}

const caseCodec = jsonCodec(supportCaseSchema, { validateOnWrite: true });

/** A case from stored text; throws when the text is not JSON or does not validate. */
function decode(caseId: string, raw: string | undefined): SupportCase | undefined {
  if (!raw) return undefined;
  const decoded = caseCodec.decode(raw);
  if (decoded.ok) return decoded.value;
  if (decoded.notJson) throw new Error(`Stored support case ${caseId} is not JSON`);
  throw new Error(`Stored support case ${caseId} does not validate: ${describeIssues(decoded.issues)}`);
}

/**
 * Takes a ticket slot that is empty, held by a claim older than ARGV[2], or holding a refusal of
 * another kind than ARGV[4] ('' for none); '' when taken, else 'opening', the refusal or the ticket id.
 */
const CLAIM_TICKET = `
local v = redis.call('GET', KEYS[1])
local refused = v and string.match(v, '^refused|%d+|(%a+)|')
if not v or (refused and refused ~= ARGV[4]) then
  redis.call('SET', KEYS[1], 'opening|' .. ARGV[1], 'PX', ARGV[3]) return ''
end
if refused then return v end
local at = tonumber(string.match(v, '^opening|(%d+)$'))
if at then
  if tonumber(ARGV[1]) - at > tonumber(ARGV[2]) then
    redis.call('SET', KEYS[1], 'opening|' .. ARGV[1], 'PX', ARGV[3]) return ''
  end
  return 'opening'
end
return v
`;

const DAY = 86_400_000;

/** The one backend-specific step: the ticket claim, atomic in a Lua script or in one memory step. */
type ClaimTicket = (
  key: string,
  now: number,
  staleMs: number,
  ttlMs: number,
  kind: string,
) => Promise<string>;

/** Cases in Redis through a connected node-redis client (shared with the app). */
export function createRedisCaseStore(opts: {
  client: RedisClientType;
  prefix?: string;
  retentionMs?: number;
}): CaseStore {
  const r = opts.client;
  const claimTicket: ClaimTicket = async (key, now, staleMs, ttlMs, kind) =>
    String(
      await runScript(r, CLAIM_TICKET, {
        keys: [key],
        arguments: [String(now), String(staleMs), String(ttlMs), kind],
      }),
    );
  return createCaseStore('redis', redisKv(r), keysUnder(opts.prefix ?? 'rampchat:support:'), {
    claimTicket,
    retentionMs: opts.retentionMs ?? 90 * DAY,
  });
}

/** Cases in memory (local mode without REDIS_URL). */
export function createMemoryCaseStore(): CaseStore {
  const kv = memoryKv();
  const claimTicket: ClaimTicket = async (key, now, staleMs, ttlMs, kind) => {
    const v = kv.peek(key);
    const at = v?.startsWith('opening|') ? Number(v.slice(8)) : undefined;
    const refused = v ? /^refused\|\d+\|([a-z]+)\|/.exec(v)?.[1] : undefined;
    if (!v || (at !== undefined && now - at > staleMs) || (refused !== undefined && refused !== kind)) {
      kv.put(key, `opening|${now}`, { ms: ttlMs });
      return '';
    }
    return at !== undefined ? 'opening' : v;
  };
  return createCaseStore('memory', kv, keysUnder(''), { claimTicket, retentionMs: 90 * DAY });
}

function createCaseStore(
  kind: CaseStore['kind'],
  kv: TextKv,
  key: KeyNamer,
  opts: { claimTicket: ClaimTicket; retentionMs: number },
): CaseStore {
  const ttl = { ms: opts.retentionMs };
  const caseKey = (id: string) => key('case', id);
  const slotKey = (user: UserRef, slot: CaseSlot): string => {
    const u = userKey(user);
    if (slot.kind === 'order') return key('order', u, slot.orderId);
    return key(slot.kind, u);
  };

  const openKey = key('open');
  const readIds = (raw: string | undefined): string[] => {
    try {
      const v: unknown = raw ? JSON.parse(raw) : [];
      return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
    } catch {
      return [];
    }
  };
  /** Keeps the open index in step with a case's status. */
  async function indexOpen(c: SupportCase): Promise<void> {
    for (let attempt = 0; attempt < 50; attempt++) {
      const before = await kv.get(openKey);
      const ids = readIds(before);
      const has = ids.includes(c.id);
      let next: string[];
      if (c.status === 'open' && !has) next = [...ids, c.id].slice(-1000);
      else if (c.status !== 'open' && has) next = ids.filter((x) => x !== c.id);
      else return;
      if (await kv.compareAndSet(openKey, before, JSON.stringify(next), ttl)) return;
    }
    throw new Error('The open cases index kept changing; update given up');
  }

  return {
    kind,
    async get(caseId) {
      return decode(caseId, await kv.get(caseKey(caseId)));
    },
    async create(c) {
      const created = await kv.set(caseKey(c.id), caseCodec.encode(c), { nx: true, ttl });
      if (created) await indexOpen(c);
      return created;
    },
    async update(caseId, change) {
      const updated = await updateRecord(kv, caseKey(caseId), {
        read: (raw) => decode(caseId, raw),
        write: caseCodec.encode,
        change,
        ttl,
        gaveUp: () => new Error(`Support case ${caseId} kept changing; update given up`),
      });
      if (updated) await indexOpen(updated);
      return updated;
    },
    openIds: async () => readIds(await kv.get(openKey)),
    slot: (user, slot) => kv.get(slotKey(user, slot)),
    swapSlot: (user, slot, expected, caseId) => kv.compareAndSet(slotKey(user, slot), expected, caseId, ttl),
    async setLast(user, caseId) {
      await kv.set(slotKey(user, { kind: 'last' }), caseId, { ttl });
    },
    byTopic: (chatId, threadId) => kv.get(key('topic', chatId, threadId)),
    async setTopic(chatId, threadId, caseId) {
      await kv.set(key('topic', chatId, threadId), caseId, { ttl });
    },
    claimTopic: (caseId, ttlMs) => kv.set(key('topic-claim', caseId), '1', { nx: true, ttl: { ms: ttlMs } }),
    releaseTopic: (caseId) => kv.del(key('topic-claim', caseId)),
    async claimTicket(orderId, now, staleMs, kind) {
      const v = await opts.claimTicket(key('ticket', orderId), now, staleMs, opts.retentionMs, kind ?? '');
      if (v === '') return { claimed: true };
      if (v === 'opening') return { claimed: false };
      const refused = /^refused\|(\d+)\|[a-z]+\|(.*)$/s.exec(v);
      if (refused) return { claimed: false, refused: { at: Number(refused[1]), reason: refused[2] ?? '' } };
      return { claimed: false, ticketId: v };
    },
    async setTicket(orderId, ticketId) {
      await kv.set(key('ticket', orderId), ticketId, { ttl });
    },
    releaseTicket: (orderId) => kv.del(key('ticket', orderId)),
    async refuseTicket(orderId, kind, reason, now, holdMs) {
      await kv.set(key('ticket', orderId), `refused|${now}|${kind}|${reason.slice(0, 300)}`, {
        ttl: { ms: holdMs },
      });
    },
  };
}
