/**
 * The conversation engine: runs the pure flow transition against the persisted session, saves the
 * new state with compare-and-set BEFORE carrying out any effect, then carries out the effects in
 * order and feeds their results back through the same load-transition-save loop.
 */
import type { ChannelAdapter, ChatScratch, Conversation } from '../channels/types.js';
import type { Locale, OutMessage, UserRef } from '../chat/types.js';
import { userKey } from '../chat/types.js';
import { mayHaveReachedService } from '../flows/failures.js';
import type { Effect, EffectError, FlowContext, Input, SessionBase, Transition } from '../flows/types.js';
import { DEFAULT_STK_LIMITS, type Limiter, type StkLimits, stkLimits } from '../limits/index.js';
import type { Logger } from '../log/logger.js';
import type { RampClient } from '../ramp/types.js';
import type { OrderJournal } from '../recovery/index.js';
import { isStoreUnavailable, StoreUnavailableError } from '../store/errors.js';
import {
  decodeSession,
  encodeSession,
  type SessionHints,
  type SessionModel,
} from '../store/session-codec.js';
import type { BegunUpdate, SessionStore, StoredSession } from '../store/types.js';
import type { Notifier, OrderTracker } from '../tracker/types.js';
import { effectFailed, SaveConflictError, surelyNotActedOn, toEffectError } from './errors.js';
import { KeyedMutex } from './lock.js';
import { errSummary, loggableUser } from './loggable.js';
import type { PendingStkClaim } from './pending-claim.js';

export { errSummary, loggableUser } from './loggable.js';

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

