/**
 * What the journal's files need besides their lines: the cipher of personal fields and of link keys,
 * the key kept beside the journal in local mode, file modes, and the hourly file names.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { chmod, readFile, stat, writeFile } from 'node:fs/promises';

export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;
export const SEALED = 'enc:v1:';

export interface FieldCipher {
  seal(value: string, field: string): string;
  /** Throws when the value was sealed with another key (or altered). */
  open(value: string, field: string): string;
  /** A signing-link token's keyed hash (HMAC-SHA256, base64url): finds its sale, cannot open it. */
  linkKey(token: string): string;
}

/** AES-256-GCM per value, a fresh 12-byte IV each, the field name as associated data. */
export function fieldCipher(secret: string | Buffer): FieldCipher {
  const key = Buffer.from(hkdfSync('sha256', secret, 'rampchat-journal', 'order journal fields v1', 32));
  const linkKey = Buffer.from(hkdfSync('sha256', secret, 'rampchat-journal', 'signing link keys v1', 32));
  return {
    linkKey: (token) => createHmac('sha256', linkKey).update(token).digest('base64url'),
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
export async function localKey(file: string): Promise<Buffer> {
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
export async function narrow(file: string, mode: number): Promise<void> {
  const st = await stat(file).catch(() => undefined);
  if (st && (st.mode & 0o777) !== mode) await chmod(file, mode);
}

/** `20261126T170000` for the segment starting at `at` (UTC). */
export function stampOf(at: number): string {
  const iso = new Date(at).toISOString(); // 2026-11-26T17:00:05.000Z
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}`;
}

export function startOf(stamp: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})?$/.exec(stamp);
  if (!m) return undefined;
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0));
}

export const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
