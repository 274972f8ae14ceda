/**
 * Rate alerts in process memory, for local mode (no REDIS_URL): the same contract as the Redis
 * `AlertStore` (at most 10 per user in slots, the same alert set twice is one, expiry with its
 * day-before note, feeds watched, a crossed alert claimed once, marked fired, re-armed past the
 * margin) over Maps. Each method runs from start to end without awaiting, so, as a Lua script on
 * Redis, nothing else sees half a change. The interval's tick and the claim leases are trivial in one
 * process. Lost when the process exits.
 */
import type { UserRef } from '../../chat/types.js';
import type { AlertsOutcome, AlertsRequest, AlertView } from '../../flows/types.js';
import { MAX_ALERTS } from '../flow/state.js';
import { type AlertRecord, compactUser, feedOf, viewOf } from './record.js';
import { ALERT_TTL_MS, type AlertStorage, expiryHour, type Feed, parseFeed } from './storage.js';

/** Ids scored (a level, a re-arm level, a lease end), read in score order as ZRANGEBYSCORE does. */
class Scored {
  private readonly m = new Map<string, Map<string, number>>();
  of(key: string): Map<string, number> {
    const s = this.m.get(key) ?? new Map<string, number>();
    this.m.set(key, s);
    return s;
  }
  get(key: string): Map<string, number> | undefined {
    return this.m.get(key);
  }
  size(key: string): number {
    return this.m.get(key)?.size ?? 0;
  }
  remove(key: string, id: string): boolean {
    const s = this.m.get(key);
    const had = s?.delete(id) ?? false;
    if (s && !s.size) this.m.delete(key);
    return had;
  }
  /** Ids scored within [min, max], lowest score first (ties by id, as Redis orders them), at most `limit`. */
  range(key: string, min: number, max: number, limit: number): string[] {
    const s = this.m.get(key);
    if (!s) return [];
    return [...s]
      .filter(([, score]) => score >= min && score <= max)
      .sort(([a, x], [b, y]) => x - y || (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, limit)
      .map(([id]) => id);
  }
}

const CLAIMS = 'c';

export class MemoryAlertStore implements AlertStorage {
  private seq = 0;
  private readonly recs = new Map<string, AlertRecord>();
  /** compactUser → slot → id. */
  private readonly users = new Map<string, Map<number, string>>();
  /** `z:<feed>` armed by level, `r:<feed>` fired by re-arm level, `c` claims by lease end. */
  private readonly sets = new Scored();
  /** Expiry hour → ids whose note or expiry falls in it. */
  private readonly hours = new Map<number, Set<string>>();
  private readonly watched = new Set<string>();
  private lastTick = -Infinity;
  private cursor?: number;

  constructor(private readonly now: () => number = Date.now) {}

  async answer(user: UserRef, r: AlertsRequest): Promise<AlertsOutcome> {
    switch (r.action) {
      case 'set':
        return this.set(user, r);
      case 'list':
        return { action: 'list', alerts: await this.list(user) };
      case 'delete': {
        const slots = this.users.get(compactUser(user));
        const id = slots?.get(r.slot);
        if (!slots || id === undefined) return { action: 'missing', slot: r.slot };
        const rec = this.recs.get(id);
        if (rec) this.unindex(rec);
        this.recs.delete(id);
        this.freeSlot(compactUser(user), r.slot);
        return { action: 'deleted', slot: r.slot };
      }
      case 'renew': {
        const id = this.users.get(compactUser(user))?.get(r.slot);
        const rec = id === undefined ? undefined : this.recs.get(id);
        if (!rec) return { action: 'missing', slot: r.slot };
        this.unhour(rec);
        const next = { ...rec, expiresAt: expiryOf(this.now()), warned: false };
        this.recs.set(rec.id, next);
        this.hour(next);
        return { action: 'renewed', alert: viewOf(next) };
      }
    }
  }

  private set(user: UserRef, r: Extract<AlertsRequest, { action: 'set' }>): AlertsOutcome {
    const u = compactUser(user);
    const slots = this.users.get(u) ?? new Map<number, string>();
    const level = Math.round(r.level * 1e6) / 1e6;
    const want = r.slot ?? 0;
    let slot = want;
    let id: string;
    if (want > 0) {
      const had = slots.get(want);
      if (had === undefined) return { action: 'missing', slot: want };
      const old = this.recs.get(had);
      if (old) this.unindex(old);
      id = had;
    } else {
      for (const [s, sid] of slots) {
        const rec = this.recs.get(sid);
        // The same alert again (a repeated command): the one the user has is the answer.
        if (
          rec &&
          rec.token === r.token &&
          rec.network === r.network &&
          rec.side === r.side &&
          rec.level === level
        )
          return { action: 'set', alert: { ...viewOf(rec), slot: s, level: r.level }, changed: false };
      }
      if (slots.size >= MAX_ALERTS) return { action: 'full', max: MAX_ALERTS };
      slot = 1;
      while (slots.has(slot)) slot++;
      id = String(++this.seq);
      slots.set(slot, id);
      this.users.set(u, slots);
    }
    const rec: AlertRecord = {
      id,
      user: { channel: user.channel, id: user.id },
      slot,
      token: r.token,
      network: r.network,
      side: r.side,
      level,
      expiresAt: expiryOf(this.now()),
      warned: false,
    };
    this.recs.set(id, rec);
    const feed = feedOf(rec.side, rec.network, rec.token);
    this.sets.of(`z:${feed}`).set(id, level);
    this.hour(rec);
    this.watched.add(feed);
    const alert: AlertView = { ...viewOf(rec), level: r.level };
    return { action: 'set', alert, changed: want > 0 };
  }

