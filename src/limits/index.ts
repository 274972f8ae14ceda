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

export interface Limit {
  /** What is counted, e.g. `stk-phone:254712345678`. */
  key: string;
  max: number;
  windowMs: number;
}

export type Verdict = { ok: true } | { ok: false; retryAt: number; key: string };

export interface Limiter {
  take(limits: Limit[], now?: number): Promise<Verdict>;
}

/** Sliding windows as sorted sets scored by time; all checked before any is counted. */
const TAKE = `
local now = tonumber(ARGV[1])
local n = #KEYS
for i = 1, n do
  local max = tonumber(ARGV[1 + i * 2])
  local window = tonumber(ARGV[2 + i * 2])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
  if redis.call('ZCARD', KEYS[i]) >= max then
    local oldest = redis.call('ZRANGE', KEYS[i], 0, 0, 'WITHSCORES')
    return { i, tonumber(oldest[2]) + window }
  end
end
for i = 1, n do
  local window = tonumber(ARGV[2 + i * 2])
  redis.call('ZADD', KEYS[i], now, ARGV[2])
  redis.call('PEXPIRE', KEYS[i], window)
end
return { 0, 0 }
`;

/** Limits in Redis under `<prefix>limit:`. */
export function createRedisLimiter(redis: RedisClientType, prefix: string): Limiter {
  let seq = 0;
  return {
    async take(limits, now = Date.now()) {
      if (!limits.length) return { ok: true };
      const member = `${now}:${process.pid}:${++seq}:${Math.random().toString(36).slice(2, 8)}`;
      const args = [String(now), member];
      for (const l of limits) args.push(String(l.max), String(l.windowMs));
      const [index, retryAt] = (await redis.eval(TAKE, {
        keys: limits.map((l) => `${prefix}limit:${l.key}`),
        arguments: args,
      })) as [number, number];
      return index === 0 ? { ok: true } : { ok: false, retryAt, key: limits[index - 1]!.key };
    },
  };
}

/** Limits kept in this process (local mode without Redis). */
export function createMemoryLimiter(): Limiter {
  const windows = new Map<string, number[]>();
  return {
    async take(limits, now = Date.now()) {
      for (const l of limits) {
        const live = (windows.get(l.key) ?? []).filter((t) => t > now - l.windowMs);
        windows.set(l.key, live);
        if (live.length >= l.max) return { ok: false, retryAt: live[0]! + l.windowMs, key: l.key };
      }
      for (const l of limits) windows.get(l.key)!.push(now);
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
