/**
 * Rate alerts in Redis (layout in scripts.ts): what users set, list, change, renew and delete, and
 * what the ticker claims, marks fired, re-arms and expires. Bad stored lines are logged and skipped.
 */
import type { RedisClientType } from 'redis';
import type { UserRef } from '../../chat/types.js';
import type { AlertsOutcome, AlertsRequest, AlertView } from '../../flows/types.js';
import type { Logger } from '../../log/logger.js';
import { runScript } from '../../store/script.js';
import { MAX_ALERTS } from '../flow/state.js';
import { type AlertRecord, compactUser, feedOf, parseRecord, viewOf } from './record.js';
import {
  CLAIM_SCRIPT,
  DELETE_SCRIPT,
  DROP_FEED_SCRIPT,
  EXPIRE_SCRIPT,
  FIRED_SCRIPT,
  REARM_SCRIPT,
  RECLAIM_SCRIPT,
  RENEW_SCRIPT,
  SET_SCRIPT,
} from './scripts.js';
import { ALERT_TTL_MS, type AlertStorage, type Feed, parseFeed, sideCode } from './storage.js';

/** Shards of an hour's expiry bucket (by id), each a small intset up to 512 ids. */
const EXPIRY_SHARDS = 32;

export class AlertStore implements AlertStorage {
  /** `<app prefix>al:` */
  readonly p: string;

  constructor(
    readonly redis: RedisClientType,
    prefix: string,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.p = `${prefix}al:`;
  }

  /** The hash holding the user's slots: one of 4096, by the same hash the Lua scripts compute. */
  userBucket(user: UserRef): string {
    let h = 0;
    for (const byte of Buffer.from(compactUser(user), 'utf8')) h = (h * 31 + byte) % 4096;
    return `${this.p}u:${h}`;
  }
  private recordHash = (id: string) => `${this.p}a:${Math.floor(Number(id) / 100)}`;

  /** Answers what a flow asked (the `alerts` effect). */
  async answer(user: UserRef, r: AlertsRequest): Promise<AlertsOutcome> {
    switch (r.action) {
      case 'set':
        return this.set(user, r);
      case 'list':
        return { action: 'list', alerts: await this.list(user) };
      case 'delete': {
        const n = await this.script(
          DELETE_SCRIPT,
          [this.userBucket(user)],
          [this.p, String(r.slot), compactUser(user)],
        );
        return n === 1 ? { action: 'deleted', slot: r.slot } : { action: 'missing', slot: r.slot };
      }
      case 'renew': {
        const exp = Math.floor((this.now() + ALERT_TTL_MS) / 1000);
        const line = await this.script(
          RENEW_SCRIPT,
          [this.userBucket(user)],
          [this.p, String(r.slot), String(exp), compactUser(user)],
        );
        const rec = typeof line === 'string' ? this.parse('?', line) : undefined;
        return rec ? { action: 'renewed', alert: viewOf(rec) } : { action: 'missing', slot: r.slot };
      }
    }
  }

  private async set(user: UserRef, r: Extract<AlertsRequest, { action: 'set' }>): Promise<AlertsOutcome> {
    const expiresAt = Math.floor((this.now() + ALERT_TTL_MS) / 1000) * 1000;
    const out = (await this.script(
      SET_SCRIPT,
      [this.userBucket(user)],
      [
        this.p,
        compactUser(user),
        String(r.slot ?? 0),
        r.token,
        r.network,
        sideCode(r.side),
        // At most 6 decimals, as typed levels are: a short line stays a compact listpack entry.
        String(Math.round(r.level * 1e6) / 1e6),
        String(expiresAt / 1000),
        String(MAX_ALERTS),
      ],
    )) as [string, number?, number?, string?];
    if (out[0] === 'full') return { action: 'full', max: MAX_ALERTS };
    if (out[0] === 'missing') return { action: 'missing', slot: r.slot ?? 0 };
    const alert: AlertView = {
      slot: Number(out[1]),
      token: r.token,
      network: r.network,
      side: r.side,
      level: r.level,
      expiresAt: out[0] === 'same' ? Number(out[3]) * 1000 : expiresAt,
    };
    return { action: 'set', alert, changed: out[2] === 1 };
  }

  /** The user's alerts by slot (expired ones not yet swept are left out). */
  async list(user: UserRef): Promise<AlertView[]> {
    const packed = (await this.redis.hGet(this.userBucket(user), compactUser(user))) ?? '';
    const ids = [...packed.matchAll(/(\d+)=(\d+)/g)].map((m) => m[2]!);
    const recs = await this.records(ids);
    const now = this.now();
    return recs
      .filter((r) => r.expiresAt > now)
      .map(viewOf)
      .sort((a, b) => a.slot - b.slot);
  }

  /** Records by id, in one round trip; missing and bad ones are left out (bad ones logged). */
  async records(ids: string[]): Promise<AlertRecord[]> {
    if (!ids.length) return [];
    const multi = this.redis.multi();
    for (const id of ids) multi.hGet(this.recordHash(id), id);
    const lines = (await multi.exec()) as unknown as Array<string | null>;
    const out: AlertRecord[] = [];
    ids.forEach((id, i) => {
      const line = lines[i];
      if (typeof line !== 'string') return;
      const rec = this.parse(id, line);
      if (rec) out.push(rec);
    });
    return out;
  }

