/**
 * One inbound input to the end: the saved step, its effects in order, then each effect's result fed
 * back the same way, up to `maxSteps` transitions. Failures end here: the user hears "try again",
 * "busy" or "internal error" and nothing is thrown.
 */
import type { ChatScratch } from '../../channels/types.js';
import type { Locale, UserRef } from '../../chat/types.js';
import type { Input, SessionBase } from '../../flows/types.js';
import type { SendScope } from '../../outbound/index.js';
import { isStoreUnavailable } from '../../store/errors.js';
import type { SessionHints } from '../../store/session-codec.js';
import type { StoredSession } from '../../store/types.js';
import { deliver } from '../channels.js';
import type { EngineCore } from '../core.js';
import { SaveConflictError } from '../errors.js';
import { errSummary, loggableUser } from '../loggable.js';
import { ENGINE_TEXTS, textMessage } from '../types.js';
import { applyInput, type SaveAtFinish } from './apply.js';
import { performEffect } from './effects.js';
import { tellStoreDown } from './notices.js';

/**
 * Handles one input and the results of its effects; `loaded` is the session `begin` read, if any.
 * With `defer`, the first step's save may be left to the update's `finish` (see ./apply.ts).
 */
export async function runInput<S extends SessionBase>(
  core: EngineCore<S>,
  user: UserRef,
  first: Input,
  hints: SessionHints | undefined,
  loaded?: StoredSession,
  scratch?: ChatScratch,
  defer?: SaveAtFinish,
  scope?: SendScope,
): Promise<void> {
  let steps = 0;
  let preloaded = loaded;
  let locale: Locale = hints?.locale ?? 'en';
  const feed = async (input: Input): Promise<void> => {
    if (++steps > core.maxSteps) {
      if (steps === core.maxSteps + 1) {
        core.log.error(
          { user: loggableUser(user), input: input.kind },
          `more than ${core.maxSteps} steps for one input`,
        );
        await deliver(core, user, textMessage(ENGINE_TEXTS.internalError), locale, scratch, { scope });
      }
      return;
    }
    const deferring = preloaded && defer;
    const { session, effects } = await applyInput(core, user, input, hints, preloaded, deferring);
    preloaded = undefined;
    locale = session.locale;
    const results: Input[] = [];
    // A step saved by `finish` is redone whole after a kill: its messages may go straight.
    const redone = deferring?.save && deferring.redelivered;
    const stepScope = redone ? Object.assign({}, scope, { redo: true }) : scope;
    for (const effect of effects) {
      const result = await performEffect(core, user, session, effect, scratch, stepScope);
      if (result) results.push(result);
    }
    for (const result of results) await feed(result);
  };
  try {
    await feed(first);
  } catch (err) {
    await inputFailed(core, user, first, err, locale, scratch, scope);
  }
}

/** Tells the user an input could not be handled: the store is down, the session is too busy, or a bug. */
async function inputFailed<S extends SessionBase>(
  core: EngineCore<S>,
  user: UserRef,
  first: Input,
  err: unknown,
  locale: Locale,
  scratch?: ChatScratch,
  scope?: SendScope,
): Promise<void> {
  if (isStoreUnavailable(err)) {
    core.log.warn(
      { user: loggableUser(user), input: first.kind, err: errSummary(err) },
      'Redis went down mid-input',
    );
    await tellStoreDown(core, user, locale, undefined, scope);
    return;
  }
  const busy = err instanceof SaveConflictError;
  core.log.error({ user: loggableUser(user), input: first.kind, err: errSummary(err) }, 'input not handled');
  await deliver(
    core,
    user,
    textMessage(busy ? ENGINE_TEXTS.busy : ENGINE_TEXTS.internalError),
    locale,
    scratch,
    { scope },
  );
}
