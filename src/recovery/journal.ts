/**
 * A journal of the orders rampchat creates, kept outside Redis (an append-only JSON-lines file), so
 * an order can be found again when Redis comes back empty. Each entry is written before the ramp is
 * asked (`intent`: who, which wallet and network, what) and again once the order id is known
 * (`order`: the whole tracked order), and once its final message was posted or it went to support
 * (`final`: the order is over, recovery leaves it alone). A sale is journaled from its signing link
 * on (`sale`: the bound intent; `salehash`: a hash reported for it), since until it is filed it
 * lives only in Redis. Entries older than the horizon are dropped on
 * open.
 */
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { UserRef } from '../chat/types.js';
import { networkSchema } from '../flows/schemas.js';
import type { TrackedOrder } from '../flows/types.js';

const userSchema = z.object({ channel: z.enum(['telegram', 'whatsapp', 'terminal']), id: z.string().min(1) });
const tokenSchema = z.object({ symbol: z.string(), address: z.string(), decimals: z.number().int() });
const orderPart = z.object({
  side: z.enum(['onramp', 'offramp']),
  user: userSchema,
  network: networkSchema,
  walletAddress: z.string().min(1),
  token: tokenSchema,
  amountKes: z.number(),
  paidKes: z.number().optional(),
  tokenAmount: z.string().optional(),
  phone: z.string(),
  txHash: z.string().optional(),
});

const entrySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('intent'), at: z.number(), order: orderPart }),
  z.object({
    kind: z.literal('order'),
    at: z.number(),
    /**
     * 2: written by a version that also journals `final`, so a missing `final` means the user was
     * not told. Older entries (no `v`) cannot say that.
     */
    v: z.literal(2).optional(),
    order: orderPart.extend({ orderId: z.string().min(1), createdAt: z.number() }),
  }),
  z.object({ kind: z.literal('final'), at: z.number(), orderId: z.string().min(1) }),
  /**
   * A sale's signing link was issued: what the intent bound (who, chain, token, escrow or receiver,
   * the bound sender, total and fee, phone, its id, link token, tag or note, expiry), as the sell
   * path stores it. Kept as an opaque record here: the sell path reads it back (src/sell/journaled.ts).
   */
  z.object({ kind: z.literal('sale'), at: z.number(), intent: z.record(z.string(), z.unknown()) }),
  /** A hash was first reported for a sale (page or chat), before the reporter was answered. */
  z.object({
    kind: z.literal('salehash'),
    at: z.number(),
    intentId: z.string().min(1),
    hash: z.string().min(1),
  }),
]);
export type JournalEntry = z.infer<typeof entrySchema>;
type OrderEntry = Extract<JournalEntry, { kind: 'order' }>;
export type IntendedOrder = Omit<TrackedOrder, 'orderId' | 'createdAt'>;

export interface OrderJournal {
  /** Before the ramp is asked: who, which wallet, what. */
  intent(order: IntendedOrder): Promise<void>;
  /** Once the order id is known. */
  order(order: TrackedOrder): Promise<void>;
  /** Once the order's final message was posted, or it was handed to support. */
  final(orderId: string): Promise<void>;
  /** When a sale's signing link is issued: the intent as bound (outside Redis until it is filed). */
  sale(intent: object): Promise<void>;
  /** When a hash is first reported for a sale, before the reporter is answered. */
  saleHash(intentId: string, hash: string): Promise<void>;
  /** Entries newer than `since` (epoch ms), oldest first; unreadable lines are skipped. */
  read(since: number): Promise<JournalEntry[]>;
}

/** The journal in a file; created with its folder on first write. Writes never throw (they log). */
export function createFileJournal(
  path: string,
  opts: { now?: () => number; onError?: (err: Error) => void } = {},
): OrderJournal {
  const now = opts.now ?? Date.now;
  let ready: Promise<void> | undefined;
  const append = async (entry: JournalEntry) => {
    try {
      ready ??= mkdir(dirname(path), { recursive: true }).then(() => undefined);
      await ready;
      await appendFile(path, `${JSON.stringify(entry)}\n`);
    } catch (err) {
      opts.onError?.(err as Error);
    }
  };
  return {
    intent: (order) => append({ kind: 'intent', at: now(), order: strip(order) }),
    order: (order) =>
      append({
        kind: 'order',
        at: now(),
        v: 2,
        order: strip(order) as OrderEntry['order'],
      }),
    final: (orderId) => append({ kind: 'final', at: now(), orderId }),
    sale: (intent) =>
      append({
        kind: 'sale',
        at: now(),
        intent: JSON.parse(JSON.stringify(intent)) as Record<string, unknown>,
      }),
    saleHash: (intentId, hash) => append({ kind: 'salehash', at: now(), intentId, hash }),
    async read(since) {
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch {
        return [];
      }
      const entries: JournalEntry[] = [];
      for (const line of text.split('\n')) {
        if (!line.trim()) continue;
        try {
          const parsed = entrySchema.safeParse(JSON.parse(line));
          if (parsed.success && parsed.data.at >= since) entries.push(parsed.data);
        } catch {
          // a torn last line after a crash
        }
      }
      return entries;
    },
  };
}

/** Keeps the journal to the entries newer than `since` (called at start). */
export async function compactJournal(path: string, journal: OrderJournal, since: number): Promise<void> {
  const kept = await journal.read(since);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, kept.map((e) => `${JSON.stringify(e)}\n`).join(''));
}

/** A journal that keeps nothing (memory mode: there is no Redis to lose). */
export const noJournal: OrderJournal = {
  intent: async () => {},
  order: async () => {},
  final: async () => {},
  sale: async () => {},
  saleHash: async () => {},
  read: async () => [],
};

const strip = <T extends { user: UserRef }>(o: T): T => JSON.parse(JSON.stringify(o)) as T;
