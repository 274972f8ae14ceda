/** The `alerts` effect: what the alerts flow asks of the store, answered as an input. */
import { type Engine, effectFailed } from '../engine/index.js';
import type { Effect, Input } from '../flows/types.js';
import type { AlertStore } from './store.js';

type AlertsEffect = Extract<Effect, { type: 'alerts' }>;

/** Registers the handler; without a store (no Redis) every request is answered "unavailable". */
export function registerAlertEffects(
  engine: Pick<Engine, 'registerEffect'>,
  store: AlertStore | undefined,
): void {
  engine.registerEffect<AlertsEffect>('alerts', async (e, ctx): Promise<Input> => {
    if (!store)
      return effectFailed(e.type, { kind: 'internal', message: 'rate alerts need Redis (REDIS_URL)' });
    return { kind: 'alerts', outcome: await store.answer(ctx.user, e.request) };
  });
}
