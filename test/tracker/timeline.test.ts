/**
 * The order's timeline: the tracker records what it saw and did for each order (Redis list next to
 * the order, expiring with it; in memory in local mode), against the sandbox over HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EscalationCase, OrderEvent } from '../../src/tracker/index.js';
import { readOrderTimeline, TIMELINE_MAX, timelineKey } from '../../src/tracker/index.js';
import { initialTrackingState } from '../../src/tracker/store/state.js';
import { createRedisTrackerStore } from '../../src/tracker/store/store.js';
import { waitFor } from '../helpers/wait.js';
import {
  createOnramp,
  type Env,
  followToFinal,
  leaveDepositIntent,
  releaseBehindTracker,
  setupEnv,
} from './helpers.js';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

/** An event as compared here: everything but the time. */
const shape = <E extends { at: number }>({ at: _at, ...rest }: E): Omit<E, 'at'> => rest;

describe('the order timeline', () => {
  it('records a paid on-ramp order from creation to the final message, once each, expiring with the order', async () => {
    env = await setupEnv({ settleMs: 600 }); // long enough to be seen pending first
    const started = Date.now();
    const { tracker, order, final } = await followToFinal(env, (ramp) => createOnramp(ramp, '254712300031'));
    const hash = String(final.message.texts.find((t) => t.id === 'tracker-tx-hash')?.args?.hash);
    const receipt = String(final.message.texts[0]!.args?.receipt);

    const timeline = await readOrderTimeline(env.redis, env.prefix, order.orderId);
    expect(timeline.map(shape)).toEqual([
      { kind: 'created' },
      { kind: 'status', status: 'PENDING' },
      { kind: 'status', status: 'SUCCESS', receipt },
      { kind: 'deposit_intent' },
      { kind: 'deposit_sent', hash },
      { kind: 'final', outcome: 'success' },
    ]);
    const times = timeline.map((e) => e.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times[0]).toBeGreaterThanOrEqual(started);
    expect(JSON.stringify(timeline)).not.toContain('254712300031');
    expect(await tracker.timeline(order.orderId)).toEqual(timeline);

    // The timeline is kept in the order's hash, so it expires with the finished order.
    const orderTtl = await env.redis.pTTL(`${env.prefix}order:${order.orderId}`);
    expect(orderTtl).toBeGreaterThan(0);
    expect(await env.redis.hExists(`${env.prefix}order:${order.orderId}`, 'ev:1')).toBe(1);
    expect(await env.redis.exists(timelineKey(env.prefix, order.orderId))).toBe(0);

    // Polling a finished order again adds nothing.
    await tracker.pollOnce(order.orderId);
    expect(await tracker.timeline(order.orderId)).toEqual(timeline);
  });

  it('records why a payment failed, as a code, and the final message', async () => {
    env = await setupEnv({ settleMs: 600 });
    const { tracker, order } = await followToFinal(env, (ramp) => createOnramp(ramp, '254712300001'));
    expect((await tracker.timeline(order.orderId)).map(shape)).toEqual([
      { kind: 'created' },
      { kind: 'status', status: 'PENDING' },
      { kind: 'status', status: 'FAILED', reason: 'insufficient-balance' },
      { kind: 'final', outcome: 'failed' },
    ]);
  });

  it('records the escalation of an order past its horizon before support is told', async () => {
    env = await setupEnv();
    let seenBySupport: OrderEvent[] = [];
    const cases: EscalationCase[] = [];
    const { tracker, order } = await followToFinal(env, (ramp) => createOnramp(ramp, '254712300002'), {
      config: { onrampHorizonMs: 300 },
      onEscalate: async (c) => {
        // Read first, then counted: the test waits on `cases`, so the read must be done by then.
        seenBySupport = await readOrderTimeline(env!.redis, env!.prefix, c.order.orderId);
        cases.push(c);
      },
    });
    // Support is alerted just after the user's final message.
    await waitFor('the escalation', () => cases.length > 0);
    expect(cases).toHaveLength(1);
    expect(seenBySupport.map(shape).at(-1)).toEqual({
      kind: 'escalated',
      reason: 'horizon',
    });
    // The final event is noted once the user is told and support is alerted, just after the message.
    await waitFor('the final event', async () =>
      (await tracker.timeline(order.orderId)).some((e) => e.kind === 'final'),
    );
    expect((await tracker.timeline(order.orderId)).map(shape)).toEqual([
      { kind: 'created' },
      { kind: 'status', status: 'PENDING' },
      { kind: 'escalated', reason: 'horizon' },
      { kind: 'final', outcome: 'escalated' },
    ]);
  });

  it('records a release whose answer was lost as unknown, then reconciled with the hash', async () => {
    env = await setupEnv();
    const e = env;
    const order = await createOnramp(e.ramp, '254712300033');
    // A worker wrote its intent, the release went through, and the worker died before the hash.
    const released = await releaseBehindTracker(e, order);
    await leaveDepositIntent(e, order.orderId, Date.now() - 60_000);
    const { tracker } = await followToFinal(e, async () => order);
    const kinds = (await tracker.timeline(order.orderId)).map(shape);
    expect(kinds).toContainEqual({ kind: 'reconciled', hash: released.hash });
    expect(kinds.some((k) => k.kind === 'deposit_intent' || k.kind === 'deposit_sent')).toBe(false);
    expect(kinds.at(-1)).toEqual({ kind: 'final', outcome: 'success' });
    expect(e.sandbox.depositCallCount(order.orderId)).toBe(1);
  });

  it('is kept in memory in local mode, with nothing in Redis', async () => {
    env = await setupEnv({ redis: false, settleMs: 600 });
    const { tracker, order, final } = await followToFinal(env, (ramp) => createOnramp(ramp, '254712300034'));
    const hash = String(final.message.texts.find((t) => t.id === 'tracker-tx-hash')?.args?.hash);
    expect((await tracker.timeline(order.orderId)).map(shape)).toEqual([
      { kind: 'created' },
      { kind: 'status', status: 'PENDING' },
      { kind: 'status', status: 'SUCCESS', receipt: final.message.texts[0]!.args?.receipt },
      { kind: 'deposit_intent' },
      { kind: 'deposit_sent', hash },
      { kind: 'final', outcome: 'success' },
    ]);
    expect(await env.redis.keys(`${env.prefix}*`)).toEqual([]);
  });
});

