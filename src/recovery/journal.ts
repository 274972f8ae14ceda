/**
 * A journal of the orders rampchat creates, kept outside Redis (append-only JSON lines), so an order
 * can be found again when Redis comes back empty. Each entry is written before the ramp is asked
 * (`intent`: who, which wallet and network, what) and again once the order id is known (`order`: the
 * whole tracked order), and once its final message was posted or it went to support (`final`: the
 * order is over, recovery leaves it alone). A sale is journaled from its signing link on (`sale`: the
 * bound intent; `salehash`: a hash reported for it, a few per sale; `doubt`: its filing POST lost its
 * answer), since until it is filed it lives only in Redis. A sale's signing-link token is never
 * written: only its keyed hash (`linkKey`), which finds the sale when its link is opened after Redis
 * came back empty but cannot open the link.
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
import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { UserRef } from '../chat/types.js';
import type { TrackedOrder } from '../flows/types.js';
import {
  type IntendedOrder,
  type JournalEntry,
  type OrderEntry,
  parseLine,
  sealEntry,
} from './journal-entries.js';
import {
  DIR_MODE,
  escapeRe,
  FILE_MODE,
  type FieldCipher,
  fieldCipher,
  localKey,
  narrow,
  stampOf,
  startOf,
} from './journal-fields.js';

export type { IntendedOrder, JournalEntry } from './journal-entries.js';

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
  /** When a sale's filing POST lost its answer: the order may exist (src/sell/filing/doubted.ts). */
  doubt?(intentId: string, hash: string, sender: string): Promise<void>;
  /** The keyed hash a sale's link token is journaled as (`linkKey`): finds the sale again. */
  linkKey?(token: string): Promise<string | undefined>;
  /** Entries newer than `since` (epoch ms), oldest first; unreadable lines are skipped. */
  read(since: number): Promise<JournalEntry[]>;
}

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
    doubt: (intentId, hash, sender) => append({ kind: 'doubt', at: now(), intentId, hash, sender }),
    linkKey: async (token) => (await open().catch(() => undefined))?.linkKey(token),
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
