/**
 * A token's rate history on one network: its buy and sell rate (KES per token) once per interval,
 * kept in three fixed rings of 12-byte records, so a feed's bytes are bounded by construction:
 * 1-minute points for 24 h, 10-minute points for 7 d, hourly points for 31 d (38,304 bytes in all).
 * A record is the minute it was quoted (u32 LE, minutes since the epoch) and the buy and sell rate
 * (f32 LE each, 0 where that side was not quoted); a ring's slot is its bucket number modulo the
 * ring's length, so a newer bucket overwrites the one a ring-length earlier and a bucket keeps the
 * last quote taken in it (its close). A history's `since` is the start of its oldest bucket kept.
 */

export type Side = 'buy' | 'sell';
export type Range = '24h' | '7d' | '30d';

export interface Tier {
  name: string;
  bucketMin: number;
  slots: number;
}

/** The rings, finest first; each range is drawn from one of them. */
export const TIERS: readonly Tier[] = [
  { name: 'm1', bucketMin: 1, slots: 1440 },
  { name: 'm10', bucketMin: 10, slots: 1008 },
  { name: 'h1', bucketMin: 60, slots: 744 },
];
const TIER_OF: Record<Range, number> = { '24h': 0, '7d': 1, '30d': 2 };
const RANGE_MIN: Record<Range, number> = { '24h': 1440, '7d': 7 * 1440, '30d': 30 * 1440 };
export const RECORD_BYTES = 12;

/** A token on a network: the unit one history is kept for. */
export interface Pair {
  token: string;
  network: string;
}

export interface Point {
  /** Epoch ms of the quote. */
  at: number;
  /** KES per token; undefined where that side was not quoted in the bucket. */
  buy?: number;
  sell?: number;
}

export interface History {
  pair: Pair;
  range: Range;
  /** Oldest first, within the range. */
  points: Point[];
  /** Epoch ms of the oldest point kept in any ring: how far back this feed's history goes. */
  since?: number;
}

/** Where histories are kept: Redis (history-redis.ts) or this process (local mode). */
export interface RateHistory {
  record(pair: Pair, side: Side, rate: number, at: number): Promise<void>;
  read(pair: Pair, range: Range, now: number): Promise<History>;
}

export const pairKey = (p: Pair): string => `${p.token.toUpperCase()}:${p.network}`;
export const minuteOf = (at: number): number => Math.floor(at / 60_000);
export const slotOf = (tier: Tier, minute: number): number =>
  Math.floor(minute / tier.bucketMin) % tier.slots;

/** Writes one side of a quote into a ring, as the Redis script does. */
export function writeRecord(ring: Buffer, tier: Tier, side: Side, rate: number, minute: number): void {
  const off = slotOf(tier, minute) * RECORD_BYTES;
  const was = ring.readUInt32LE(off);
  const sameBucket = was !== 0 && Math.floor(was / tier.bucketMin) === Math.floor(minute / tier.bucketMin);
  const buy = side === 'buy' ? rate : sameBucket ? ring.readFloatLE(off + 4) : 0;
  const sell = side === 'sell' ? rate : sameBucket ? ring.readFloatLE(off + 8) : 0;
  ring.writeUInt32LE(minute, off);
  ring.writeFloatLE(buy, off + 4);
  ring.writeFloatLE(sell, off + 8);
}

/** The records of a ring (any length up to a whole ring), oldest first, from `fromMinute` on. */
export function decodeRing(ring: Buffer, fromMinute = 0): Point[] {
  const points: Point[] = [];
  for (let off = 0; off + RECORD_BYTES <= ring.length; off += RECORD_BYTES) {
    const minute = ring.readUInt32LE(off);
    if (minute === 0 || minute < fromMinute) continue;
    const buy = ring.readFloatLE(off + 4);
    const sell = ring.readFloatLE(off + 8);
    points.push({ at: minute * 60_000, ...(buy > 0 ? { buy } : {}), ...(sell > 0 ? { sell } : {}) });
  }
  return points.sort((a, b) => a.at - b.at);
}

/** A range's history from the rings as stored (index as in TIERS; a missing ring is empty). */
export function historyOf(pair: Pair, range: Range, rings: Array<Buffer | undefined>, now: number): History {
  const from = minuteOf(now) - RANGE_MIN[range] + 1;
  const points = decodeRing(rings[TIER_OF[range]] ?? Buffer.alloc(0), from);
  let since: number | undefined;
  rings.forEach((ring, i) => {
    const first = ring ? decodeRing(ring)[0]?.at : undefined;
    if (first === undefined) return;
    // The start of the oldest bucket kept: a coarse ring's record is stamped with its last minute.
    const start = first - (first % (TIERS[i]!.bucketMin * 60_000));
    if (since === undefined || start < since) since = start;
  });
  return { pair, range, points, ...(since !== undefined ? { since } : {}) };
}

/** Local mode: the same rings in this process, lost on exit. */
export class MemoryRateHistory implements RateHistory {
  private readonly rings = new Map<string, Buffer[]>();

  async record(pair: Pair, side: Side, rate: number, at: number): Promise<void> {
    const key = pairKey(pair);
    let rings = this.rings.get(key);
    if (!rings) {
      rings = TIERS.map((t) => Buffer.alloc(t.slots * RECORD_BYTES));
      this.rings.set(key, rings);
    }
    for (const [i, tier] of TIERS.entries()) writeRecord(rings[i]!, tier, side, rate, minuteOf(at));
  }

  async read(pair: Pair, range: Range, now: number): Promise<History> {
    return historyOf(pair, range, this.rings.get(pairKey(pair)) ?? [], now);
  }
}
