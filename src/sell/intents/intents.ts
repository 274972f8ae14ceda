/**
 * Sell intents: what was bound when the user confirmed (phone, wallet, token, total, fee, tag or
 * note, time window), kept in Redis (or memory in local mode). Nothing reported later can change
 * those fields: updates go through `update`, which only the service calls, and the service never
 * touches the bound fields.
 *
 * Keys (prefix `p`):
 * - `<p>sellintent:<id>`          the intent, JSON; changed only by compare-and-set on the whole text
 * - `<p>selllink:<token>`         signing link token -> intent id
 * - `<p>selllinkkey:<key>`        the token's keyed hash -> intent id (a sale put back from the journal)
 * - `<p>sellkey:<key>`            idempotency key of the flow instance -> intent id (SET NX)
 * - `<p>sellhash:<chain>:<hash>`  a claimed transaction hash -> intent id (SET NX, never expires)
 * - `<p>sellfiling:<id>`          the one hash an intent files and when it was claimed, `<hash> <epoch ms>`
 *   (SET NX; older records hold the bare hash)
 *
 * Intents, links and keys expire `INTENT_RETENTION_SECONDS` after creation (in memory too). Redis and
 * memory share one implementation over the keyed-storage port (src/store/keyed/keyed.ts).
 */
import type { RedisClientType } from 'redis';
import * as z from 'zod';
import { NETWORKS } from '../../domain/types.js';
import { jsonCodec, type KeyNamer, keysUnder, type TextKv, updateRecord } from '../../store/keyed/keyed.js';
import { memoryKv } from '../../store/keyed/keyed-memory.js';
import { redisKv } from '../../store/keyed/keyed-redis.js';

const localeSchema = z.enum(['en', 'sw']);

export const INTENT_STATUSES = [
  'open',
  'filing',
  'filed',
  'filing-unknown',
  'refused',
  'expired',
  'cancelled',
] as const;
export type IntentStatus = (typeof INTENT_STATUSES)[number];

export const sellIntentSchema = z.object({
  id: z.string().regex(/^[0-9a-f]{32}$/),
  /** Opens the signing link; absent on a sale put back from the journal, which keeps only `linkKey`. */
  linkToken: z
    .string()
    .regex(/^[A-Za-z0-9_-]{22,}$/)
    .optional(),
  /** The token's keyed hash as the journal keeps it (src/recovery/journal-entries.ts). */
  linkKey: z.string().min(16).optional(),
  key: z.string().min(1),
  user: z.object({ channel: z.enum(['telegram', 'whatsapp', 'terminal']), id: z.string().min(1) }),
  locale: localeSchema,
  network: z.enum(NETWORKS),
  token: z.object({ symbol: z.string(), address: z.string(), decimals: z.number().int().min(0) }),
  /**
   * Decimal texts: the total to send (the ramp's quoted `inputAmount`, fee included), the fee (part
   * of the total), and the total less the fee.
   */
  amount: z.string(),
  fee: z.string(),
  total: z.string(),
  /** Base units, bigint as decimal text. */
  totalUnits: z.string().regex(/^\d+$/),
  feeUnits: z.string().regex(/^\d+$/),
  amountKes: z.number(),
  exchangeRate: z.number(),
  phone: z.string().regex(/^254[17]\d{8}$/),
  wallet: z.string().optional(),
  evm: z
    .object({
      chainId: z.number().int(),
      escrow: z.string(),
      escrowCall: z.enum(['current', 'legacy', 'permit']),
      tag: z.string().regex(/^0x[0-9a-f]{24}$/),
      confirmations: z.number().int().min(1),
      local: z.boolean(),
    })
    .optional(),
  algorand: z
    .object({
      receiver: z.string(),
      assetId: z.string().regex(/^\d+$/),
      note: z.string(),
      minRound: z.string().regex(/^\d+$/),
      confirmations: z.number().int().min(1),
    })
    .optional(),
  /** Epoch ms. */
  createdAt: z.number(),
  expiresAt: z.number(),
  status: z.enum(INTENT_STATUSES),
  /** Hashes reported but not yet confirmed deep enough, with when each was first seen. */
  /** `unseen`: the chain did not know it when reported (junk, a typo, or not yet sent out). */
  pending: z
    .array(
      z.object({
        hash: z.string(),
        since: z.number(),
        unseen: z.boolean().optional(),
        /** Posted to the signing page, not typed in chat: its failure is the page's to show, not the chat's. */
        quiet: z.boolean().optional(),
      }),
    )
    .default([]),
  /** Hashes refused for this intent (so a watcher does not check them again). */
  refused: z.array(z.string()).default([]),
  /** Hashes noted in the order journal (bounded per sale: ../filing/journal-hashes.ts). */
  journaled: z.array(z.string()).optional(),
  hash: z.string().optional(),
  sender: z.string().optional(),
  /** Filing POSTs made so far for `hash` (a lost answer is reconciled and retried a few times). */
  filingAttempts: z.number().int().min(0).optional(),
  orderId: z.string().optional(),
  refusal: z.string().optional(),
  escalated: z.boolean().optional(),
  /** Put back from the journal after Redis came back empty: its hash may have been posted before. */
  recovered: z.boolean().optional(),
  /** Set once the user was told the link expired. */
  expiredNoticeSent: z.boolean().optional(),
  updatedAt: z.number(),
});
export type SellIntent = z.infer<typeof sellIntentSchema>;

