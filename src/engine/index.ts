/** The conversation engine (see ./engine.ts), bound to the production flows by `createEngine`. */
import { initialSession, SESSION_VERSION, type Session, sessionSchema, transition } from '../flows/index.js';
import { createConversationEngine, type Engine, type EngineDeps, type FlowModule } from './engine.js';

export {
  createConversationEngine,
  type EffectContext,
  type EffectHandler,
  ENGINE_TEXTS,
  type Engine,
  type EngineDeps,
  type FlowModule,
  loggableUser,
} from './engine.js';
export { effectFailed, SaveConflictError, surelyNotActedOn, toEffectError } from './errors.js';
export { KeyedMutex } from './lock.js';
export {
  type ClaimReconciler,
  type ClaimReconcilerDeps,
  createClaimReconciler,
  type PendingStkClaim,
  RECONCILER_TEXTS,
  type StkEscalation,
  type SweepReport,
} from './reconciler.js';

/** The production flows as the engine runs them. */
export const appFlows: FlowModule<Session> = {
  version: SESSION_VERSION,
  schema: sessionSchema,
  initial: initialSession,
  transition,
};

/** Creates the engine over the production flows (or `deps.flow`, e.g. a flow under test). */
export function createEngine(
  deps: Omit<EngineDeps<Session>, 'flow'> & { flow?: FlowModule<Session> },
): Engine {
  return createConversationEngine({ ...deps, flow: deps.flow ?? appFlows });
}
