/** The conversation engine (see ./engine.ts); the app binds it to its flow table (src/app/flows.ts). */

export { createClaimReconciler, type StkEscalation } from './claims/reconciler.js';
export {
  createConversationEngine,
  type EffectHandler,
  type Engine,
  type EngineDeps,
  type FlowModule,
} from './engine.js';
export { effectFailed } from './errors.js';