describe('the timeline store', () => {
  it('keeps the newest entries, adds a once-only event once, and ignores unknown orders', async () => {
    env = await setupEnv();
    const store = createRedisTrackerStore({ client: env.redis, prefix: env.prefix });
    const order = await createOnramp(env.ramp, '254712300035');
    await store.appendEvent('unknown-order', { kind: 'created', at: 1 });
    expect(await env.redis.exists(timelineKey(env.prefix, 'unknown-order'))).toBe(0);

    await store.addOrder(order, initialTrackingState());
    await store.appendEvent(order.orderId, { kind: 'status', status: 'PENDING', at: 1 });
    await store.appendEvent(order.orderId, { kind: 'status', status: 'PENDING', at: 2 });
    expect(await store.timeline(order.orderId)).toEqual([{ kind: 'status', status: 'PENDING', at: 1 }]);
    for (let i = 0; i < TIMELINE_MAX + 5; i++)
      await store.appendEvent(order.orderId, { kind: 'deposit_refused', reason: `r${i}`, at: 10 + i });
    const timeline = await store.timeline(order.orderId);
    expect(timeline).toHaveLength(TIMELINE_MAX);
    expect(timeline[0]).toEqual({ kind: 'deposit_refused', reason: 'r5', at: 15 });
    expect(timeline.at(-1)).toEqual({
      kind: 'deposit_refused',
      reason: `r${TIMELINE_MAX + 4}`,
      at: TIMELINE_MAX + 14,
    });
    expect(timeline.filter((e) => e.kind === 'status')).toHaveLength(0); // trimmed as the oldest

    // A foreign entry in the list is left out when read, not fatal.
    await env.redis.rPush(timelineKey(env.prefix, order.orderId), ['not json', '{"kind":"nope","at":1}']);
    expect(await store.timeline(order.orderId)).toHaveLength(TIMELINE_MAX);
  });
});
