/**
 * A journal of the orders rampchat creates, kept outside Redis (append-only JSON lines), so an order
 * can be found again when Redis comes back empty. Each entry is written before the ramp is asked
 * (`intent`: who, which wallet and network, what) and again once the order id is known (`order`: the
 * whole tracked order), and once its final message was posted or it went to support (`final`: the
 * order is over, recovery leaves it alone). A sale is journaled from its signing link on (`sale`: the
 * bound intent; `salehash`: a hash reported for it), since until it is filed it lives only in Redis.
 *
 * It keeps what recovery needs and no more:
 * - Private: files 0600 in a 0700 folder (wider modes left by an older version are narrowed at open).
 * - The phone number and the chat user's id (a WhatsApp id is a phone number) are encrypted
 *   (AES-256-GCM, `enc:v1:` values) with a key derived from JOURNAL_KEY; without it (local mode) a
 *   key is generated once beside the journal (`<name>.key`, 0600). Recovery needs both in clear: the
 *   phone to finish a payout, the id to reach the user. Wallets, amounts and hashes stay readable
 *   (they are public on chain, and an operator reading the journal needs them).
 * - Pruned by age while running: entries go to one file per hour (`orders-20261126T170000Z.jsonl`), and
 *   every few minutes the files wholly older than the horizon are deleted. Nothing is rewritten, so
 *   appends from several replicas on one shared DATA_DIR are never lost to a compaction.
 * - An older version's single clear-text `orders.jsonl` is read as is and moved into the hourly files,
 *   encrypted, at open (one process takes it, by renaming it).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import {
  appendFile,
  chmod,
  mkdir,
  readdir,
  readFile,
  rename,
  stat,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
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

/** Options of the file journal. */
export interface FileJournalOptions {
  now?: () => number;
  onError?: (err: Error) => void;
  /**
   * JOURNAL_KEY: the secret the personal fields are encrypted with (32 characters or more). Without
   * it a random key is generated once and kept beside the journal (local mode; production requires
   * the setting, see src/config/env.ts).
   */
  secret?: string;
  /** How long entries are kept (RECOVERY_HORIZON_MS); with it, older files are deleted while running. */
  horizonMs?: number;
  /** How often the old files are looked for (default 5 min). */
  pruneEveryMs?: number;
  /** How much time one file covers (default 1 h): the journal keeps up to this much past the horizon. */
  segmentMs?: number;
}

/** The file journal: an order journal that also prunes itself and stops its timer on close. */
export interface FileJournal extends OrderJournal {
  /** Deletes the files holding only entries older than `since`; resolves with how many. */
  prune(since: number): Promise<number>;
  /** Stops the pruning timer. */
  close(): void;
}

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;
const SEALED = 'enc:v1:';

/**
 * The journal in files (`path` names it: `data/orders.jsonl` -> `data/orders-<hour>.jsonl`), created
 * with its folder on first use. Writes never throw (they log).
 */
