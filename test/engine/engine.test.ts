import { describe, expect, it } from 'vitest';
import type { UserRef } from '../../src/chat/types.js';
import type { Quote } from '../../src/domain/types.js';
import { createConversationEngine, type Engine, type FlowModule } from '../../src/engine/index.js';
import { createLogger } from '../../src/log/logger.js';
import { RampServerError, RampTimeoutError, RampValidationError } from '../../src/ramp/errors.js';
import type { RampClient } from '../../src/ramp/types.js';
import { createMemoryStore, decodeSession, encodeSession, type SessionStore } from '../../src/store/index.js';
import type { OrderTracker } from '../../src/tracker/types.js';
import { type CounterSession, counterFlow, recordingChannel } from './fixtures.js';

const logger = createLogger({ level: 'silent' });
const user: UserRef = { channel: 'terminal', id: 'u' };

const quote: Quote = {
  type: 'onramp',
  network: 'polygon',
  inputAmount: '500',
  inputCurrency: 'KES',
  outputAmount: '3.8',
  outputCurrency: 'USDT',
  exchangeRate: 129.5,
  fee: { amount: '0.05', kes: 6 },
  receivedAt: new Date(0).toISOString(),
};

/** Answers what each test scripts; records the calls. Only for engine mechanics (ordering, mapping). */
function scriptedRamp(over: Partial<RampClient> = {}) {
  const calls: string[] = [];
  const ramp = new Proxy({} as RampClient, {
    get(_t, prop: string) {
      return async (...args: unknown[]) => {
        calls.push(prop);
        const f = (over as Record<string, (...a: unknown[]) => unknown>)[prop];
        if (!f) throw new Error(`unexpected ramp call ${prop}`);
        return f(...args);
      };
    },
  });
  return { ramp, calls };
}

function setup(
  opts: {
    ramp?: RampClient;
    store?: SessionStore;
    tracker?: OrderTracker;
    flow?: FlowModule<CounterSession>;
  } = {},
) {
  const channel = recordingChannel();
  const store = opts.store ?? createMemoryStore({ flowTtlSeconds: 600 });
  const engine: Engine = createConversationEngine({
    store,
    ramp: opts.ramp ?? scriptedRamp().ramp,
    tracker: opts.tracker,
    logger,
    config: { rateTolerancePct: 1, project: 'test' },
    flow: opts.flow ?? counterFlow,
    channels: [channel],
    now: () => 1_700_000_000_000,
  });
  const session = async () => decodeSession(counterFlow, await store.load('terminal:u')).session;
  return { engine, channel, store, session };
}

