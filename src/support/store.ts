/**
 * Where cases live. Redis key layout (prefix `p`, default `rampchat:support:`):
 *
 * - `<p>case:<caseId>`               the case record (JSON, validated on read), updated by compare-and-set
 * - `<p>order:<userKey>:<orderId>`   the case id of a user's case about an order
 * - `<p>general:<userKey>`           the case id of a user's case without an order
 * - `<p>last:<userKey>`              the case id the user wrote about last (where relayed texts go)
 * - `<p>topic:<chatId>:<threadId>`   the case id of a support-chat topic
 * - `<p>ticket:<orderId>`            `opening|<ms>` while a ramp ticket is being filed, then its id
 * - `<p>topic-claim:<caseId>`        held (60 s) by whoever is creating the case's topic
 *
 * Records and indexes expire `retentionMs` after their last change (default 90 days).
 * Without Redis the same operations run in memory (local mode; nothing survives a restart).
 */
import type { RedisClientType } from 'redis';
import type { UserRef } from '../chat/types.js';
import { userKey } from '../chat/types.js';
import { type SupportCase, supportCaseSchema } from './case.js';

/** Where a case is found: by order, the user's general case, or the last one they wrote about. */
export type CaseSlot = { kind: 'order'; orderId: string } | { kind: 'general' } | { kind: 'last' };

export type TicketClaim = { claimed: true } | { claimed: false; ticketId?: string };

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
  /** Takes the right to file the ticket of an order (or to take over a claim older than `staleMs`). */
  claimTicket(orderId: string, now: number, staleMs: number): Promise<TicketClaim>;
  setTicket(orderId: string, ticketId: string): Promise<void>;
  releaseTicket(orderId: string): Promise<void>;
}

const slotKey = (user: UserRef, slot: CaseSlot): string => {
  const u = userKey(user);
  if (slot.kind === 'order') return `order:${u}:${slot.orderId}`;
  return slot.kind === 'general' ? `general:${u}` : `last:${u}`;
};

function decode(caseId: string, raw: string | null | undefined): SupportCase | undefined {
  if (!raw) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error(`Stored support case ${caseId} is not JSON`);
  }
  const parsed = supportCaseSchema.safeParse(json);
  if (!parsed.success)
    throw new Error(
      `Stored support case ${caseId} does not validate: ${parsed.error.issues
        .map((i) => `${i.path.join('.')}: ${i.message}`)
        .join('; ')}`,
    );
  return parsed.data;
}

const CAS = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
`;
const SWAP = `
local cur = redis.call('GET', KEYS[1])
if (cur or '') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
`;
const CLAIM_TICKET = `
local v = redis.call('GET', KEYS[1])
if not v then redis.call('SET', KEYS[1], 'opening|' .. ARGV[1], 'PX', ARGV[3]) return '' end
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