export function createFileJournal(path: string, opts: FileJournalOptions = {}): FileJournal {
  const now = opts.now ?? Date.now;
  const dir = dirname(path);
  const stem = basename(path).replace(/\.jsonl$/, '');
  const segmentMs = opts.segmentMs ?? 3600_000;
  const report = (err: unknown) => opts.onError?.(err instanceof Error ? err : new Error(String(err)));
  const segmentPattern = new RegExp(`^${escapeRe(stem)}-(\\d{8}T\\d{4,6})Z\\.jsonl$`);
  const migratingPattern = new RegExp(`^${escapeRe(basename(path))}\\.migrating-`);
  const segmentOf = (at: number) => join(dir, `${stem}-${stampOf(at - (at % segmentMs))}Z.jsonl`);

  let ready: Promise<FieldCipher> | undefined;
  const open = (): Promise<FieldCipher> => {
    if (ready) return ready;
    const opening = (async () => {
      await mkdir(dir, { recursive: true, mode: DIR_MODE });
      await narrow(dir, DIR_MODE).catch(report);
      const cipher = fieldCipher(opts.secret ?? (await localKey(join(dir, `${stem}.key`))));
      for (const name of await journalFiles()) await narrow(join(dir, name), FILE_MODE).catch(report);
      await migrate(cipher).catch(report);
      return cipher;
    })();
    ready = opening;
    // A failed open (a folder that could not be made) is tried again by the next write.
    opening.catch(() => {
      if (ready === opening) ready = undefined;
    });
    return opening;
  };

  /** The journal's files in its folder: the hourly ones, an older version's single file, leftovers of a migration. */
  const journalFiles = async (): Promise<string[]> => {
    const names = await readdir(dir).catch(() => [] as string[]);
    return names.filter(
      (n) =>
        segmentPattern.test(n) || n === basename(path) || migratingPattern.test(n) || n === `${stem}.key`,
    );
  };

  /** Moves an older version's clear-text file into the hourly files, encrypted (one process takes it). */
  const migrate = async (c: FieldCipher) => {
    const names = (await readdir(dir)).filter((n) => n === basename(path) || migratingPattern.test(n));
    for (const name of names) {
      const mine = `${path}.migrating-${process.pid}-${randomBytes(4).toString('hex')}`;
      try {
        await rename(join(dir, name), mine);
      } catch {
        continue; // another process took it
      }
      const bySegment = new Map<string, string[]>();
      for (const line of (await readFile(mine, 'utf8')).split('\n')) {
        const entry = parseLine(line, c);
        if (!entry) continue;
        const file = segmentOf(entry.at);
        bySegment.set(file, [...(bySegment.get(file) ?? []), `${JSON.stringify(sealEntry(entry, c))}\n`]);
      }
      for (const [file, lines] of bySegment) await appendFile(file, lines.join(''), { mode: FILE_MODE });
      await unlink(mine);
    }
  };

  const append = async (entry: JournalEntry) => {
    try {
      const c = await open();
      await appendFile(segmentOf(entry.at), `${JSON.stringify(sealEntry(entry, c))}\n`, { mode: FILE_MODE });
    } catch (err) {
      report(err);
    }
  };

  const prune = async (since: number): Promise<number> => {
    await open();
    let removed = 0;
    for (const name of await journalFiles()) {
      const m = segmentPattern.exec(name);
      if (!m?.[1]) continue;
      const start = startOf(m[1]);
      if (start === undefined || start + segmentMs > since) continue;
      try {
        await unlink(join(dir, name));
        removed += 1;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') report(err);
      }
    }
    return removed;
  };

  let timer: NodeJS.Timeout | undefined;
  if (opts.horizonMs !== undefined) {
    const horizon = opts.horizonMs;
    timer = setInterval(() => void prune(now() - horizon).catch(report), opts.pruneEveryMs ?? 5 * 60_000);
    timer.unref();
  }

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
      let c: FieldCipher;
      try {
        c = await open();
      } catch {
        return [];
      }
      const entries: JournalEntry[] = [];
      let sealedUnreadable = 0;
      for (const name of (await journalFiles()).sort()) {
        if (name === `${stem}.key`) continue;
        const m = segmentPattern.exec(name);
        const start = m?.[1] ? startOf(m[1]) : undefined;
        if (start !== undefined && start + segmentMs <= since) continue;
        let text: string;
        try {
          text = await readFile(join(dir, name), 'utf8');
        } catch {
          continue; // pruned or migrated meanwhile
        }
        for (const line of text.split('\n')) {
          const entry = parseLine(line, c, () => (sealedUnreadable += 1));
          if (entry && entry.at >= since) entries.push(entry);
        }
      }
      if (sealedUnreadable > 0)
        report(
          new Error(
            `${sealedUnreadable} journal entries could not be decrypted (was JOURNAL_KEY changed?); they are skipped`,
          ),
        );
      // Files are read in name (hour) order; entries within an hour may interleave across replicas.
      return entries.sort((a, b) => a.at - b.at);
    },
    prune,
    close: () => clearInterval(timer),
  };
}

/** Keeps the journal to the entries newer than `since` (called at start): older files are deleted. */
export async function compactJournal(_path: string, journal: OrderJournal, since: number): Promise<void> {
  if ('prune' in journal) await (journal as FileJournal).prune(since);
}

/** One line read back: its personal fields decrypted (clear ones, from an older version, as they are). */
function parseLine(line: string, c: FieldCipher, onSealedUnreadable?: () => void): JournalEntry | undefined {
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

const sealEntry = (entry: JournalEntry, c: FieldCipher) => mapPersonal(entry, (v, field) => c.seal(v, field));
const openEntry = (raw: unknown, c: FieldCipher) =>
  mapPersonal(raw, (v, field) => (v.startsWith(SEALED) ? c.open(v, field) : v));

interface FieldCipher {
  seal(value: string, field: string): string;
  /** Throws when the value was sealed with another key (or altered). */
  open(value: string, field: string): string;
}

/** AES-256-GCM per value, a fresh 12-byte IV each, the field name as associated data. */
function fieldCipher(secret: string | Buffer): FieldCipher {
  const key = Buffer.from(hkdfSync('sha256', secret, 'rampchat-journal', 'order journal fields v1', 32));
  return {
    seal(value, field) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(field));
      const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
      return `${SEALED}${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    open(value, field) {
      const bytes = Buffer.from(value.slice(SEALED.length), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
      decipher.setAAD(Buffer.from(field));
      decipher.setAuthTag(bytes.subarray(12, 28));
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

/** The key kept beside the journal without JOURNAL_KEY: made once (0600), by whichever process is first. */
async function localKey(file: string): Promise<Buffer> {
  try {
    await writeFile(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: FILE_MODE });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  // Another process may be writing it this instant: read until it is whole.
  for (let i = 0; ; i++) {
    const text = (await readFile(file, 'utf8')).trim();
    if (/^[0-9a-f]{64}$/.test(text)) return Buffer.from(text, 'hex');
    if (i >= 20)
      throw new Error(`${file} is not a journal key (64 hex digits); remove it or set JOURNAL_KEY`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Narrows a file's or folder's mode (an older version made them 0644 / 0755). */
async function narrow(file: string, mode: number): Promise<void> {
  const st = await stat(file).catch(() => undefined);
  if (st && (st.mode & 0o777) !== mode) await chmod(file, mode);
}

/** `20261126T170000` for the segment starting at `at` (UTC). */
function stampOf(at: number): string {
  const iso = new Date(at).toISOString(); // 2026-11-26T17:00:05.000Z
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}`;
}

function startOf(stamp: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})?$/.exec(stamp);
  if (!m) return undefined;
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0));
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

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