const textMessage = (id: string): OutMessage => ({ texts: [{ id }] });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Creates the engine for a given flow module (see `./index.ts` for the production flows). */
export function createConversationEngine<S extends SessionBase>(deps: EngineDeps<S>): Engine {
  const { store, ramp, tracker, logger, flow } = deps;
  const now = deps.now ?? Date.now;
  const maxSteps = deps.maxSteps ?? 20;
  const maxSaveAttempts = deps.maxSaveAttempts ?? 50;
  const channels = new Map<string, ChannelAdapter>();
  for (const c of deps.channels ?? []) channels.set(c.name, c);
  const handlers = new Map<string, EffectHandler>();
  const mutex = new KeyedMutex();
  const pending = new Set<Promise<void>>();
  const log = logger.child({ component: 'engine' });

  async function deliver(
    user: UserRef,
    message: OutMessage,
    locale: Locale,
    scratch?: ChatScratch,
  ): Promise<void> {
    const channel = channels.get(user.channel);
    if (!channel) {
      log.error({ user: loggableUser(user) }, `no channel adapter registered for ${user.channel}`);
      return;
    }
    try {
      await channel.send(user.id, message, locale, scratch);
    } catch (err) {
      log.error({ user: loggableUser(user), err: errSummary(err) }, 'sending a message failed');
    }
  }

  /** "Try again in a moment", at most once a minute per user (a webhook redelivers several times). */
  const storeDownToldAt = new Map<string, number>();
  async function tellStoreDown(user: UserRef, locale: Locale): Promise<void> {
    const key = userKey(user);
    const t = now();
    if ((storeDownToldAt.get(key) ?? 0) > t - 60_000) return;
    storeDownToldAt.set(key, t);
    if (storeDownToldAt.size > 10_000) storeDownToldAt.clear();
    await deliver(user, textMessage(ENGINE_TEXTS.storeDown), locale);
  }

  function context(user: UserRef, session: S, scratch?: ChatScratch): EffectContext {
    return {
      user,
      session,
      ramp,
      tracker,
      store,
      logger: log,
      now,
      ...(deps.limiter
        ? { limits: { limiter: deps.limiter, stk: deps.stkLimits ?? DEFAULT_STK_LIMITS } }
        : {}),
      ...(deps.journal ? { journal: deps.journal } : {}),
      send: (message) => deliver(user, message, session.locale, scratch),
    };
  }

  /** Load, transition, compare-and-set; retried on conflict with the freshly loaded state. */
  async function apply(
    user: UserRef,
    input: Input,
    hints: SessionHints | undefined,
    loaded?: StoredSession,
  ): Promise<{ session: S; effects: Effect[] }> {
    const key = userKey(user);
    const ctx: FlowContext = { now: now(), user, config: deps.config };
    for (let attempt = 1; attempt <= maxSaveAttempts; attempt++) {
      // The first attempt uses the session `begin` loaded; a conflict reloads it.
      const stored = attempt === 1 && loaded ? loaded : await store.load(key);
      const decoded = decodeSession(flow, stored, hints);
      ctx.now = now();
      const step = flow.transition(decoded.session, input, ctx);
      const rev = await store.save(key, stored.rev, encodeSession(step.state));
      if (rev === undefined) {
        if (attempt > 2) await sleep(Math.random() * Math.min(50, attempt * 2));
        continue;
      }
      if (!decoded.reset) return { session: step.state, effects: step.effects };
      log.warn({ user: loggableUser(user), reason: decoded.resetReason }, 'stored session was reset');
      return {
        session: step.state,
        effects: [{ type: 'send', message: textMessage(ENGINE_TEXTS.stateReset) }, ...step.effects],
      };
    }
    throw new SaveConflictError(maxSaveAttempts);
  }

  async function perform(
    user: UserRef,
    session: S,
    effect: Effect,
    scratch?: ChatScratch,
  ): Promise<Input | undefined> {
    if (effect.type === 'send') {
      await deliver(user, effect.message, session.locale, scratch);
      return undefined;
    }
    const handler = handlers.get(effect.type);
    if (!handler) {
      log.error({ user: loggableUser(user), effect: effect.type }, 'no handler for this effect type');
      return effectFailed(effect.type, { kind: 'internal', message: `no handler for ${effect.type}` });
    }
    try {
      return (await handler(effect, context(user, session, scratch))) ?? undefined;
    } catch (err) {
      log.warn({ user: loggableUser(user), effect: effect.type, err: errSummary(err) }, 'effect failed');
      const purpose = 'purpose' in effect && typeof effect.purpose === 'string' ? effect.purpose : undefined;
      return effectFailed(effect.type, toEffectError(err), purpose);
    }
  }

  async function run(
    user: UserRef,
    first: Input,
    hints: SessionHints | undefined,
    loaded?: StoredSession,
    scratch?: ChatScratch,
  ): Promise<void> {
    let steps = 0;
    let preloaded = loaded;
    let locale: Locale = hints?.locale ?? 'en';
    const feed = async (input: Input): Promise<void> => {
      if (++steps > maxSteps) {
        if (steps === maxSteps + 1) {
          log.error(
            { user: loggableUser(user), input: input.kind },
            `more than ${maxSteps} steps for one input`,
          );
          await deliver(user, textMessage(ENGINE_TEXTS.internalError), locale, scratch);
        }
        return;
      }
      const { session, effects } = await apply(user, input, hints, preloaded);
      preloaded = undefined;
      locale = session.locale;
      const results: Input[] = [];
      for (const effect of effects) {
        const result = await perform(user, session, effect, scratch);
        if (result) results.push(result);
      }
      for (const result of results) await feed(result);
    };
    try {
      await feed(first);
    } catch (err) {
      if (isStoreUnavailable(err)) {
        log.warn(
          { user: loggableUser(user), input: first.kind, err: errSummary(err) },
          'Redis went down mid-input',
        );
        await tellStoreDown(user, locale);
        return;
      }
      const busy = err instanceof SaveConflictError;
      log.error({ user: loggableUser(user), input: first.kind, err: errSummary(err) }, 'input not handled');
      await deliver(
        user,
        textMessage(busy ? ENGINE_TEXTS.busy : ENGINE_TEXTS.internalError),
        locale,
        scratch,
      );
    }
  }

  const engine: Engine = {
    registerChannel(adapter) {
      channels.set(adapter.name, adapter);
    },

    registerEffect(type, handler) {
      if (type === 'send' || handlers.has(type))
        throw new Error(`an effect handler for "${type}" is already registered`);
      handlers.set(type, handler as EffectHandler);
    },

    async handle(user, input, opts) {
      const work = (async () => {
        const updateKey = opts?.updateId ? `${user.channel}:${opts.updateId}` : undefined;
        try {
          await mutex.run(userKey(user), async () => {
            // One round trip: the chat's lock (across replicas: one chat's updates one at a time; the
            // in-process mutex keeps their order here), the update's de-duplication, and the session.
            let begun: BegunUpdate;
            try {
              begun = await store.begin(userKey(user), {
                ...(updateKey ? { updateId: updateKey } : {}),
                onTimeout: () =>
                  log.warn({ user: loggableUser(user) }, 'chat lock not acquired in time; going on'),
              });
            } catch (err) {
              // Redis went down between taking the update and starting on it: nothing was done yet.
              if (isStoreUnavailable(err)) throw new StoreUnavailableError(err);
              throw err;
            }
            // Seen before: ignored if it was handled to the end; handled again if its first taker
            // died mid-way (this process now holds the chat's lock, so no one else is on it).
            if (begun.status === 'done') {
              log.debug({ user: loggableUser(user), updateId: opts?.updateId }, 'redelivered update ignored');
              return;
            }
            if (begun.status === 'unfinished')
              log.warn(
                { user: loggableUser(user), updateId: opts?.updateId },
                'an update whose first taker never finished it is handled again',
              );
            const scratch = chatScratch(begun.session.chat);
            let handled = false;
            try {
              if (!opts?.accept || (await opts.accept(scratch)))
                await run(user, input, opts?.hints, begun.session, scratch);
              handled = true;
            } finally {
              await begun.finish({ done: handled, chat: scratch.changed() }).catch((err: unknown) => {
                log.warn({ user: loggableUser(user), err: errSummary(err) }, 'could not finish the update');
              });
            }
          });
        } catch (err) {
          // Nothing of the update was done: the user is asked to try again and the channel leaves it
          // unacknowledged, so a webhook delivery is redelivered once Redis is back.
          if (err instanceof StoreUnavailableError && updateKey) {
            log.warn({ user: loggableUser(user), err: errSummary(err) }, 'Redis is down; update not taken');
            await tellStoreDown(user, opts?.hints?.locale ?? 'en');
            throw err;
          }
          log.error({ user: loggableUser(user), err: errSummary(err) }, 'input not handled');
        }
      })();
      pending.add(work);
      try {
        await work;
      } finally {
        pending.delete(work);
      }
    },

    async orderFinal(user, orderId) {
      await engine.handle(user, { kind: 'orderFinal', orderId });
    },

    async notify(user, message) {
      let locale: Locale = 'en';
      let scratch: ReturnType<typeof chatScratch> | undefined;
      try {
        const stored = await store.load(userKey(user));
        scratch = chatScratch(stored.chat);
        locale = decodeSession(flow, stored).session.locale;
      } catch (err) {
        log.warn({ user: loggableUser(user), err: errSummary(err) }, 'could not read the locale; using en');
      }
      await deliver(user, { ...message, notice: true }, locale, scratch);
      const changed = scratch?.changed();
      if (changed !== undefined)
        await store.saveChat(userKey(user), changed).catch((err: unknown) => {
          log.warn({ user: loggableUser(user), err: errSummary(err) }, 'could not save the chat scratch');
        });
    },

    async idle() {
      while (pending.size) await Promise.allSettled([...pending]);
    },
  };

  registerBuiltInEffects(engine);
  return engine;
}

