/** The conversation engine (see ./engine.ts); the app binds it to its flow table (src/app/flows.ts). */

export {
  type ClaimReconciler,
  type ClaimReconcilerDeps,
  createClaimReconciler,
  type PendingStkClaim,
  RECONCILER_TEXTS,
  type StkEscalation,
  type SweepReport,
} from './claims/reconciler.js';
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