/** Cases in Redis through a connected node-redis client (shared with the app). */
export function createRedisCaseStore(opts: {
  client: RedisClientType;
  prefix?: string;
  retentionMs?: number;
}): CaseStore {
  const r = opts.client;
  const p = opts.prefix ?? 'rampchat:support:';
  const ttl = String(opts.retentionMs ?? 90 * DAY);
  const caseKey = (id: string) => `${p}case:${id}`;

  return {
    kind: 'redis',
    async get(caseId) {
      return decode(caseId, await r.get(caseKey(caseId)));
    },
    async create(c) {
      const ok = await r.set(caseKey(c.id), JSON.stringify(supportCaseSchema.parse(c)), {
        condition: 'NX',
        expiration: { type: 'PX', value: Number(ttl) },
      });
      return ok === 'OK';
    },
    async update(caseId, change) {
      for (let attempt = 0; attempt < 50; attempt++) {
        const raw = await r.get(caseKey(caseId));
        const current = decode(caseId, raw);
        if (!current) return undefined;
        const next = change(current);
        if (!next) return current;
        const written = await r.eval(CAS, {
          keys: [caseKey(caseId)],
          arguments: [raw as string, JSON.stringify(supportCaseSchema.parse(next)), ttl],
        });
        if (Number(written) === 1) return next;
      }
      throw new Error(`Support case ${caseId} kept changing; update given up`);
    },
    async slot(user, slot) {
      return (await r.get(`${p}${slotKey(user, slot)}`)) ?? undefined;
    },
    async swapSlot(user, slot, expected, caseId) {
      const n = await r.eval(SWAP, {
        keys: [`${p}${slotKey(user, slot)}`],
        arguments: [expected ?? '', caseId, ttl],
      });
      return Number(n) === 1;
    },
    async setLast(user, caseId) {
      await r.set(`${p}${slotKey(user, { kind: 'last' })}`, caseId, {
        expiration: { type: 'PX', value: Number(ttl) },
      });
    },
    async byTopic(chatId, threadId) {
      return (await r.get(`${p}topic:${chatId}:${threadId}`)) ?? undefined;
    },
    async setTopic(chatId, threadId, caseId) {
      await r.set(`${p}topic:${chatId}:${threadId}`, caseId, {
        expiration: { type: 'PX', value: Number(ttl) },
      });
    },
    async claimTopic(caseId, ttlMs) {
      const ok = await r.set(`${p}topic-claim:${caseId}`, '1', {
        condition: 'NX',
        expiration: { type: 'PX', value: ttlMs },
      });
      return ok === 'OK';
    },
    async releaseTopic(caseId) {
      await r.del(`${p}topic-claim:${caseId}`);
    },
    async claimTicket(orderId, now, staleMs) {
      const v = String(
        await r.eval(CLAIM_TICKET, {
          keys: [`${p}ticket:${orderId}`],
          arguments: [String(now), String(staleMs), ttl],
        }),
      );
      if (v === '') return { claimed: true };
      if (v === 'opening') return { claimed: false };
      return { claimed: false, ticketId: v };
    },
    async setTicket(orderId, ticketId) {
      await r.set(`${p}ticket:${orderId}`, ticketId, { expiration: { type: 'PX', value: Number(ttl) } });
    },
    async releaseTicket(orderId) {
      await r.del(`${p}ticket:${orderId}`);
    },
  };
}

/** Cases in memory (local mode without REDIS_URL). */
export function createMemoryCaseStore(): CaseStore {
  const cases = new Map<string, string>();
  const keys = new Map<string, string>();
  const claims = new Map<string, number>();
  return {
    kind: 'memory',
    async get(caseId) {
      return decode(caseId, cases.get(caseId));
    },
    async create(c) {
      if (cases.has(c.id)) return false;
      cases.set(c.id, JSON.stringify(supportCaseSchema.parse(c)));
      return true;
    },
    async update(caseId, change) {
      const current = decode(caseId, cases.get(caseId));
      if (!current) return undefined;
      const next = change(current);
      if (!next) return current;
      cases.set(caseId, JSON.stringify(supportCaseSchema.parse(next)));
      return next;
    },
    async slot(user, slot) {
      return keys.get(slotKey(user, slot));
    },
    async swapSlot(user, slot, expected, caseId) {
      const k = slotKey(user, slot);
      if (keys.get(k) !== expected) return false;
      keys.set(k, caseId);
      return true;
    },
    async setLast(user, caseId) {
      keys.set(slotKey(user, { kind: 'last' }), caseId);
    },
    async byTopic(chatId, threadId) {
      return keys.get(`topic:${chatId}:${threadId}`);
    },
    async setTopic(chatId, threadId, caseId) {
      keys.set(`topic:${chatId}:${threadId}`, caseId);
    },
    async claimTopic(caseId, ttlMs) {
      const until = claims.get(caseId);
      if (until !== undefined && until > Date.now()) return false;
      claims.set(caseId, Date.now() + ttlMs);
      return true;
    },
    async releaseTopic(caseId) {
      claims.delete(caseId);
    },
    async claimTicket(orderId, now, staleMs) {
      const k = `ticket:${orderId}`;
      const v = keys.get(k);
      const at = v?.startsWith('opening|') ? Number(v.slice(8)) : undefined;
      if (!v || (at !== undefined && now - at > staleMs)) {
        keys.set(k, `opening|${now}`);
        return { claimed: true };
      }
      if (at !== undefined) return { claimed: false };
      return { claimed: false, ticketId: v };
    },
    async setTicket(orderId, ticketId) {
      keys.set(`ticket:${orderId}`, ticketId);
    },
    async releaseTicket(orderId) {
      keys.delete(`ticket:${orderId}`);
    },
  };
}