function registerBuiltInEffects(engine: Engine): void {
  engine.registerEffect<Extract<Effect, { type: 'fetchAssets' }>>('fetchAssets', async (_e, ctx) => ({
    kind: 'assets',
    assets: await ctx.ramp.listAssets(),
  }));

  engine.registerEffect<Extract<Effect, { type: 'fetchQuote' }>>('fetchQuote', async (e, ctx) => ({
    kind: 'quote',
    quote: await ctx.ramp.getQuote(e.request),
    purpose: e.purpose,
  }));

  engine.registerEffect<Extract<Effect, { type: 'fetchHistory' }>>('fetchHistory', async (e, ctx) => ({
    kind: 'history',
    side: e.side,
    page: await ctx.ramp.getHistory(e.side, e.address, { page: e.page }),
  }));

  engine.registerEffect<Extract<Effect, { type: 'fetchOwnOrders' }>>('fetchOwnOrders', async (e, ctx) => {
    if (!ctx.tracker) return { kind: 'ownOrders', page: { orders: [], page: 1, totalPages: 0 } };
    return { kind: 'ownOrders', page: await ctx.tracker.ordersOf(ctx.user, e.page, e.limit) };
  });

  engine.registerEffect<Extract<Effect, { type: 'createTicket' }>>('createTicket', async (e, ctx) => ({
    kind: 'ticketCreated',
    ticket: await ctx.ramp.createTicket(e.request),
  }));

  engine.registerEffect<Extract<Effect, { type: 'createOnrampOrder' }>>(
    'createOnrampOrder',
    createOnrampOrder,
  );
}

/**
 * Sends the STK push at most once per idempotency key, across processes and crashes: the key is
 * claimed in the store first; a key already used answers from its recorded outcome; a key claimed
 * by an attempt that never recorded an outcome (running elsewhere, or crashed mid-call) is NOT sent
 * again: the user is told it is being processed, and the claim reconciler (./reconciler.ts) follows
 * it up from the ramp's history.
 */
