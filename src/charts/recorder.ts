/**
 * Fills the rate histories. The alert ticker hands over every rate it quotes (its watched feeds);
 * besides, once per interval one process (the interval's NX key) quotes the buy and sell rate of
 * each pair someone charted in the last 31 days, so a pair's chart fills from its first request.
 */

import type { RedisClientType } from 'redis';
import type { Network, QuoteRequest } from '../domain/types.js';
import type { Logger } from '../log/logger.js';
import type { RampClient } from '../ramp/types.js';
import { type IntervalTicks, intervalTicks } from '../store/turns/interval-ticks.js';
import { type Pair, pairKey, type RateHistory, type Side } from './history.js';

/** The KES a rate is quoted for, as the alert ticker does. */
const QUOTE_KES = '1000';
const KEEP_MS = 31 * 24 * 3600_000;

/** Which pairs are charted, and which process takes an interval. */
export interface ChartedPairs {
  /** Notes that someone asked for the pair's chart. */
  touch(pair: Pair, now: number): Promise<void>;
  /** Pairs asked for since `since`. */
  list(since: number): Promise<Pair[]>;
  /** Stops quoting a pair (the ramp quotes neither side of it). */
  drop(pair: Pair): Promise<void>;
  /** True for the one caller that takes interval `n`. */
  takeTick(n: number, ttlMs: number): Promise<boolean>;
}

export function redisChartedPairs(redis: RedisClientType, prefix: string): ChartedPairs {
  const set = `${prefix}chart:pairs`;
  return {
    async touch(pair, now) {
      await redis.zAdd(set, { value: pairKey(pair), score: now });
    },
    async list(since) {
      await redis.zRemRangeByScore(set, '-inf', `(${since}`);
      return (await redis.zRange(set, 0, -1)).map(pairOfKey);
    },
    async drop(pair) {
      await redis.zRem(set, pairKey(pair));
    },
    async takeTick(n, ttlMs) {
      return (await redis.set(`${prefix}chart:tick:${n}`, '1', { NX: true, PX: ttlMs })) === 'OK';
    },
  };
}

export function memoryChartedPairs(): ChartedPairs {
  const asked = new Map<string, number>();
  let last = -1;
  return {
    async touch(pair, now) {
      asked.set(pairKey(pair), now);
    },
    async list(since) {
      return [...asked].filter(([, at]) => at >= since).map(([key]) => pairOfKey(key));
    },
    async drop(pair) {
      asked.delete(pairKey(pair));
    },
    async takeTick(n) {
      if (n <= last) return false;
      last = n;
      return true;
    },
  };
}

function pairOfKey(key: string): Pair {
  const at = key.indexOf(':');
  return { token: key.slice(0, at), network: key.slice(at + 1) };
}

export interface RecorderOptions {
  history: RateHistory;
  pairs: ChartedPairs;
  ramp: Pick<RampClient, 'getQuote'>;
  log: Logger;
  intervalMs: number;
  now?: () => number;
}

/** The rate of one side of a pair now, or undefined when the ramp does not answer with one. */
export async function quoteRate(
  ramp: Pick<RampClient, 'getQuote'>,
  pair: Pair,
  side: Side,
): Promise<number | undefined> {
  const base = { network: pair.network as Network, token: pair.token, fiatCurrency: 'KES' as const };
  const request: QuoteRequest =
    side === 'buy'
      ? { ...base, type: 'onramp', amount: QUOTE_KES }
      : { ...base, type: 'offramp', fiatAmount: QUOTE_KES };
  const q = await ramp.getQuote(request);
  return Number.isFinite(q.exchangeRate) && q.exchangeRate > 0 ? q.exchangeRate : undefined;
}

export class ChartRecorder {
  private readonly now: () => number;
  private readonly ticks: IntervalTicks<number>;

  constructor(private readonly o: RecorderOptions) {
    this.now = o.now ?? Date.now;
    this.ticks = intervalTicks({
      intervalMs: o.intervalMs,
      now: this.now,
      take: (n, leaseMs) => o.pairs.takeTick(n, leaseMs),
      tick: () => this.tick(),
      log: o.log,
      what: 'chart tick failed',
    });
  }

  /** Records a rate the alert ticker quoted (below: the buy rate; above: the sell rate). */
  async fromAlerts(feed: { token: string; network: string; side: 'below' | 'above' }, rate: number) {
    const side: Side = feed.side === 'below' ? 'buy' : 'sell';
    await this.o.history.record({ token: feed.token, network: feed.network }, side, rate, this.now());
  }

  start(): void {
    this.ticks.start();
  }

  stop(): Promise<void> {
    return this.ticks.stop();
  }

  /** Records this interval's rates when no process (this one included) has taken it yet. */
  maybeTick(): Promise<number | undefined> {
    return this.ticks.maybeTick();
  }

  /** Quotes and records every charted pair's two sides; returns how many rates were recorded. */
  async tick(): Promise<number> {
    const at = this.now();
    const pairs = await this.o.pairs.list(at - KEEP_MS);
    let recorded = 0;
    await Promise.all(
      pairs.map(async (pair) => {
        const refused: unknown[] = [];
        for (const side of ['buy', 'sell'] as const) {
          try {
            const rate = await quoteRate(this.o.ramp, pair, side);
            if (rate === undefined) continue;
            await this.o.history.record(pair, side, rate, at);
            recorded++;
          } catch (err) {
            if ((err as { kind?: string }).kind === 'validation') refused.push(err);
            this.o.log.debug(
              { pair: pairKey(pair), side, err: (err as Error).message },
              'chart rate skipped',
            );
          }
        }
        // The ramp refused both sides as invalid (a token it does not list there): no more quotes.
        if (refused.length === 2) await this.o.pairs.drop(pair);
      }),
    );
    return recorded;
  }
}
