/**
 * One transition, saved: load the session, run the pure flow transition, save the new state with
 * compare-and-set. On a conflict (someone saved first) the whole step is redone on the freshly
 * loaded session, so no effect ever runs for a state that was not saved.
 */
import type { UserRef } from '../../chat/types.js';
import { userKey } from '../../chat/types.js';
import type { Effect, FlowContext, Input, SessionBase } from '../../flows/types.js';
import { decodeSession, encodeSession, type SessionHints } from '../../store/session-codec.js';
import type { StoredSession } from '../../store/types.js';
import type { EngineCore } from '../core.js';
import { SaveConflictError } from '../errors.js';
import { loggableUser } from '../loggable.js';
import { ENGINE_TEXTS, textMessage } from '../types.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Load, transition, compare-and-set; retried on conflict with the freshly loaded state. */
export async function applyInput<S extends SessionBase>(
  core: EngineCore<S>,
  user: UserRef,
  input: Input,
  hints: SessionHints | undefined,
  loaded?: StoredSession,
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
    const rev = await store.save(key, stored.rev, encodeSession(step.state));
    if (rev === undefined) {
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
