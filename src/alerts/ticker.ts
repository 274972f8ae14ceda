/**
 * The alert tick: once per interval, one process (whichever wins the interval's NX key on Redis; in
 * local mode the in-memory store's gate, as there is one process) fetches each
 * watched feed's rate once, whatever the number of alerts on it, claims the alerts it crossed (one
 * ZRANGEBYSCORE per feed), tells each user through the notifier and only then marks the alert fired.
 * A claim whose process died before that is taken again when its lease ends, by the next tick.
 */

import type { OutMessage, UserRef } from '../chat/types.js';
import type { Network, QuoteRequest } from '../domain/types.js';
import type { Logger } from '../log/logger.js';
import type { RampClient } from '../ramp/types.js';
import { type MarkSlot, markScope } from '../store/marks.js';
import { type IntervalTicks, intervalTicks } from '../store/turns/interval-ticks.js';
import { expiringMessage, firedMessage } from './messages.js';
import { firedMark } from './store/fired-mark.js';
import { type AlertRecord, feedOf } from './store/record.js';
import type { AlertStorage, Feed } from './store/storage.js';
import { AlertStore } from './store/store.js';

/** Where alerts are told: the engine's notify (a notice on the outbound line, in the user's language). */
export interface AlertNotifier {
  /** `scope.mark`: written with the notice in the outbox (src/store/marks.ts). */
  notify(user: UserRef, message: OutMessage, scope?: { mark?: MarkSlot }): Promise<void>;
}

export interface TickerOptions {
  store: AlertStorage;
  ramp: Pick<RampClient, 'getQuote'>;
  notifier: AlertNotifier;
  log: Logger;
  /** How often rates are fetched (ALERTS_INTERVAL_MS). */
  intervalMs: number;
  /** How far back past its level the rate must move before a fired alert re-arms, in % (ALERTS_REARM_PCT). */
  rearmPct: number;
  /** How long a claim is held before another process may retry it (ALERTS_CLAIM_LEASE_MS). */
  leaseMs: number;
  now?: () => number;
  /** Alerts claimed per script call (default 1000). */
  batch?: number;
  /**
   * How long claims being told keep their lease renewed (default 16 min, past the outbound line's
   * 15-minute give-up): a send stuck longer is retried by another process.
   */
  maxHoldMs?: number;
  /** How long after a failed notice its alert is tried again (default 15 min). */
  failBackoffMs?: number;
  /** Feeds quoted at once (default 16). */
  quoteConcurrency?: number;
  /** Notices in flight at once (default 32); the outbound line paces them further. */
  concurrency?: number;
  /** Told every rate quoted (the price charts keep them); its failure only logs. */
  onRate?: (feed: Feed, rate: number) => Promise<void>;
}

export interface TickReport {
  /** Feeds watched this tick, and ramp quotes asked (one per feed). */
  feeds: number;
  quotes: number;
  claimed: number;
  /** Claims another process left (lease ended) taken again. */
  retried: number;
  fired: number;
  failed: number;
  rearmed: number;
  warned: number;
  expired: number;
  /** Time to quote every feed, then to find and claim (and re-arm) across all feeds. */
  quoteMs: number;
  claimMs: number;
}

/** The KES a rate is quoted for: a typical purchase, within every listed limit. */
const QUOTE_KES = '1000';

export class AlertTicker {
  private readonly now: () => number;
  private readonly ticks: IntervalTicks<TickReport>;

  constructor(private readonly o: TickerOptions) {
    this.now = o.now ?? Date.now;
    this.ticks = intervalTicks({
      intervalMs: o.intervalMs,
      now: this.now,
      take: (n, leaseMs) => o.store.takeTick(n, leaseMs),
      tick: () => this.tick(),
      log: o.log,
      what: 'alert tick failed',
    });
  }

  start(): void {
    this.ticks.start();
  }

  stop(): Promise<void> {
    return this.ticks.stop();
  }

  /** Runs this interval's tick when no process (this one included) has taken it yet. */
  maybeTick(): Promise<TickReport | undefined> {
    return this.ticks.maybeTick();
  }

  /** One tick, unconditionally (tests and the benchmark call it directly). */
  async tick(): Promise<TickReport> {
    const report: TickReport = {
      feeds: 0,
      quotes: 0,
      claimed: 0,
      retried: 0,
      fired: 0,
      failed: 0,
      rearmed: 0,
      warned: 0,
      expired: 0,
      quoteMs: 0,
      claimMs: 0,
    };
    const { store } = this.o;
    const rates = new Map<string, number>();
    const feeds: Feed[] = [];
    const started = performance.now();
    // A feed nobody watches any more is dropped, not fetched; the others are quoted once each.
    await pool(await store.feeds(), this.o.quoteConcurrency ?? 16, async (feed) => {
      if (await store.dropIfUnwatched(feed)) return;
      feeds.push(feed);
      report.quotes++;
      const rate = await this.rateOf(feed);
      if (rate === undefined) return;
      rates.set(feed.key, rate);
      await this.o.onRate?.(feed, rate).catch((err: unknown) => {
        this.o.log.warn({ feed: feed.key, err: (err as Error).message }, 'rate not kept for the charts');
      });
    });
    report.feeds = feeds.length;
    report.quoteMs = performance.now() - started;
    const claimed: string[] = [];
    const leaseEnd = () => this.now() + this.o.leaseMs;
    const batch = this.o.batch ?? 1000;
    await Promise.all(
      feeds.map(async (feed) => {
        const rate = rates.get(feed.key);
        if (rate === undefined) return;
        for (;;) {
          const ids = await store.claimCrossed(feed, rate, batch, leaseEnd());
          claimed.push(...ids);
          if (ids.length < batch) break;
        }
        report.rearmed += await store.rearm(feed, rate, 100_000);
      }),
    );
    report.claimMs = performance.now() - started - report.quoteMs;
    report.claimed = claimed.length;
    const retried = await store.reclaimExpired(10_000, leaseEnd());
    report.retried = retried.length;
    await this.tell([...claimed, ...retried], rates, report);
    await this.sweepExpiry(report);
    return report;
  }