/** Where intents live. */
export interface IntentStore {
  readonly kind: 'redis' | 'memory';
  /**
   * Stores `make()` unless an intent was already created under `key`; returns the one that holds
   * the key either way.
   */
  createOnce(key: string, make: () => SellIntent): Promise<{ intent: SellIntent; created: boolean }>;
  get(id: string): Promise<SellIntent | undefined>;
  byLink(token: string): Promise<SellIntent | undefined>;
  /** A sale put back from the journal, by its link token's keyed hash. */
  byLinkKey(linkKey: string): Promise<SellIntent | undefined>;
  /**
   * Applies `change` atomically (compare-and-set, retried on conflict). `change` returns the new
   * intent, or undefined to leave it as is. Resolves with what is stored afterwards.
   */
  update(id: string, change: (intent: SellIntent) => SellIntent | undefined): Promise<SellIntent | undefined>;
  /** SET NX: undefined when this call claimed `name` for `value`, else the value that holds it. */
  claim(name: string, value: string): Promise<string | undefined>;
  /** The value holding a claim, if any. */
  claimedBy(name: string): Promise<string | undefined>;
  /** Deletes a claim only if `value` still holds it. */
  release(name: string, value: string): Promise<void>;
}

/** How long intents and their links are kept after creation. */
export const INTENT_RETENTION_SECONDS = 30 * 24 * 3600;

export const hashClaim = (chain: string, hash: string): string =>
  `sellhash:${chain}:${chain === 'algorand' ? hash.toUpperCase() : hash.toLowerCase()}`;
export const filingClaim = (intentId: string): string => `sellfiling:${intentId}`;

/** The value of a filing slot: the hash and when it was claimed (a hash never holds a space). */
export const filingSlot = (hash: string, at: number): string => `${hash} ${at}`;

/** Reads a filing slot; `since` is undefined for a slot written before it carried the time. */
export function readFilingSlot(value: string): { hash: string; since?: number } {
  const [hash = '', at] = value.split(' ');
  const since = at === undefined ? undefined : Number(at);
  return Number.isFinite(since) ? { hash, since } : { hash };
}

const intentCodec = jsonCodec(sellIntentSchema);

/** An intent from stored text: text that is not JSON throws (as `JSON.parse` does), one that does not validate reads as none. */
function parseIntent(text: string | undefined): SellIntent | undefined {
  if (!text) return undefined;
  const decoded = intentCodec.decode(text);
  if (decoded.ok) return decoded.value;
  if (decoded.notJson) throw decoded.cause;
  return undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Intents kept in Redis through a connected node-redis client. */
export function createRedisIntentStore(redis: RedisClientType, prefix: string): IntentStore {
  return createIntentStore('redis', redisKv(redis), keysUnder(prefix));
}

/** Local mode: the same contract in this process's memory. */
export function createMemoryIntentStore(): IntentStore {
  return createIntentStore('memory', memoryKv(), keysUnder(''));
}

function createIntentStore(kind: IntentStore['kind'], kv: TextKv, key: KeyNamer): IntentStore {
  const ttl = { ms: INTENT_RETENTION_SECONDS * 1000 };
  const get = async (id: string) => parseIntent(await kv.get(key('sellintent', id)));

  return {
    kind,
    async createOnce(idemKey, make) {
      const intent = make();
      if (await kv.set(key('sellkey', idemKey), intent.id, { nx: true, ttl })) {
        await kv.setAll(
          [
            [key('sellintent', intent.id), intentCodec.encode(intent)],
            ...(intent.linkToken ? [[key('selllink', intent.linkToken), intent.id] as [string, string]] : []),
            ...(intent.linkKey ? [[key('selllinkkey', intent.linkKey), intent.id] as [string, string]] : []),
          ],
          ttl,
        );
        return { intent, created: true };
      }
      const id = await kv.get(key('sellkey', idemKey));
      // The winner writes the intent right after its key: wait a moment for it.
      for (let i = 0; id && i < 50; i++) {
        const existing = await get(id);
        if (existing) return { intent: existing, created: false };
        await sleep(20);
      }
      throw new Error(`sell intent key ${idemKey} is held by ${id ?? '(nothing)'} but no intent was stored`);
    },
    get,
    async byLink(token) {
      if (!/^[A-Za-z0-9_-]{22,64}$/.test(token)) return undefined;
      const id = await kv.get(key('selllink', token));
      return id ? get(id) : undefined;
    },
    async byLinkKey(linkKey) {
      const id = await kv.get(key('selllinkkey', linkKey));
      return id ? get(id) : undefined;
    },
    update: (id, change) =>
      updateRecord(kv, key('sellintent', id), {
        read: parseIntent,
        write: intentCodec.encode,
        change: (current) => change(structuredClone(current)),
        ttl: 'keep',
        pauseMs: () => Math.random() * 10,
        gaveUp: () => new Error(`sell intent ${id} kept changing; update given up`),
      }),
    async claim(name, value) {
      if (await kv.set(key(name), value, { nx: true })) return undefined;
      return kv.get(key(name));
    },
    claimedBy: (name) => kv.get(key(name)),
    async release(name, value) {
      await kv.compareAndDelete(key(name), value);
    },
  };
}
