/**
 * The durable record of what users keep standing: their rate alerts (one file per user) and their
 * standing-buy plans (one file per plan), outside Redis, so the recovery pass can put them back when
 * Redis comes back empty. Unlike the order journal (append-only hourly files pruned after the
 * recovery horizon), these live as long as the alert or plan does, so each is a small file replaced
 * whole (written aside, then renamed: a reader or another replica never sees half a file) after
 * every change, and removed when nothing is left.
 *
 * Files are private like the journal's (0600 in 0700 folders) and their whole content is sealed with
 * the journal's key (JOURNAL_KEY, or the key kept beside the journal in local mode): a user's id, a
 * plan's phone and wallet never lie in clear. Names are keyed hashes of the user (alerts) or the
 * plan id, spread over 256 folders.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DIR_MODE, FILE_MODE, type FieldCipher, fieldCipher, localKey, narrow } from './journal-fields.js';

export type StandingKind = 'alerts' | 'plans' | 'cases';

/** One file read back: its payload, or why it could not be read (then the file is named for the log). */
export interface StandingFile {
  kind: StandingKind;
  name: string;
  at: number;
  payload?: unknown;
  error?: string;
}

export interface StandingRecord {
  /** Replaces the record under `key` (the user for alerts, the plan id for plans); `undefined` removes it. */
  put(kind: StandingKind, key: string, payload: unknown | undefined): Promise<void>;
  /** Every record of a kind. */
  list(kind: StandingKind): Promise<StandingFile[]>;
  /** Removes a record by its file name (a user told their alerts or plan could not be brought back). */
  drop(kind: StandingKind, name: string): Promise<void>;
}

/** The record under `dir` (`<DATA_DIR>/standing`), sealed with `secret` or the key kept at `keyFile`. */
export function createStandingRecord(
  dir: string,
  opts: { secret?: string; keyFile: string; onError?: (err: Error) => void; now?: () => number },
): StandingRecord {
  const now = opts.now ?? Date.now;
  const report = (err: unknown) => opts.onError?.(err instanceof Error ? err : new Error(String(err)));
  let ready: Promise<FieldCipher> | undefined;
  const open = () => {
    ready ??= (async () => {
      await mkdir(dir, { recursive: true, mode: DIR_MODE });
      await narrow(dir, DIR_MODE);
      return fieldCipher(opts.secret ?? (await localKey(opts.keyFile)));
    })();
    ready.catch(() => {
      ready = undefined;
    });
    return ready;
  };
  const fileOf = (kind: StandingKind, name: string) => join(dir, kind, name.slice(0, 2), `${name}.json`);

  return {
    async put(kind, key, payload) {
      try {
        const c = await open();
        const name = c.linkKey(`${kind}:${key}`);
        const file = fileOf(kind, name);
        if (payload === undefined) {
          await unlink(file).catch((err: NodeJS.ErrnoException) => {
            if (err.code !== 'ENOENT') throw err;
          });
          return;
        }
        await mkdir(join(dir, kind, name.slice(0, 2)), { recursive: true, mode: DIR_MODE });
        const sealed = c.seal(JSON.stringify(payload), `standing:${kind}`);
        const aside = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
        await writeFile(aside, JSON.stringify({ v: 1, at: now(), sealed }), { mode: FILE_MODE });
        await rename(aside, file);
      } catch (err) {
        report(err);
      }
    },
    async list(kind) {
      const c = await open();
      const out: StandingFile[] = [];
      const shards = await readdir(join(dir, kind)).catch(() => [] as string[]);
      for (const shard of shards) {
        const names = await readdir(join(dir, kind, shard)).catch(() => [] as string[]);
        for (const file of names.filter((n) => n.endsWith('.json'))) {
          const name = file.slice(0, -'.json'.length);
          out.push(await readOne(c, kind, name, join(dir, kind, shard, file)));
        }
      }
      return out;
    },
    async drop(kind, name) {
      await unlink(fileOf(kind, name)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') report(err);
      });
    },
  };
}

async function readOne(
  c: FieldCipher,
  kind: StandingKind,
  name: string,
  file: string,
): Promise<StandingFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    return { kind, name, at: 0, error: (err as Error).message };
  }
  try {
    const raw = JSON.parse(text) as { v?: unknown; at?: unknown; sealed?: unknown };
    if (raw.v !== 1 || typeof raw.sealed !== 'string') return { kind, name, at: 0, error: 'not a record' };
    const at = typeof raw.at === 'number' ? raw.at : 0;
    try {
      return { kind, name, at, payload: JSON.parse(c.open(raw.sealed, `standing:${kind}`)) };
    } catch {
      return { kind, name, at, error: 'could not be decrypted (was JOURNAL_KEY changed?)' };
    }
  } catch {
    return { kind, name, at: 0, error: 'not JSON' };
  }
}
