/**
 * One alert as Redis keeps it: a compact, versioned line (`1|user|slot|token|network|side|level|
 * expiresSec|warned`, the user as `t:<id>`) rather than JSON, so a record stays under a listpack hash's 64-byte value limit
 * and an alert costs well under 300 bytes of Redis. Parsed with zod; a bad line is reported, not thrown.
 */
import * as z from 'zod';
import type { UserRef } from '../../chat/types.js';
import { networkSchema } from '../../flows/schemas.js';
import type { AlertSide, AlertView } from '../../flows/types.js';

export const RECORD_VERSION = '1';

/** Channel names as one letter in stored lines, to keep a record short. */
const CHANNEL_CODES: Record<UserRef['channel'], string> = { telegram: 't', whatsapp: 'w', terminal: 'c' };
const CODE_CHANNELS = Object.fromEntries(Object.entries(CHANNEL_CODES).map(([k, v]) => [v, k])) as Record<
  string,
  UserRef['channel']
>;

/** The user as stored: `t:123456789` for Telegram user 123456789. */
export const compactUser = (user: UserRef): string => `${CHANNEL_CODES[user.channel]}:${user.id}`;

/** The user a compact form names, or undefined when it names none. */
export function expandUser(compact: string): UserRef | undefined {
  const channel = CODE_CHANNELS[compact.slice(0, 1)];
  return channel && compact[1] === ':' && compact.length > 2 ? { channel, id: compact.slice(2) } : undefined;
}

const recordSchema = z.object({
  user: z.string().regex(/^[twc]:[^|]+$/),
  slot: z.coerce.number().int().min(1).max(99),
  token: z.string().min(1).max(16),
  network: networkSchema,
  side: z.enum(['b', 'a']).transform((s): AlertSide => (s === 'b' ? 'below' : 'above')),
  level: z.coerce.number().positive(),
  expiresSec: z.coerce.number().int().positive(),
  warned: z.enum(['0', '1']).transform((w) => w === '1'),
});

export interface AlertRecord {
  id: string;
  user: UserRef;
  slot: number;
  token: string;
  network: AlertView['network'];
  side: AlertSide;
  level: number;
  expiresAt: number;
  warned: boolean;
}

/** The feed an alert watches: the side's rate of one token on one network (`b:polygon:USDT`). */
export const feedOf = (side: AlertSide, network: string, token: string): string =>
  `${side === 'below' ? 'b' : 'a'}:${network}:${token}`;

/** Reads a stored line; an error names what was wrong with it. */
export function parseRecord(id: string, line: string): AlertRecord | Error {
  const parts = line.split('|');
  if (parts[0] !== RECORD_VERSION) return new Error(`alert ${id}: unknown record version "${parts[0]}"`);
  const [, user, slot, token, network, side, level, expiresSec, warned] = parts;
  const r = recordSchema.safeParse({ user, slot, token, network, side, level, expiresSec, warned });
  if (!r.success)
    return new Error(`alert ${id}: ${r.error.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  const sep = r.data.user.indexOf(':');
  return {
    id,
    user: { channel: CODE_CHANNELS[r.data.user.slice(0, sep)]!, id: r.data.user.slice(sep + 1) },
    slot: r.data.slot,
    token: r.data.token,
    network: r.data.network,
    side: r.data.side,
    level: r.data.level,
    expiresAt: r.data.expiresSec * 1000,
    warned: r.data.warned,
  };
}

export const viewOf = (r: AlertRecord): AlertView => ({
  slot: r.slot,
  token: r.token,
  network: r.network,
  side: r.side,
  level: r.level,
  expiresAt: r.expiresAt,
});
