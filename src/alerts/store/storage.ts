/**
 * What an alert store is, on Redis (store.ts) or in process memory (store-memory.ts): the contract
 * the flow's effect and the ticker use, and the feed and expiry keys both stores compute alike.
 */
import type { UserRef } from '../../chat/types.js';
import type { AlertSide, AlertsOutcome, AlertsRequest, AlertView } from '../../flows/types.js';
import type { AlertRecord } from './record.js';

/** How long an alert lives unless renewed. */
export const ALERT_TTL_MS = 30 * 24 * 3600_000;

/** One watched feed: the rate of a side (below: buy, above: sell) of a token on a network. */
export interface Feed {
  key: string;
  side: AlertSide;
  network: string;
  token: string;
}

export function parseFeed(key: string): Feed | undefined {
  const m = /^([ba]):([a-z]+):([^:|]+)$/.exec(key);
  if (!m) return undefined;
  return { key, side: m[1] === 'b' ? 'below' : 'above', network: m[2]!, token: m[3]! };
}

export const sideCode = (side: AlertSide) => (side === 'below' ? 'b' : 'a');

/** Which hour (epoch hours) an alert's pending expiry step falls in: its day-before note, or, once noted, its expiry. */
export const expiryHour = (expiresAt: number, warned: boolean): number =>
  warned ? Math.floor(expiresAt / 3600_000) : Math.floor((expiresAt - 86400_000) / 3600_000);

/**
 * What the flow's effect and the ticker need of an alert store: on Redis (`AlertStore`, shared by
 * every process) or in process memory (`MemoryAlertStore`, local mode), with the same semantics.
 */
export interface AlertStorage {
  answer(user: UserRef, r: AlertsRequest): Promise<AlertsOutcome>;
  list(user: UserRef): Promise<AlertView[]>;
  records(ids: string[]): Promise<AlertRecord[]>;
  feeds(): Promise<Feed[]>;
  dropIfUnwatched(feed: Feed): Promise<boolean>;
  claimCrossed(feed: Feed, rate: number, limit: number, leaseEnd: number): Promise<string[]>;
  reclaimExpired(limit: number, leaseEnd: number): Promise<string[]>;
  renewClaims(ids: string[], leaseEnd: number): Promise<void>;
  dropClaims(ids: string[]): Promise<void>;
  markFired(rec: AlertRecord, rearmPct: number): Promise<boolean>;
  rearm(feed: Feed, rate: number, limit: number): Promise<number>;
  bucket(hour: number): Promise<string[]>;
  dropBucket(hour: number): Promise<void>;
  expireOrWarn(id: string, hour: number): Promise<{ what: 'expired' | 'warn'; rec: AlertRecord } | undefined>;
  /** Takes interval `n`'s tick for the caller; false when a process (this one included) already took it. */
  takeTick(n: number, ttlMs: number): Promise<boolean>;
  /** The last hour whose expiry bucket was swept, if any. */
  expiryCursor(): Promise<number | undefined>;
  setExpiryCursor(hour: number): Promise<void>;
}
