/**
 * One transition, saved: load the session, run the pure flow transition, save the new state with
 * compare-and-set. On a conflict (someone saved first) the whole step is redone on the freshly
 * loaded session, so no effect ever runs for a state that was not saved.
 *
 * One exception saves a round trip on most updates: the first step of an update begun under the
 * chat's lock whose effects are only messages may hand its save to `finish` (`defer`), which
 * compares-and-sets it in the same script that marks the update handled. Its messages then go out
 * before the save; that is safe because nothing else follows from them: a process killed before
 * `finish` leaves the update unfinished, and its redelivery redoes the step from the state before
 * it (the user may see the reply twice, as after a kill between a save and `finish`); and a lost
 * compare-and-set (the lock lost to a stall) redoes the input on the fresh session (./update.ts).
 */
import type { UserRef } from '../../chat/types.js';
import { userKey } from '../../chat/types.js';
import type { Effect, FlowContext, Input, SessionBase } from '../../flows/types.js';
import { decodeSession, encodeSession, type SessionHints } from '../../store/session-codec.js';
import type { DeferredSave, StoredSession } from '../../store/types.js';
import type { EngineCore } from '../core.js';
import { SaveConflictError } from '../errors.js';
import { loggableUser } from '../loggable.js';
import { ENGINE_TEXTS, textMessage } from '../types.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Where a step whose save may wait for `finish` puts it (see the module comment). */
export interface SaveAtFinish {
  save?: DeferredSave;
  /** The update has an id, so a kill before `finish` gets it redelivered and the step redone. */
  redelivered?: boolean;
}

/** Only messages: nothing the step does needs its state saved first. */
const onlyMessages = (effects: Effect[]) => effects.every((e) => e.type === 'send');

/** Load, transition, compare-and-set; retried on conflict with the freshly loaded state. */
export async function applyInput<S extends SessionBase>(
  core: EngineCore<S>,
  user: UserRef,
  input: Input,
  hints: SessionHints | undefined,
  loaded?: StoredSession,
  defer?: SaveAtFinish,
): Promise<{ session: S; effects: Effect[] }> {
  const { store, flow, config } = core.deps;
  const key = userKey(user);
  const ctx: FlowContext = { now: core.now(), user, config };
  for (let attempt = 1; attempt <= core.maxSaveAttempts; attempt++) {
    // The first attempt uses the session `begin` loaded; a conflict reloads it.
    const stored = attempt === 1 && loaded ? loaded : await store.load(key);
    const decoded = decodeSession(flow, stored, hints);
    ctx.now = core.now();
    const step = flow.transition(decoded.session, input, ctx);
    const parts = encodeSession(step.state);
    if (attempt === 1 && loaded && defer && onlyMessages(step.effects))
      defer.save = { rev: stored.rev, parts };
    else if ((await store.save(key, stored.rev, parts)) === undefined) {
      if (attempt > 2) await sleep(Math.random() * Math.min(50, attempt * 2));
      continue;
    }
    if (!decoded.reset) return { session: step.state, effects: step.effects };
    core.log.warn({ user: loggableUser(user), reason: decoded.resetReason }, 'stored session was reset');
    return {
      session: step.state,
      effects: [{ type: 'send', message: textMessage(ENGINE_TEXTS.stateReset) }, ...step.effects],
    };
  }
  throw new SaveConflictError(core.maxSaveAttempts);
}
