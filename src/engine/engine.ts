/**
 * The conversation engine: runs the pure flow transition against the persisted session, saves the
 * new state with compare-and-set BEFORE carrying out any effect, then carries out the effects in
 * order and feeds their results back through the same load-transition-save loop.
 *
 * What it guarantees, and where each guarantee is kept:
 * - per user, updates are handled one at a time in arrival order, across replicas too (./run/update.ts);
 * - a redelivered update that was handled to the end is dropped (./run/update.ts);
 * - every step is saved with compare-and-set, redone on the fresh session on conflict (./run/apply.ts);
 * - one STK push per confirmation, across processes and crashes (./claims/create-onramp-order.ts, with the
 *   claim reconciler in ./claims/reconciler.ts).
 */
import type { SessionBase } from '../flows/types.js';
import { registerBuiltInEffects } from './builtin-effects.js';
import { registerChannel } from './channels.js';
import { createEngineCore } from './core.js';
import { registerEffect } from './run/effects.js';
import { notify } from './run/notices.js';
import { handleUpdate } from './run/update.js';
import type { EffectHandler, Engine, EngineDeps } from './types.js';

export { loggableUser } from './loggable.js';
export type { EffectHandler, Engine, EngineDeps, FlowModule } from './types.js';

/** Creates the engine for a given flow module (the production flows: src/app/flows.ts). */
export function createConversationEngine<S extends SessionBase>(deps: EngineDeps<S>): Engine {
  const core = createEngineCore(deps);
  const engine: Engine = {
    registerChannel: (adapter) => registerChannel(core, adapter),
    registerEffect: (type, handler) => registerEffect(core, type, handler as EffectHandler),
    handle: (user, input, opts) => handleUpdate(core, user, input, opts),
    orderFinal: (user, orderId) => engine.handle(user, { kind: 'orderFinal', orderId }),
    async tellAndReport(user, input, scope) {
      const refused: string[] = [];
      await handleUpdate(core, user, input, { scope: Object.assign({}, scope, { refused }) });
      return refused.length ? { refused: refused[0] } : {};
    },
    notify: (user, message, scope) => notify(core, user, message, scope),
    async idle() {
      while (core.pending.size) await Promise.allSettled([...core.pending]);
    },
  };
  registerBuiltInEffects(engine);
  return engine;
}
