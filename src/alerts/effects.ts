/** The `alerts` effect: what the alerts flow asks of the store, answered as an input. */
import type { Engine } from '../engine/index.js';
import type { Effect, Input } from '../flows/types.js';
import type { AlertStorage } from './store/storage.js';

type AlertsEffect = Extract<Effect, { type: 'alerts' }>;

/** Registers the handler over the store (Redis, or memory in local mode). */
export function registerAlertEffects(engine: Pick<Engine, 'registerEffect'>, store: AlertStorage): void {
  engine.registerEffect<AlertsEffect>('alerts', async (e, ctx): Promise<Input> => {
    return { kind: 'alerts', outcome: await store.answer(ctx.user, e.request) };
  });
}
