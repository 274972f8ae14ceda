/**
 * Limits on what support costs per user (issue #24): each new case opens a forum topic and takes an
 * agent's time, each ticket goes to the ramp. A user may open `casesPerUser` new cases in
 * `casesWindowMs` (3 an hour) and file `ticketsPerUser` refund tickets in `ticketsWindowMs` (3 a
 * day), counted in Redis across replicas (src/limits). Writing in a case already open, reopening one,
 * and cases the system opens (escalations) are not counted. A refusal says how long to wait.
 */
import type { UserRef } from '../chat/types.js';
import { userKey } from '../chat/types.js';
import { loggableUser } from '../engine/engine.js';
import { type Limiter, RateLimitedError } from '../limits/index.js';
import type { Logger } from '../log/logger.js';

export interface SupportLimits {
  casesPerUser: number;
  casesWindowMs: number;
  ticketsPerUser: number;
  ticketsWindowMs: number;
}

export const DEFAULT_SUPPORT_LIMITS: SupportLimits = {
  casesPerUser: 3,
  casesWindowMs: 3600_000,
  ticketsPerUser: 3,
  ticketsWindowMs: 24 * 3600_000,
};

/**
 * Counts one new case (or ticket) of `user`; throws RateLimitedError when over the limit. `member`
 * names the action, so the same one tried again (a retried slot, the same order's ticket) counts once.
 */
export async function takeSupportLimit(
  deps: { limiter?: Limiter; limits?: SupportLimits; log: Logger; now: () => number },
  which: 'cases' | 'tickets',
  user: UserRef,
  member?: string,
): Promise<void> {
  if (!deps.limiter) return;
  const l = deps.limits ?? DEFAULT_SUPPORT_LIMITS;
  const limit =
    which === 'cases'
      ? { key: `support-cases:${userKey(user)}`, max: l.casesPerUser, windowMs: l.casesWindowMs }
      : { key: `support-tickets:${userKey(user)}`, max: l.ticketsPerUser, windowMs: l.ticketsWindowMs };
  const verdict = await deps.limiter.take([limit], deps.now(), member);
  if (verdict.ok) return;
  deps.log.warn(
    {
      user: loggableUser(user),
      limit: limit.key.split(':')[0],
      retryAt: new Date(verdict.retryAt).toISOString(),
    },
    `support: too many ${which === 'cases' ? 'new cases' : 'refund tickets'} from one user; refused`,
  );
  throw new RateLimitedError(which, verdict.retryAt);
}

/** The wait a refusal names: minutes up to two hours, then hours (rounded up). */
export function waitArgs(retryInMs: number | undefined): {
  unit: 'minutes' | 'hours';
  minutes: number;
  hours: number;
} {
  const minutes = Math.max(1, Math.ceil((retryInMs ?? 60_000) / 60_000));
  return { unit: minutes > 120 ? 'hours' : 'minutes', minutes, hours: Math.ceil(minutes / 60) };
}
