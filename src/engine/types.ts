/** The engine's public shapes: what it is built from, what it offers, and what an effect handler gets. */
import type { ChannelAdapter, Conversation } from '../channels/types.js';
import type { OutMessage, UserRef } from '../chat/types.js';
import type { FlowContext, Input, SessionBase, Transition } from '../flows/types.js';
import type { Limiter, StkLimits } from '../limits/index.js';
import type { Logger } from '../log/logger.js';
import type { SendScope } from '../outbound/index.js';
import type { RampClient } from '../ramp/types.js';
import type { OrderJournal } from '../recovery/index.js';
import type { SessionModel } from '../store/session-codec.js';
import type { SessionStore } from '../store/types.js';
import type { Notifier, OrderTracker } from '../tracker/types.js';

/** The flows as the engine runs them: the session model plus the transition. */
export interface FlowModule<S extends SessionBase> extends SessionModel<S> {
  transition: Transition<S>;
}

/** What an effect handler may use. `session` is the state saved by the step that asked for the effect. */
export interface EffectContext<S extends SessionBase = SessionBase> {
  user: UserRef;
  /** Rate limits on costly actions, when configured. */
  limits?: { limiter: Limiter; stk: StkLimits };
  /** The order journal kept outside Redis, when configured. */
  journal?: OrderJournal;
  session: S;
  ramp: RampClient;
  tracker?: OrderTracker;
  store: SessionStore;
  logger: Logger;
  now(): number;
  /** Sends a message to this user in their session's language. */
  send(message: OutMessage): Promise<void>;
}

/**
 * Carries out one effect. The returned input (usually an `EffectResult`) is fed back to the flow;
 * return nothing when there is no result to report. A thrown error becomes `effectFailed`.
 */
export type EffectHandler<E extends { type: string } = { type: string }> = (
  effect: E,
  ctx: EffectContext,
) => Promise<Input | undefined>;

export interface EngineDeps<S extends SessionBase> {
  store: SessionStore;
  ramp: RampClient;
  tracker?: OrderTracker;
  channels?: ChannelAdapter[];
  logger: Logger;
  config: FlowContext['config'];
  flow: FlowModule<S>;
  now?: () => number;
  /** Transitions run for one inbound input, effect feedback included (default 20). */
  maxSteps?: number;
  /** Compare-and-set attempts before an input is given up (default 50). */
  maxSaveAttempts?: number;
  /** Rate limits on STK pushes to third-party numbers (shared through Redis in production). */
  limiter?: Limiter;
  stkLimits?: StkLimits;
  /** Notes each order before the ramp is asked, outside Redis (src/recovery). */
  journal?: OrderJournal;
}

export interface Engine extends Conversation, Notifier {
  orderFinal(user: UserRef, orderId: string): Promise<void>;
  /**
   * Hands an input to the user's flow like `handle`, and says whether what it sent was refused by
   * the platform (the first refusal, as said), so a caller reports what the user really got.
   */
  tellAndReport(user: UserRef, input: Input, scope?: SendScope): Promise<{ refused?: string }>;
  registerChannel(adapter: ChannelAdapter): void;
  /** Adds a handler for an effect type the built-in ones do not cover. Throws if the type is taken. */
  registerEffect<E extends { type: string }>(type: E['type'], handler: EffectHandler<E>): void;
  /** Resolves once every input accepted so far is fully handled. */
  idle(): Promise<void>;
}

/** Texts the engine itself sends (locales/<lang>/engine.ftl, plus `core-state-reset` from the flows). */
export const ENGINE_TEXTS = {
  stateReset: 'core-state-reset',
  internalError: 'engine-internal-error',
  busy: 'engine-busy',
  orderInFlight: 'engine-order-in-flight',
  storeDown: 'engine-store-down',
} as const;

export const textMessage = (id: string): OutMessage => ({ texts: [{ id }] });