  /** The feed's rate now: KES per token, the buy rate for "below" and the sell rate for "above". */
  private async rateOf(feed: Feed): Promise<number | undefined> {
    const base = { network: feed.network as Network, token: feed.token, fiatCurrency: 'KES' as const };
    const request: QuoteRequest =
      feed.side === 'below'
        ? { ...base, type: 'onramp', amount: QUOTE_KES }
        : { ...base, type: 'offramp', fiatAmount: QUOTE_KES };
    try {
      const q = await this.o.ramp.getQuote(request);
      return Number.isFinite(q.exchangeRate) && q.exchangeRate > 0 ? q.exchangeRate : undefined;
    } catch (err) {
      this.o.log.warn(
        { feed: feed.key, err: (err as Error).message },
        'alert rate not fetched; feed skipped this tick',
      );
      return undefined;
    }
  }

  /** Tells each claimed alert's user, renewing the leases while it takes, then marks each fired. */
  private async tell(ids: string[], rates: Map<string, number>, report: TickReport): Promise<void> {
    if (!ids.length) return;
    const { store } = this.o;
    const found = await store.records(ids);
    const now = this.now();
    const recs = found.filter((r) => r.expiresAt > now);
    // Gone, unreadable (logged by the store) or expired: nothing to tell, and no claim left to retry.
    const told = new Set(recs.map((r) => r.id));
    const dropped = ids.filter((id) => !told.has(id));
    if (dropped.length) await store.dropClaims(dropped);
    // Claims taken again whose feed this tick did not quote (dropped while all its alerts were claimed).
    const unquoted = new Map<string, Feed>();
    for (const r of recs) {
      const key = feedKey(r);
      if (!rates.has(key)) unquoted.set(key, { key, side: r.side, network: r.network, token: r.token });
    }
    for (const feed of unquoted.values()) {
      const rate = await this.rateOf(feed);
      if (rate !== undefined) rates.set(feed.key, rate);
    }
    const pending = new Set(told);
    const holdUntil = this.now() + (this.o.maxHoldMs ?? 16 * 60_000);
    const renew = setInterval(
      () => {
        if (this.now() + this.o.leaseMs > holdUntil) return clearInterval(renew);
        void store.renewClaims([...pending], this.now() + this.o.leaseMs).catch(() => undefined);
      },
      Math.max(20, Math.floor(this.o.leaseMs / 3)),
    );
    renew.unref?.();
    try {
      await pool(recs, this.o.concurrency ?? 32, async (rec: AlertRecord) => {
        const rate = rates.get(feedKey(rec)) ?? rec.level;
        try {
          // On Redis the mark goes into the outbox with the notice; else it is written after it.
          const scope =
            store instanceof AlertStore ? markScope(firedMark(store.p, rec, this.o.rearmPct)) : undefined;
          await this.o.notifier.notify(rec.user, firedMessage(rec, rate), scope);
          const marked = scope?.mark.written === true;
          pending.delete(rec.id);
          if (marked || (await store.markFired(rec, this.o.rearmPct))) report.fired++;
        } catch (err) {
          // Left claimed and tried again later: the outbound line already retried what a retry
          // could fix, so what throws is mostly a chat that is gone; no need to knock every lease.
          pending.delete(rec.id);
          report.failed++;
          await store
            .renewClaims([rec.id], this.now() + (this.o.failBackoffMs ?? 15 * 60_000))
            .catch(() => undefined);
          this.o.log.warn(
            { alert: rec.id, err: (err as Error).message },
            'alert not delivered; tried again later',
          );
        }
      });
    } finally {
      clearInterval(renew);
    }
  }

  /** Expiry notes and expiries of the hours that ended since the last sweep. */
  private async sweepExpiry(report: TickReport): Promise<void> {
    const { store } = this.o;
    const lastDone = this.hourNow() - 1;
    const stored = await store.expiryCursor();
    let hour = stored !== undefined ? stored + 1 : lastDone - 48;
    for (; hour <= lastDone; hour++) {
      for (const id of await store.bucket(hour)) {
        const out = await store.expireOrWarn(id, hour).catch((err: unknown) => {
          this.o.log.warn({ alert: id, err: (err as Error).message }, 'alert expiry skipped');
          return undefined;
        });
        if (out?.what === 'expired') report.expired++;
        if (out?.what === 'warn') {
          report.warned++;
          await this.o.notifier.notify(out.rec.user, expiringMessage(out.rec)).catch((err: unknown) => {
            this.o.log.warn({ alert: id, err: (err as Error).message }, 'alert expiry note not delivered');
          });
        }
      }
      await store.dropBucket(hour);
      await store.setExpiryCursor(hour);
    }
  }

  private hourNow(): number {
    return Math.floor(this.now() / 3600_000);
  }
}

const feedKey = (r: AlertRecord) => feedOf(r.side, r.network, r.token);

/** Runs `work` over `items`, at most `limit` at once. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