  async list(user: UserRef): Promise<AlertView[]> {
    const ids = [...(this.users.get(compactUser(user))?.values() ?? [])];
    const now = this.now();
    return (await this.records(ids))
      .filter((r) => r.expiresAt > now)
      .map(viewOf)
      .sort((a, b) => a.slot - b.slot);
  }

  async records(ids: string[]): Promise<AlertRecord[]> {
    return ids.flatMap((id) => {
      const rec = this.recs.get(id);
      return rec ? [{ ...rec, user: { ...rec.user } }] : [];
    });
  }

  async feeds(): Promise<Feed[]> {
    return [...this.watched].flatMap((k) => parseFeed(k) ?? []);
  }

  async dropIfUnwatched(feed: Feed): Promise<boolean> {
    if (this.sets.size(`z:${feed.key}`) + this.sets.size(`r:${feed.key}`) > 0) return false;
    return this.watched.delete(feed.key);
  }

  async claimCrossed(feed: Feed, rate: number, limit: number, leaseEnd: number): Promise<string[]> {
    const key = `z:${feed.key}`;
    const ids =
      feed.side === 'below'
        ? this.sets.range(key, rate, Infinity, limit)
        : this.sets.range(key, -Infinity, rate, limit);
    for (const id of ids) {
      this.sets.remove(key, id);
      this.sets.of(CLAIMS).set(id, leaseEnd);
    }
    return ids;
  }

  async reclaimExpired(limit: number, leaseEnd: number): Promise<string[]> {
    const ids = this.sets.range(CLAIMS, -Infinity, this.now(), limit);
    for (const id of ids) this.sets.of(CLAIMS).set(id, leaseEnd);
    return ids;
  }

  async renewClaims(ids: string[], leaseEnd: number): Promise<void> {
    const claims = this.sets.get(CLAIMS);
    for (const id of ids) if (claims?.has(id)) claims.set(id, leaseEnd);
  }

  async dropClaims(ids: string[]): Promise<void> {
    for (const id of ids) this.sets.remove(CLAIMS, id);
  }

  async markFired(rec: AlertRecord, rearmPct: number): Promise<boolean> {
    if (!this.sets.remove(CLAIMS, rec.id)) return false;
    const feed = feedOf(rec.side, rec.network, rec.token);
    const rearmAt =
      rec.side === 'below' ? rec.level * (1 + rearmPct / 100) : rec.level * (1 - rearmPct / 100);
    this.sets.of(`r:${feed}`).set(rec.id, rearmAt);
    this.watched.add(feed);
    return true;
  }

  async rearm(feed: Feed, rate: number, limit: number): Promise<number> {
    const key = `r:${feed.key}`;
    const ids =
      feed.side === 'below'
        ? this.sets.range(key, -Infinity, rate, limit)
        : this.sets.range(key, rate, Infinity, limit);
    for (const id of ids) {
      this.sets.remove(key, id);
      const rec = this.recs.get(id);
      if (rec) this.sets.of(`z:${feed.key}`).set(id, rec.level);
    }
    return ids.length;
  }

  async bucket(hour: number): Promise<string[]> {
    return [...(this.hours.get(hour) ?? [])];
  }

  async dropBucket(hour: number): Promise<void> {
    this.hours.delete(hour);
  }

  async expireOrWarn(
    id: string,
    hour: number,
  ): Promise<{ what: 'expired' | 'warn'; rec: AlertRecord } | undefined> {
    const rec = this.recs.get(id);
    if (!rec || expiryHour(rec.expiresAt, rec.warned) !== hour) return undefined;
    if (rec.expiresAt <= Math.floor(this.now() / 1000) * 1000) {
      this.unindex(rec);
      this.recs.delete(id);
      const u = compactUser(rec.user);
      if (this.users.get(u)?.get(rec.slot) === id) this.freeSlot(u, rec.slot);
      return { what: 'expired', rec };
    }
    if (rec.warned) return undefined;
    this.unhour(rec);
    const next = { ...rec, warned: true };
    this.recs.set(id, next);
    this.hour(next);
    return { what: 'warn', rec: next };
  }

  async takeTick(n: number): Promise<boolean> {
    if (n <= this.lastTick) return false;
    this.lastTick = n;
    return true;
  }

  async expiryCursor(): Promise<number | undefined> {
    return this.cursor;
  }

  async setExpiryCursor(hour: number): Promise<void> {
    this.cursor = hour;
  }

  private freeSlot(user: string, slot: number): void {
    const slots = this.users.get(user);
    slots?.delete(slot);
    if (slots && !slots.size) this.users.delete(user);
  }

  private hour(rec: AlertRecord): void {
    const h = expiryHour(rec.expiresAt, rec.warned);
    const ids = this.hours.get(h) ?? new Set<string>();
    ids.add(rec.id);
    this.hours.set(h, ids);
  }

  private unhour(rec: AlertRecord): void {
    const h = expiryHour(rec.expiresAt, rec.warned);
    const ids = this.hours.get(h);
    ids?.delete(rec.id);
    if (ids && !ids.size) this.hours.delete(h);
  }

  /** Takes the alert out of its feed's sets, the claims and its expiry hour (its record stays). */
  private unindex(rec: AlertRecord): void {
    const feed = feedOf(rec.side, rec.network, rec.token);
    this.sets.remove(`z:${feed}`, rec.id);
    this.sets.remove(`r:${feed}`, rec.id);
    this.sets.remove(CLAIMS, rec.id);
    this.unhour(rec);
  }
}

/** An alert set or renewed now expires after the TTL, to the second (as stored on Redis). */
const expiryOf = (now: number): number => Math.floor((now + ALERT_TTL_MS) / 1000) * 1000;
