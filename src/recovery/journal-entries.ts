/**
 * The journal's lines: what each entry holds (`entrySchema`), and how a line is written and read back
 * with its personal fields sealed (./journal-fields.ts) and a sale's link token reduced to its keyed
 * hash.
 */
import * as z from 'zod';
import { networkSchema } from '../flows/schemas.js';
import type { TrackedOrder } from '../flows/types.js';
import { type FieldCipher, SEALED } from './journal-fields.js';

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
  /** A sale's fee in tokens, for its receipt (entries written before have none). */
  fee: z.string().max(40).optional(),
});

export const entrySchema = z.discriminatedUnion('kind', [
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
   * the bound sender, total and fee, phone, its id, tag or note, expiry), as the sell path stores it,
   * its link token replaced by the token's keyed hash (`linkKey`). Kept as an opaque record here: the sell path reads it back (src/sell/filing/journaled.ts).
   */
  z.object({ kind: z.literal('sale'), at: z.number(), intent: z.record(z.string(), z.unknown()) }),
  /** A hash was first reported for a sale (page or chat), before the reporter was answered. */
  z.object({
    kind: z.literal('salehash'),
    at: z.number(),
    intentId: z.string().min(1),
    hash: z.string().min(1),
  }),
  /**
   * A sale's filing is in doubt: its POST was sent and the answer lost (the ramp may have made the
   * order). Recovery after an emptied Redis puts the sale back to look the order up (src/sell/filing/doubted.ts).
   */
  z.object({
    kind: z.literal('doubt'),
    at: z.number(),
    intentId: z.string().min(1),
    hash: z.string().min(1),
    sender: z.string().min(1),
  }),
]);
export type JournalEntry = z.infer<typeof entrySchema>;
export type OrderEntry = Extract<JournalEntry, { kind: 'order' }>;
export type IntendedOrder = Omit<TrackedOrder, 'orderId' | 'createdAt'>;

/** One line read back: its personal fields decrypted (clear ones, from an older version, as they are). */
export function parseLine(
  line: string,
  c: FieldCipher,
  onSealedUnreadable?: () => void,
): JournalEntry | undefined {
  if (!line.trim()) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return undefined; // a torn last line after a crash
  }
  let opened: unknown;
  try {
    opened = openEntry(raw, c);
  } catch {
    onSealedUnreadable?.();
    return undefined;
  }
  const parsed = entrySchema.safeParse(opened);
  return parsed.success ? parsed.data : undefined;
}

/** The personal fields of an entry: the order's (or sale's) phone and its user's chat id. */
function mapPersonal(raw: unknown, f: (value: string, field: string) => string): unknown {
  if (!raw || typeof raw !== 'object') return raw;
  const entry = raw as Record<string, unknown>;
  const part =
    entry.kind === 'sale'
      ? 'intent'
      : entry.kind === 'intent' || entry.kind === 'order'
        ? 'order'
        : undefined;
  if (!part) return raw;
  const inner = entry[part];
  if (!inner || typeof inner !== 'object') return raw;
  const record = { ...(inner as Record<string, unknown>) };
  if (typeof record.phone === 'string') record.phone = f(record.phone, 'phone');
  const user = record.user as Record<string, unknown> | undefined;
  if (user && typeof user === 'object' && typeof user.id === 'string')
    record.user = { ...user, id: f(user.id, `user:${String(user.channel)}`) };
  return { ...entry, [part]: record };
}

export const sealEntry = (entry: JournalEntry, c: FieldCipher) =>
  mapPersonal(withoutLinkToken(entry, c), (v, field) => c.seal(v, field));

/**
 * A sale's signing-link token opens the link: the journal keeps only its keyed hash (`linkKey`),
 * enough to find the sale again when the link is opened after Redis came back empty.
 */
function withoutLinkToken(entry: JournalEntry, c: FieldCipher): JournalEntry {
  if (entry.kind !== 'sale' || typeof entry.intent.linkToken !== 'string') return entry;
  const { linkToken, ...intent } = entry.intent;
  return { ...entry, intent: { ...intent, linkKey: c.linkKey(linkToken) } };
}
const openEntry = (raw: unknown, c: FieldCipher) =>
  mapPersonal(raw, (v, field) => (v.startsWith(SEALED) ? c.open(v, field) : v));
