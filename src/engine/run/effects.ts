/**
 * Carrying out one effect: `send` goes to the channel, every other type to its registered handler.
 * A handler that throws, or a type with no handler, becomes an `effectFailed` result for the flow.
 */
import type { ChatScratch } from '../../channels/types.js';
import type { UserRef } from '../../chat/types.js';
import type { Effect, Input, SessionBase } from '../../flows/types.js';
import { DEFAULT_STK_LIMITS } from '../../limits/index.js';
import type { SendScope } from '../../outbound/index.js';
import { deliver } from '../channels.js';
import type { EngineCore } from '../core.js';
import { effectFailed, toEffectError } from '../errors.js';
import { errSummary, loggableUser } from '../loggable.js';
import type { EffectContext, EffectHandler } from '../types.js';

/** Adds a handler; `send` and types already taken throw. */
export function registerEffect<S extends SessionBase>(
  core: EngineCore<S>,
  type: string,
  handler: EffectHandler,
): void {
  if (type === 'send' || core.handlers.has(type))
    throw new Error(`an effect handler for "${type}" is already registered`);
  core.handlers.set(type, handler);
}

/** What a handler gets for one user, at the session the step saved. */
function effectContext<S extends SessionBase>(
  core: EngineCore<S>,
  user: UserRef,
  session: S,
  scratch?: ChatScratch,
  scope?: SendScope,
): EffectContext {
  const { deps } = core;
  return {
    user,
    session,
    ramp: deps.ramp,
    tracker: deps.tracker,
    store: deps.store,
    logger: core.log,
    now: core.now,
    ...(deps.limiter ? { limits: { limiter: deps.limiter, stk: deps.stkLimits ?? DEFAULT_STK_LIMITS } } : {}),
    ...(deps.journal ? { journal: deps.journal } : {}),
    send: (message) => deliver(core, user, message, session.locale, scratch, { scope }),
  };
}

/** Carries out one effect; the result (if any) is to be fed back to the flow. */
export async function performEffect<S extends SessionBase>(
  core: EngineCore<S>,
  user: UserRef,
  session: S,
  effect: Effect,
  scratch?: ChatScratch,
  scope?: SendScope,
): Promise<Input | undefined> {
  if (effect.type === 'send') {
    await deliver(core, user, effect.message, session.locale, scratch, { scope });
    return undefined;
  }
  const handler = core.handlers.get(effect.type);
  if (!handler) {
    core.log.error({ user: loggableUser(user), effect: effect.type }, 'no handler for this effect type');
    return effectFailed(effect.type, { kind: 'internal', message: `no handler for ${effect.type}` });
  }
  try {
    return (await handler(effect, effectContext(core, user, session, scratch, scope))) ?? undefined;
  } catch (err) {
    core.log.warn({ user: loggableUser(user), effect: effect.type, err: errSummary(err) }, 'effect failed');
    const purpose = 'purpose' in effect && typeof effect.purpose === 'string' ? effect.purpose : undefined;
    return effectFailed(effect.type, toEffectError(err), purpose);
  }
}
