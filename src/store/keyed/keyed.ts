/**
 * Keyed storage shared by the stores (sessions, tracker, sell intents, support cases). Each store
 * keeps its own key layout and schema and takes from here:
 *
 * - key naming under the store's prefix (`keysUnder`);
 * - a JSON codec validated with zod (`jsonCodec`) that never throws on bad stored text: it says what
 *   was wrong, and the store decides what that means (reset, absent, or an error naming the record);
 * - a small text key-value port with TTLs and compare-and-set (`TextKv`), over node-redis
 *   (`redisKv` in ./keyed-redis.ts: one command or one Lua script per call, so no round trip is
 *   added) or over memory (`memoryKv` in ./keyed-memory.ts, for local mode);
 * - the optimistic read-change-write of a JSON record (`updateRecord`).
 *
 * The hot paths (a conversation's begin/save/finish, a tracker poll) keep their own scripts; they
 * take key naming and codecs from here, not round trips.
 */
import type * as z from 'zod';

/** Names keys under a prefix: `key('order', id)` is `<prefix>order:<id>`. */
export type KeyNamer = (...parts: Array<string | number>) => string;

/** A key namer for one prefix (e.g. `rampchat:`). */
export const keysUnder =
  (prefix: string): KeyNamer =>
  (...parts) =>
    prefix + parts.join(':');

/** A validation problem, as zod reports it. */
export interface Issue {
  path: PropertyKey[];
  message: string;
}

/** What became of decoding stored text: the value, or why it is not one. */
export type Decoded<T> =
  | { ok: true; value: T }
  | { ok: false; notJson: true; cause: unknown }
  | { ok: false; notJson: false; issues: Issue[]; message: string };

/** Turns a record into stored text and back. */
export interface JsonCodec<T> {
  /** JSON text of a record (validated first when the codec says so; then a bad record throws). */
  encode(value: T): string;
  /** Parses and validates stored text; never throws. */
  decode(text: string): Decoded<T>;
}

/** A codec over a zod schema; `validateOnWrite` parses each record before it is written. */
export function jsonCodec<T>(schema: z.ZodType<T>, opts: { validateOnWrite?: boolean } = {}): JsonCodec<T> {
  return {
    encode: (value) => JSON.stringify(opts.validateOnWrite ? schema.parse(value) : value),
    decode(text) {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (cause) {
        return { ok: false, notJson: true, cause };
      }
      const parsed = schema.safeParse(json);
      return parsed.success
        ? { ok: true, value: parsed.data }
        : { ok: false, notJson: false, issues: parsed.error.issues, message: parsed.error.message };
    },
  };
}

/** Validation issues as one line for an error message: `path: message; ...`. */
export const describeIssues = (issues: Issue[]): string =>
  issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');

/**
 * How long a write keeps its key: `{ ms }` from now, `'keep'` the key's current expiry, or (absent)
 * no expiry at all.
 */
export type Ttl = { ms: number } | 'keep' | undefined;

/** The string operations keyed records need, each one round trip (Redis) or none (memory). */
export interface TextKv {
  get(key: string): Promise<string | undefined>;
  /** Writes the value; with `nx` only when the key is absent. True when written. */
  set(key: string, value: string, opts?: { ttl?: Ttl; nx?: boolean }): Promise<boolean>;
  /** Writes several keys together (one MULTI), all with the same TTL. */
  setAll(entries: Array<[key: string, value: string]>, ttl?: Ttl): Promise<void>;
  /** Writes `next` only while the key holds `expected` (undefined: only while it is absent). */
  compareAndSet(key: string, expected: string | undefined, next: string, ttl?: Ttl): Promise<boolean>;
  /** Deletes the key only while it holds `expected`. */
  compareAndDelete(key: string, expected: string): Promise<boolean>;
  del(key: string): Promise<void>;
}

export interface UpdateRecordOptions<T> {
  /** The record in stored text; undefined for none (absent text is passed as undefined). */
  read(text: string | undefined): T | undefined;
  write(value: T): string;
  /** The new record, or undefined to leave it as it is. May run more than once. */
  change(value: T): T | undefined;
  /** The TTL of the written record. */
  ttl?: Ttl;
  /** How long to pause after a lost compare-and-set (none when absent). */
  pauseMs?: () => number;
  /** The error thrown when every attempt lost. */
  gaveUp(): Error;
  /** Attempts before giving up (default 50). */
  attempts?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Read-modify-write of one record by compare-and-set on its whole stored text, retried while other
 * writers win. Resolves with the record as stored afterwards (undefined when there is none).
 */
export async function updateRecord<T>(
  kv: TextKv,
  key: string,
  opts: UpdateRecordOptions<T>,
): Promise<T | undefined> {
  const attempts = opts.attempts ?? 50;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const before = await kv.get(key);
    const current = opts.read(before);
    if (current === undefined || before === undefined) return undefined;
    const next = opts.change(current);
    if (next === undefined) return current;
    if (await kv.compareAndSet(key, before, opts.write(next), opts.ttl)) return next;
    if (opts.pauseMs) await sleep(opts.pauseMs());
  }
  throw opts.gaveUp();
}
