/**
 * Rate limits on costly actions, shared by every process through Redis (or kept in this process
 * without Redis). A limit is "at most `max` in `windowMs`" over a sliding window; `take` checks a set
 * of limits at once and, only when every one allows it, counts the action in all of them, atomically.
 * A refusal counts nothing and says when the earliest slot frees up.
 *
 * The STK push limits (defaults, each a setting): 1 push per target phone in flight (one M-Pesa
 * prompt lives about a minute, so 90 s), 3 per phone per 10 minutes, 5 per chat user per hour.
 */
import type { RedisClientType } from 'redis';
import { runScript } from '../store/script.js';

export interface Limit {
  /** What is counted, e.g. `stk-phone:254712345678`. */
  key: string;
  max: number;
  windowMs: number;
}

export type Verdict = { ok: true } | { ok: false; retryAt: number; key: string };

export interface Limiter {
  /**
   * Counts one action in every limit, or none when any is full. `member` names the action: the same
   * member taken again (a double tap, a redelivered update) is allowed without counting twice.
   */
  take(limits: Limit[], now?: number, member?: string): Promise<Verdict>;
}

/** Sliding windows as sorted sets scored by time; all checked before any is counted. */
const TAKE = `
local now = tonumber(ARGV[1])
local n = #KEYS
for i = 1, n do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - tonumber(ARGV[3 + i * 2]))
end
if ARGV[3] == '1' then
  local known = true
  for i = 1, n do
    if not redis.call('ZSCORE', KEYS[i], ARGV[2]) then known = false end
  end
  if known then return { 0, 0 } end
end
for i = 1, n do
  local window = tonumber(ARGV[3 + i * 2])
  if redis.call('ZCARD', KEYS[i]) >= tonumber(ARGV[2 + i * 2]) then
    local oldest = redis.call('ZRANGE', KEYS[i], 0, 0, 'WITHSCORES')
    return { i, tonumber(oldest[2]) + window }
  end
end
for i = 1, n do
  redis.call('ZADD', KEYS[i], now, ARGV[2])
  redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[3 + i * 2]))
end
return { 0, 0 }
`;

/** Limits in Redis under `<prefix>limit:`. */
export function createRedisLimiter(redis: RedisClientType, prefix: string): Limiter {
  let seq = 0;
  return {
    async take(limits, now = Date.now(), named) {
      if (!limits.length) return { ok: true };
      const member = named ?? `${now}:${process.pid}:${++seq}:${Math.random().toString(36).slice(2, 8)}`;
      const args = [String(now), member, named ? '1' : '0'];
      for (const l of limits) args.push(String(l.max), String(l.windowMs));
      const [index, retryAt] = (await runScript(redis, TAKE, {
        keys: limits.map((l) => `${prefix}limit:${l.key}`),
        arguments: args,
      })) as [number, number];
      return index === 0 ? { ok: true } : { ok: false, retryAt, key: limits[index - 1]!.key };
    },
  };
}

/** Limits kept in this process (local mode without Redis). */
export function createMemoryLimiter(): Limiter {
  const windows = new Map<string, { at: number; member?: string }[]>();
  return {
    async take(limits, now = Date.now(), member) {
      for (const l of limits)
        windows.set(
          l.key,
          (windows.get(l.key) ?? []).filter((e) => e.at > now - l.windowMs),
        );
      if (member && limits.every((l) => windows.get(l.key)!.some((e) => e.member === member)))
        return { ok: true };
      for (const l of limits) {
        const live = windows.get(l.key)!;
        if (live.length >= l.max) return { ok: false, retryAt: live[0]!.at + l.windowMs, key: l.key };
      }
      for (const l of limits) windows.get(l.key)!.push({ at: now, member });
      return { ok: true };
    },
  };
}

/** The STK push limits' settings. */
export interface StkLimits {
  inFlightMs: number;
  perPhone: number;
  perPhoneWindowMs: number;
  perUser: number;
  perUserWindowMs: number;
}

export const DEFAULT_STK_LIMITS: StkLimits = {
  inFlightMs: 90_000,
  perPhone: 3,
  perPhoneWindowMs: 10 * 60_000,
  perUser: 5,
  perUserWindowMs: 3600_000,
};

/** The limits one STK push to `phone` asked by `userKey` is counted against. */
export function stkLimits(cfg: StkLimits, userKey: string, phone: string): Limit[] {
  return [
    { key: `stk-inflight:${phone}`, max: 1, windowMs: cfg.inFlightMs },
    { key: `stk-phone:${phone}`, max: cfg.perPhone, windowMs: cfg.perPhoneWindowMs },
    { key: `stk-user:${userKey}`, max: cfg.perUser, windowMs: cfg.perUserWindowMs },
  ];
}

/** Limits on a user's sales: signing links created, and transaction hashes sent in to be checked. */
export interface SellLimits {
  linksPerUser: number;
  linksWindowMs: number;
  hashesPerUser: number;
  hashesWindowMs: number;
}

/** Thrown when a rate limit refuses an action; `retryAt` is when a slot frees up (ms epoch). */
export class RateLimitedError extends Error {
  override name = 'RateLimitedError';
  constructor(
    readonly limit: string,
    readonly retryAt: number,
  ) {
    super(`rate limited (${limit}) until ${new Date(retryAt).toISOString()}`);
  }
}
