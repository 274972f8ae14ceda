/** The conversation engine (see ./engine.ts). */
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