  private parse(id: string, line: string): AlertRecord | undefined {
    const rec = parseRecord(id, line);
    if (rec instanceof Error) {
      this.log.warn({ err: rec.message }, 'bad stored alert skipped');
      return undefined;
    }
    return rec;
  }

  /** Every feed someone watches. */
  async feeds(): Promise<Feed[]> {
    const keys = await this.redis.sMembers(`${this.p}f`);
    return keys.flatMap((k) => {
      const f = parseFeed(k);
      if (!f) this.log.warn({ feed: k }, 'bad stored alert feed skipped');
      return f ? [f] : [];
    });
  }

  /** Drops the feed when no alert watches it any more (so its rate is no longer fetched). */
  async dropIfUnwatched(feed: Feed): Promise<boolean> {
    const n = await this.script(
      DROP_FEED_SCRIPT,
      [`${this.p}z:${feed.key}`, `${this.p}r:${feed.key}`, `${this.p}f`],
      [feed.key],
    );
    return n === 1;
  }

  /** Claims up to `limit` armed alerts of the feed that `rate` crossed, leased until `leaseEnd`. */
  async claimCrossed(feed: Feed, rate: number, limit: number, leaseEnd: number): Promise<string[]> {
    return (await this.script(
      CLAIM_SCRIPT,
      [`${this.p}z:${feed.key}`, `${this.p}c`],
      [sideCode(feed.side), String(rate), String(limit), String(leaseEnd)],
    )) as string[];
  }

  /** Claims whose lease ended (their process died before telling), leased again to the caller. */
  async reclaimExpired(limit: number, leaseEnd: number): Promise<string[]> {
    return (await this.script(
      RECLAIM_SCRIPT,
      [`${this.p}c`],
      [String(this.now()), String(leaseEnd), String(limit)],
    )) as string[];
  }

  /** Extends the lease of claims still being told (only those this caller still holds are touched). */
  async renewClaims(ids: string[], leaseEnd: number): Promise<void> {
    if (!ids.length) return;
    await this.redis.zAdd(
      `${this.p}c`,
      ids.map((value) => ({ score: leaseEnd, value })),
      { XX: true },
    );
  }

  /** Forgets claims of alerts there is nothing to tell about (gone, unreadable, expired). */
  async dropClaims(ids: string[]): Promise<void> {
    await this.redis.zRem(`${this.p}c`, ids);
  }

  /** The user was told: the alert waits to re-arm once the rate moved back past the margin. */
  async markFired(rec: AlertRecord, rearmPct: number): Promise<boolean> {
    const feed = feedOf(rec.side, rec.network, rec.token);
    const rearmAt =
      rec.side === 'below' ? rec.level * (1 + rearmPct / 100) : rec.level * (1 - rearmPct / 100);
    const n = await this.script(
      FIRED_SCRIPT,
      [`${this.p}c`, `${this.p}r:${feed}`, `${this.p}f`],
      [rec.id, String(rearmAt), feed],
    );
    return n === 1;
  }

  /** Re-arms the feed's fired alerts the rate moved back past (by the margin they were stored with). */
  async rearm(feed: Feed, rate: number, limit: number): Promise<number> {
    return (await this.script(
      REARM_SCRIPT,
      [`${this.p}r:${feed.key}`, `${this.p}z:${feed.key}`],
      [this.p, sideCode(feed.side), String(rate), String(limit)],
    )) as number;
  }

  /** The ids whose expiry note or expiry falls in an hour (epoch hours), over its shards. */
  async bucket(hour: number): Promise<string[]> {
    const multi = this.redis.multi();
    for (let k = 0; k < EXPIRY_SHARDS; k++) multi.sMembers(`${this.p}x:${hour}:${k}`);
    return ((await multi.exec()) as unknown as string[][]).flat();
  }

  async dropBucket(hour: number): Promise<void> {
    await this.redis.del(Array.from({ length: EXPIRY_SHARDS }, (_, k) => `${this.p}x:${hour}:${k}`));
  }

  /** Expires the alert, or marks its day-before note sent; undefined when renewed or gone meanwhile. */
  async expireOrWarn(
    id: string,
    hour: number,
  ): Promise<{ what: 'expired' | 'warn'; rec: AlertRecord } | undefined> {
    const out = (await this.script(
      EXPIRE_SCRIPT,
      [],
      [this.p, id, String(Math.floor(this.now() / 1000)), String(hour)],
    )) as [string, string?];
    if (out[0] === 'skip' || !out[1]) return undefined;
    const rec = this.parse(id, out[1]);
    return rec ? { what: out[0] as 'expired' | 'warn', rec } : undefined;
  }

  async takeTick(n: number, ttlMs: number): Promise<boolean> {
    return Boolean(await this.redis.set(`${this.p}tick:${n}`, '1', { NX: true, PX: ttlMs }));
  }

  async expiryCursor(): Promise<number | undefined> {
    const stored = Number(await this.redis.get(`${this.p}xh`));
    return Number.isFinite(stored) && stored > 0 ? stored : undefined;
  }

  async setExpiryCursor(hour: number): Promise<void> {
    await this.redis.set(`${this.p}xh`, String(hour));
  }

  private script(script: string, keys: string[], args: string[]): Promise<unknown> {
    return runScript(this.redis, script, { keys, arguments: args });
  }
}
