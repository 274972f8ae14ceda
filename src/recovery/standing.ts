/**
 * Putting back what users keep standing (rate alerts, standing-buy plans) after Redis came back
 * empty, from the durable record outside Redis (./standing-record.ts). Each capability says how one
 * of its records goes back into Redis (`StandingRestorer`, in src/alerts and src/savings); this pass
 * walks the records, and a user some of whose alerts or plans could not go back (their slots were
 * taken meanwhile, or the record no longer reads) is told once: the record is brought in line with
 * what Redis now holds right after, so a later pass finds nothing missing. A pass is safe to run
 * again: what is already back counts as `present`.
 */
import type { OutMessage, UserRef } from '../chat/types.js';
import type { Logger } from '../log/logger.js';
import type { StandingKind, StandingRecord } from './standing-record.js';

/** What became of one record. */
export interface StandingOutcome {
  /** Alerts or plans put back. */
  restored: number;
  /** Already in Redis (a pass before this one put them back, or Redis kept them). */
  present: number;
  /** Could not go back: its user is told (then `afterTold` settles the record). */
  lost: number;
  user?: UserRef;
  /** Brings the record in line with Redis once the user was told (so they are told once). */
  afterTold?: () => Promise<void>;
}

/** How one capability puts one of its records back (throws when Redis fails: the next pass tries again). */
export interface StandingRestorer {
  restore(payload: unknown): Promise<StandingOutcome>;
  /** What a user is told when some of theirs could not be brought back. */
  lostMessage: OutMessage;
  /** Writes every record from what Redis holds now (those made before the record existed); how many. */
  backfill?(): Promise<number>;
}

/** The record, and the restorers the capabilities register when they are wired on Redis. */
export interface StandingSink {
  record: StandingRecord;
  restorers: Partial<Record<StandingKind, StandingRestorer>>;
}

export interface StandingReport {
  restored: number;
  present: number;
  lost: number;
  told: number;
  /** Records that could not be read at all (no user to tell): logged for the operator. */
  unreadable: number;
  /** Records Redis or the channel failed on: the next pass tries them again. */
  failed: number;
}

export const emptyStandingReport = (): StandingReport => ({
  restored: 0,
  present: 0,
  lost: 0,
  told: 0,
  unreadable: 0,
  failed: 0,
});

/** Puts back every record a restorer is registered for; tells each user with something lost once. */
export async function restoreStanding(deps: {
  sink: StandingSink;
  notify: (user: UserRef, message: OutMessage) => Promise<void>;
  logger: Logger;
  signal?: AbortSignal;
}): Promise<StandingReport> {
  const report = emptyStandingReport();
  const log = deps.logger;
  for (const [kind, restorer] of Object.entries(deps.sink.restorers) as Array<
    [StandingKind, StandingRestorer]
  >) {
    for (const file of await deps.sink.record.list(kind)) {
      deps.signal?.throwIfAborted();
      if (file.error !== undefined) {
        report.unreadable += 1;
        log.error({ kind, record: file.name, err: file.error }, 'recovery: a standing record is unreadable');
        continue;
      }
      try {
        const out = await restorer.restore(file.payload);
        report.restored += out.restored;
        report.present += out.present;
        report.lost += out.lost;
        if (out.lost === 0) continue;
        if (!out.user) {
          report.unreadable += 1;
          log.error({ kind, record: file.name }, 'recovery: a standing record names no user; dropped');
          await deps.sink.record.drop(kind, file.name);
          continue;
        }
        await deps.notify(out.user, restorer.lostMessage);
        report.told += 1;
        await (out.afterTold ? out.afterTold() : deps.sink.record.drop(kind, file.name));
        log.warn(
          { kind, lost: out.lost },
          'recovery: a user was told some standing items could not come back',
        );
      } catch (err) {
        report.failed += 1;
        log.error(
          { kind, record: file.name, err: (err as Error).message },
          'recovery: a standing record failed',
        );
      }
    }
  }
  if (report.restored || report.lost || report.unreadable || report.failed)
    log.warn(report, 'recovery: standing alerts and plans put back');
  return report;
}

/**
 * Once per deployment's Redis (a mark, set once a pass went through): alerts and plans made before
 * the record existed are written to it, so an emptied Redis after an upgrade loses none of them. Safe
 * beside a recovery pass or another replica's fill: it writes what Redis holds, and an emptied Redis
 * holds nothing to write.
 */
export async function backfillStanding(deps: {
  sink: StandingSink;
  /** The deployment's mark: whether a fill is still due, and setting it once one went through. */
  mark: { due(): Promise<boolean>; set(): Promise<void> };
  logger: Logger;
}): Promise<number> {
  if (!(await deps.mark.due())) return 0;
  let written = 0;
  for (const [kind, restorer] of Object.entries(deps.sink.restorers))
    if (restorer?.backfill) {
      const n = await restorer.backfill();
      written += n;
      if (n) deps.logger.info({ kind, written: n }, 'standing record: filled in from Redis');
    }
  await deps.mark.set();
  return written;
}