describe('engine', () => {
  it('carries out effects in order and feeds a result back as the next input', async () => {
    const { ramp, calls } = scriptedRamp({ getQuote: async () => quote });
    const { engine, channel, session } = setup({ ramp });
    await engine.handle(user, { kind: 'text', text: 'quote' });
    expect(calls).toEqual(['getQuote']);
    expect(channel.ids()).toEqual(['t-asking', 't-after-fetch', 't-quote']);
    expect(channel.sent.at(-1)?.message.texts[0]?.args).toEqual({ rate: 129.5 });
    expect((await session()).seen).toEqual(['quote', 'quote']);
  });

  it('maps a ramp error to effectFailed with its kind, networks and purpose', async () => {
    const { ramp } = scriptedRamp({
      getQuote: async () => {
        throw new RampValidationError('Unsupported network', { supportedNetworks: ['Polygon', 'Base'] });
      },
    });
    const seen: unknown[] = [];
    const { engine, channel } = setup({
      ramp,
      flow: {
        ...counterFlow,
        transition: (s, input, ctx) => {
          seen.push(input);
          return counterFlow.transition(s, input, ctx);
        },
      },
    });
    await engine.handle(user, { kind: 'text', text: 'quote' });
    expect(seen[1]).toEqual({
      kind: 'effectFailed',
      effect: 'fetchQuote',
      purpose: 'buy',
      error: {
        kind: 'validation',
        message: 'Unsupported network',
        supportedNetworks: ['Polygon', 'Base'],
        refusal: { code: 'unsupported_network' },
      },
    });
    expect(channel.sent.at(-1)?.message.texts[0]).toEqual({
      id: 't-failed',
      args: { kind: 'validation', purpose: 'buy' },
    });
  });

  it('maps a non-ramp error to an internal effectFailed without its message', async () => {
    const { ramp } = scriptedRamp({
      getQuote: async () => {
        throw new Error('secret-ish internals');
      },
    });
    const { engine, channel } = setup({ ramp });
    await engine.handle(user, { kind: 'text', text: 'quote' });
    expect(channel.sent.at(-1)?.message.texts[0]?.args).toEqual({ kind: 'internal', purpose: 'buy' });
    expect(JSON.stringify(channel.sent)).not.toContain('secret-ish');
  });

  it('ignores a redelivered update id', async () => {
    const { engine, session } = setup();
    await engine.handle(user, { kind: 'text', text: 'inc' }, { updateId: '100' });
    await engine.handle(user, { kind: 'text', text: 'inc' }, { updateId: '100' });
    await engine.handle(user, { kind: 'text', text: 'inc' }, { updateId: '101' });
    expect((await session()).count).toBe(2);
  });

  it('sends notifications in the language of the session', async () => {
    const { engine, channel } = setup();
    await engine.notify(user, { texts: [{ id: 'n1' }] });
    await engine.handle(user, { kind: 'command', command: 'lang', args: 'sw' });
    await engine.notify(user, { texts: [{ id: 'n2' }] });
    const notes = channel.sent.filter((s) => s.message.texts[0]?.id.startsWith('n'));
    expect(notes.map((n) => n.locale)).toEqual(['en', 'sw']);
    expect(channel.sent.find((s) => s.message.texts[0]?.id === 't-lang')?.locale).toBe('sw');
  });

  it('starts a new user from the channel hints', async () => {
    const { engine, session, channel } = setup();
    await engine.handle(
      user,
      { kind: 'text', text: 'hi' },
      { hints: { locale: 'sw', phone: '254712345678' } },
    );
    expect((await session()).profile.phone).toBe('254712345678');
    expect(channel.sent[0]?.locale).toBe('sw');
  });

  it('resets corrupt state with an apology, keeping the profile, and still handles the input', async () => {
    const { engine, channel, store, session } = setup();
    await engine.handle(user, { kind: 'command', command: 'phone', args: '254712345678' });
    const rec = await store.load('terminal:u');
    const parts = encodeSession(decodeSession(counterFlow, rec).session);
    await store.save('terminal:u', rec.rev, { base: parts.base, flow: '{"count":"x"' });
    await engine.handle(user, { kind: 'text', text: 'inc' });
    expect(channel.ids()).toEqual(['core-state-reset']);
    const s = await session();
    expect(s.count).toBe(1);
    expect(s.profile.phone).toBe('254712345678');
  });

  it('survives a flow that throws and tells the user', async () => {
    const { engine, channel, session } = setup();
    await engine.handle(user, { kind: 'text', text: 'boom' });
    expect(channel.ids()).toEqual(['engine-internal-error']);
    await engine.handle(user, { kind: 'text', text: 'inc' });
    expect((await session()).count).toBe(1);
  });

  it('runs registered effects and bounds a feedback loop', async () => {
    const { engine, channel, session } = setup();
    let runs = 0;
    engine.registerEffect<{ type: 'echo'; text: string }>('echo', async (e) => {
      runs++;
      return { kind: 'text', text: e.text };
    });
    expect(() => engine.registerEffect('echo', async () => undefined)).toThrow(/already registered/);
    expect(() => engine.registerEffect('fetchQuote', async () => undefined)).toThrow(/already registered/);
    await engine.handle(user, { kind: 'text', text: 'loop' });
    expect(runs).toBe(20);
    expect(channel.ids()).toEqual(['engine-internal-error']);
    expect((await session()).seen).toHaveLength(20);
  });

  it('reports an effect type nobody handles as an internal failure', async () => {
    const { engine, channel } = setup();
    await engine.handle(user, { kind: 'text', text: 'loop' });
    expect(channel.sent.at(-1)?.message.texts[0]?.args).toEqual({ kind: 'internal', purpose: '-' });
  });

  it('serialises one user in arrival order', async () => {
    const order: string[] = [];
    const { ramp } = scriptedRamp({
      getQuote: async () => {
        await new Promise((r) => setTimeout(r, 20));
        order.push('quote-done');
        return quote;
      },
    });
    const { engine, session } = setup({ ramp });
    await Promise.all([
      engine.handle(user, { kind: 'text', text: 'quote' }),
      engine.handle(user, { kind: 'text', text: 'inc' }),
    ]);
    expect((await session()).seen).toEqual(['quote', 'quote', 'inc']);
    expect(order).toEqual(['quote-done']);
  });
});

