/** Identifiers in the service's formats (reference §5). */
import { createHash, randomBytes, randomInt } from 'node:crypto';

const UPPER_ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const randomChars = (n: number, alphabet = UPPER_ALNUM) =>
  Array.from({ length: n }, () => alphabet[randomInt(alphabet.length)]).join('');

const KENYA_OFFSET_MS = 3 * 3600_000;

/** `D-ri3b1-7H` / `WD-d6v5j-FB`: the middle is the last 5 base-36 digits of epoch ms. */
export function orderId(prefix: 'D' | 'WD', nowMs: number): string {
  return `${prefix}-${nowMs.toString(36).slice(-5).padStart(5, '0')}-${randomChars(2)}`;
}

/** Kenyan local time written with a `Z`, as the service does; `ms: false` zeroes the milliseconds. */
export function kenyaIso(ms: number, keepMs = false): string {
  const iso = new Date(ms + KENYA_OFFSET_MS).toISOString();
  return keepMs ? iso : iso.replace(/\.\d{3}Z$/, '.000Z');
}

/** Kenyan local time with no milliseconds and a `Z` (off-ramp `completedAt`). */
export function kenyaIsoNoMs(ms: number): string {
  return new Date(ms + KENYA_OFFSET_MS).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** `ws_CO_` + DDMMYYYYHHMMSS (Kenyan time) + 3 ms digits + the phone's 9 digits after 254. */
export function checkoutRequestId(ms: number, phone: string): string {
  const d = new Date(ms + KENYA_OFFSET_MS);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const stamp = `${p(d.getUTCDate())}${p(d.getUTCMonth() + 1)}${d.getUTCFullYear()}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}${p(d.getUTCMilliseconds(), 3)}`;
  return `ws_CO_${stamp}${phone.slice(-9)}`;
}

/** A 10-character M-Pesa receipt: year letter (T = 2025), month letter, day character, 7 random. */
export function mpesaReceipt(ms: number): string {
  const d = new Date(ms + KENYA_OFFSET_MS);
  const year = String.fromCharCode(65 + ((((d.getUTCFullYear() - 2006) % 26) + 26) % 26));
  const month = String.fromCharCode(65 + d.getUTCMonth());
  const day = d.getUTCDate();
  const dayChar = day < 10 ? String(day) : String.fromCharCode(65 + day - 10);
  return `${year}${month}${dayChar}${randomChars(7)}`;
}

let counter = randomInt(0xffffff);
const processRandom = randomBytes(5).toString('hex');

/** A MongoDB-like ObjectId: 8 hex of Unix seconds, 10 hex per process, 6 hex counter. */
export function objectId(ms: number): string {
  counter = (counter + 1) % 0x1000000;
  return `${Math.floor(ms / 1000)
    .toString(16)
    .padStart(8, '0')}${processRandom}${counter.toString(16).padStart(6, '0')}`;
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** The release transaction's hash: sha256 of the order id; 66-char hex on EVM, 52-char base32 on Algorand. */
export function releaseHash(orderIdValue: string, chain: string): string {
  const digest = createHash('sha256').update(`release:${orderIdValue}`).digest();
  return chain === 'algorand' ? base32(digest) : `0x${digest.toString('hex')}`;
}

/** A plausible checkout session id. */
export function checkoutSessionId(): string {
  return `cs_test_${randomBytes(12).toString('hex')}`;
}