async function createOnrampOrder(
  e: Extract<Effect, { type: 'createOnrampOrder' }>,
  ctx: EffectContext,
): Promise<Input | undefined> {
  const key = e.idempotencyKey;
  const log = ctx.logger.child({ user: loggableUser(ctx.user), idempotencyKey: key });
  // Listed with what a reconciler needs if this process dies before the outcome is recorded.
  const pending: PendingStkClaim = { user: ctx.user, request: e.request, track: e.track };
  const claim = await ctx.store.claimIdempotencyKey(key, pending);
  switch (claim.status) {
    case 'created':
      log.info({ orderId: claim.orderId }, 'order already created under this key; not sent again');
      return { kind: 'onrampCreated', orderId: claim.orderId, idempotencyKey: key };
    case 'failed':
      return effectFailed(e.type, claim.error);
    case 'in_flight':
      log.error(
        { since: new Date(claim.since).toISOString() },
        'an earlier attempt with this key has no recorded outcome; not sending again, the reconciler follows it up',
      );
      await ctx.send(textMessage(ENGINE_TEXTS.orderInFlight));
      return undefined;
    case 'claimed':
      break;
  }

  if (e.thirdParty && ctx.limits) {
    const { limiter, stk } = ctx.limits;
    const verdict = await limiter.take(stkLimits(stk, userKey(ctx.user), e.request.phone), ctx.now());
    if (!verdict.ok) {
      // Nothing was sent and nothing counted: the key is free for a later try.
      await ctx.store.releaseIdempotencyKey(key);
      log.warn(
        { limit: verdict.key.split(':')[0] },
        'STK push to a third-party number refused by a rate limit',
      );
      return effectFailed(e.type, {
        kind: 'rate_limited',
        message: 'too many M-Pesa prompts',
        retryInMs: Math.max(0, verdict.retryAt - ctx.now()),
      });
    }
  }

  // Written before the ramp is asked: if Redis comes back empty, the wallet is known to look up.
  await ctx.journal?.intent(e.track);
  let orderId: string;
  try {
    orderId = (await ctx.ramp.createOnrampOrder(e.request)).orderId;
  } catch (err) {
    const error = toEffectError(err);
    try {
      if (surelyNotActedOn(err)) await ctx.store.releaseIdempotencyKey(key);
      else if (!mayHaveReachedService(error) || !(await keepForReconciler(key, pending, error, ctx)))
        await ctx.store.recordIdempotencyOutcome(key, { status: 'failed', error });
    } catch (storeErr) {
      log.error({ err: errSummary(storeErr) }, 'could not record the failed order attempt');
    }
    log.warn({ err: errSummary(err) }, 'creating the on-ramp order failed');
    return effectFailed(e.type, error);
  }

  const createdAt = ctx.now();
  log.info({ orderId }, 'on-ramp order created');
  try {
    await ctx.store.recordIdempotencyOutcome(key, { status: 'created', orderId, createdAt });
  } catch (err) {
    log.error(
      { orderId, err: errSummary(err) },
      'could not record the created order (the key stays in flight)',
    );
  }
  if (ctx.tracker) {
    try {
      await ctx.tracker.track({ ...e.track, orderId, createdAt });
    } catch (err) {
      log.error({ orderId, err: errSummary(err) }, 'could not start tracking the order');
    }
  } else {
    log.warn({ orderId }, 'no tracker configured; the order will not be followed');
  }
  return { kind: 'onrampCreated', orderId, idempotencyKey: key };
}

/**
 * An answer that may hide a created order (5xx, timeout, unreadable body): the claim stays in flight
 * and listed, noted with what was heard, so the claim reconciler looks the order up in the ramp's
 * history like that of a process that died mid-call. False when the claim is no longer listed.
 */
async function keepForReconciler(
  key: string,
  pending: PendingStkClaim,
  error: EffectError,
  ctx: EffectContext,
): Promise<boolean> {
  const heardError = { kind: error.kind, message: (error.message ?? '').slice(0, 200), at: ctx.now() };
  return ctx.store.updatePendingClaim(key, { ...pending, heardError } satisfies PendingStkClaim);
}

/** The chat's scratch over its stored JSON; `changed()` is the JSON to save, or undefined. */
function chatScratch(stored: string | undefined): ChatScratch & { changed(): string | undefined } {
  let values: Record<string, string> = {};
  try {
    const parsed: unknown = stored ? JSON.parse(stored) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      values = Object.fromEntries(
        Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'),
      );
  } catch {
    // Cosmetic state: an unreadable scratch starts empty.
  }
  let dirty = false;
  return {
    get: (name) => values[name],
    set(name, value) {
      if (values[name] === value) return;
      if (value === undefined) delete values[name];
      else values[name] = value;
      dirty = true;
    },
    changed: () => (dirty ? JSON.stringify(values) : undefined),
  };
}
