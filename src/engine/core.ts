/**
 * What one engine instance holds, as a plain object its parts take explicitly: the dependencies
 * with their defaults filled in, the channel and effect-handler registries, the per-chat mutex and
 * the inputs still being handled.
 */
import type { ChannelAdapter } from '../channels/types.js';
import type { SessionBase } from '../flows/types.js';
import type { Logger } from '../log/logger.js';
import { KeyedMutex } from './lock.js';
import type { EffectHandler, EngineDeps } from './types.js';

export interface EngineCore<S extends SessionBase> {
  readonly deps: EngineDeps<S>;
  readonly now: () => number;
  readonly maxSteps: number;
  readonly maxSaveAttempts: number;
  readonly log: Logger;
  /** Channel adapters by name (`UserRef.channel`). */
  readonly channels: Map<string, ChannelAdapter>;
  /** Effect handlers by effect type (`send` is built in and never listed). */
  readonly handlers: Map<string, EffectHandler>;
  /** One chat's inputs one at a time, in arrival order, within this process. */
  readonly mutex: KeyedMutex;
  /** Inputs accepted and not yet fully handled (`idle` waits for them). */
  readonly pending: Set<Promise<void>>;
  /** When each user was last told the store is down (by user key). */
  readonly storeDownToldAt: Map<string, number>;
}

export function createEngineCore<S extends SessionBase>(deps: EngineDeps<S>): EngineCore<S> {
  const channels = new Map<string, ChannelAdapter>();
  for (const c of deps.channels ?? []) channels.set(c.name, c);
  return {
    deps,
    now: deps.now ?? Date.now,
    maxSteps: deps.maxSteps ?? 20,
    maxSaveAttempts: deps.maxSaveAttempts ?? 50,
    log: deps.logger.child({ component: 'engine' }),
    channels,
    handlers: new Map(),
    mutex: new KeyedMutex(),
    pending: new Set(),
    storeDownToldAt: new Map(),
  };
}