describe('createOnrampOrder', () => {
  const tracked: unknown[] = [];
  const tracker: OrderTracker = {
    track: async (o) => {
      tracked.push(o);
    },
    ordersOf: async () => ({ orders: [], page: 1, totalPages: 0 }),
    ownerOf: async () => undefined,
    start: async () => {},
    stop: async () => {},
  };

  it('creates the order, records it, tracks it and feeds onrampCreated', async () => {
    tracked.length = 0;
    const { ramp, calls } = scriptedRamp({ createOnrampOrder: async () => ({ orderId: 'D-1' }) });
    const { engine, channel, store, session } = setup({ ramp, tracker });
    await engine.handle(user, { kind: 'button', id: 'confirm' });
    expect(calls).toEqual(['createOnrampOrder']);
    expect(channel.sent.at(-1)?.message.texts[0]).toEqual({ id: 't-created', args: { orderId: 'D-1' } });
    expect((await session()).step).toBe('created');
    expect(tracked).toEqual([
      expect.objectContaining({
        orderId: 'D-1',
        createdAt: 1_700_000_000_000,
        side: 'onramp',
        amountKes: 500,
      }),
    ]);
    expect(await store.claimIdempotencyKey('k-0')).toMatchObject({ status: 'created', orderId: 'D-1' });
  });

  it('never calls the ramp again for a key already used, even from a fresh flow state', async () => {
    const { ramp, calls } = scriptedRamp({ createOnrampOrder: async () => ({ orderId: 'D-2' }) });
    const store = createMemoryStore({ flowTtlSeconds: 600 });
    const first = setup({ ramp, store });
    await first.engine.handle(user, { kind: 'button', id: 'confirm' });
    // another process whose user lost the flow state taps confirm again with the same key
    const rec = await store.load('terminal:u');
    await store.save('terminal:u', rec.rev, encodeSession(counterFlow.initial()));
    const second = setup({ ramp, store });
    await second.engine.handle(user, { kind: 'button', id: 'confirm' });
    expect(calls).toEqual(['createOnrampOrder']);
    expect(second.channel.sent.at(-1)?.message.texts[0]).toEqual({
      id: 't-created',
      args: { orderId: 'D-2' },
    });
  });

  it('does not call the ramp when an earlier attempt crashed mid-way, and tells the user', async () => {
    const { ramp, calls } = scriptedRamp({ createOnrampOrder: async () => ({ orderId: 'D-3' }) });
    const store = createMemoryStore({ flowTtlSeconds: 600 });
    expect(await store.claimIdempotencyKey('k-0')).toEqual({ status: 'claimed' }); // the crashed attempt
    const { engine, channel } = setup({ ramp, store });
    await engine.handle(user, { kind: 'button', id: 'confirm' });
    expect(calls).toEqual([]);
    expect(channel.ids()).toEqual(['engine-order-in-flight']);
  });

  it('keeps the key after an uncertain failure and frees it after a refusal', async () => {
    const timeout = scriptedRamp({
      createOnrampOrder: async () => {
        throw new RampTimeoutError('no answer in 15 s');
      },
    });
    const a = setup({ ramp: timeout.ramp });
    await a.engine.handle(user, { kind: 'button', id: 'confirm' });
    expect(a.channel.sent.at(-1)?.message.texts[0]?.args).toEqual({ kind: 'timeout', purpose: '-' });
    await a.engine.handle(user, { kind: 'button', id: 'confirm' });
    expect(timeout.calls).toEqual(['createOnrampOrder']);

    const refused = scriptedRamp({
      createOnrampOrder: async () => {
        throw new RampValidationError('Invalid phone number');
      },
    });
    const b = setup({ ramp: refused.ramp });
    await b.engine.handle(user, { kind: 'button', id: 'confirm' });
    await b.engine.handle(user, { kind: 'button', id: 'confirm' });
    expect(refused.calls).toEqual(['createOnrampOrder', 'createOnrampOrder']);
  });

  it('turns a server error into effectFailed and keeps serving the user', async () => {
    const { ramp } = scriptedRamp({
      createOnrampOrder: async () => {
        throw new RampServerError('HTTP 502');
      },
    });
    const { engine, channel, session } = setup({ ramp });
    await engine.handle(user, { kind: 'button', id: 'confirm' });
    expect(channel.sent.at(-1)?.message.texts[0]?.args).toEqual({ kind: 'server', purpose: '-' });
    expect((await session()).step).toBe('idle');
  });
});

describe('Redis lost between taking an update and starting on it', () => {
  it('rejects with StoreUnavailableError, tells the user, and handles the redelivery once Redis is back', async () => {
    const inner = createMemoryStore({ flowTtlSeconds: 600 });
    let down = false;
    const store: SessionStore = new Proxy(inner, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (prop !== 'begin' || typeof value !== 'function')
          return typeof value === 'function' ? value.bind(target) : value;
        return async (...args: unknown[]) => {
          if (down) {
            const err = new Error('The client is closed');
            err.name = 'ClientClosedError';
            throw err;
          }
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const { engine, channel } = setup({ store });
    down = true;
    await expect(engine.handle(user, { kind: 'text', text: 'hello' }, { updateId: '9001' })).rejects.toThrow(
      /cannot be reached/,
    );
    expect(channel.ids()).toEqual(['engine-store-down']);
    down = false;
    await engine.handle(user, { kind: 'text', text: 'hello' }, { updateId: '9001' });
    expect(channel.ids()).toEqual(['engine-store-down', 't-echo']);
    await engine.handle(user, { kind: 'text', text: 'hello' }, { updateId: '9001' });
    expect(channel.ids()).toEqual(['engine-store-down', 't-echo']);
  });
});
