/**
 * The tracker's Redis layout: one compact hash per order (a listpack), the sweep's due set as the
 * list of pending orders, and orders stored by the previous layout (order and state JSON fields,
 * the timeline in a list) still read, saved, resumed and finished.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { initialTrackingState, type TrackingState } from '../../src/tracker/store/state.js';
import { createRedisTrackerStore } from '../../src/tracker/store/store.js';
import { timelineKey } from '../../src/tracker/store/timeline.js';
import { createOnramp, type Env, recordingNotifier, setupEnv, textIds, waitFor } from './helpers.js';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const pending = (): TrackingState => ({ ...initialTrackingState(), status: 'PENDING', polls: 3 });

describe('the compact order record', () => {
  it('is one listpack hash holding the order, its state and its timeline, and reads back equal', async () => {
    env = await setupEnv();
    const store = createRedisTrackerStore({ client: env.redis, prefix: env.prefix });
    const order = { ...(await createOnramp(env.ramp, '254712300041')), paidKes: 105.5, tokenAmount: '0.77' };
    const state = { ...pending(), nextDueAt: Date.now() + 5_000, lastError: 'timeout' };
    expect(await store.addOrder(order, state)).toBe(true);
    expect(await store.addOrder(order, initialTrackingState())).toBe(false);
    await store.appendEvent(order.orderId, { kind: 'created', at: 1 });
    await store.setPosted(order.orderId, 'pending');

    const key = `${env.prefix}order:${order.orderId}`;
    expect(await env.redis.objectEncoding(key)).toBe('listpack');
    expect(await env.redis.keys(`${env.prefix}order:*`)).toEqual([key]);
    expect(await store.load(order.orderId)).toEqual({ order, state, rev: 0, posted: 'pending' });

    const next = { ...state, errorStreak: 0, lastError: undefined, polls: 4 };
    expect(await store.saveState(order.orderId, next, 0)).toBe(1);
    expect(await store.saveState(order.orderId, next, 0)).toBeUndefined();
    const { lastError: _gone, ...saved } = next;
    expect((await store.load(order.orderId))?.state).toEqual(saved);
    expect(await store.timeline(order.orderId)).toEqual([{ kind: 'created', at: 1 }]);
  });

  it('lists a new order in the due set only, resumes and counts it from there', async () => {
    env = await setupEnv();
    const store = createRedisTrackerStore({ client: env.redis, prefix: env.prefix });
    const order = await createOnramp(env.ramp, '254712300042');
    const dueAt = Date.now() + 1_000;
    await store.addOrder(order, { ...initialTrackingState(), nextDueAt: dueAt });
    expect(await env.redis.zScore(`${env.prefix}due`, order.orderId)).toBe(dueAt);
    expect(await env.redis.exists(`${env.prefix}tracking`)).toBe(0);
    expect(await store.trackingIds()).toEqual([order.orderId]);
    expect(await store.countTracking()).toBe(1);
    await store.completeFinal(order.orderId, 60_000);
    expect(await store.trackingIds()).toEqual([]);
    expect(await store.countTracking()).toBe(0);
  });
});

describe('an order stored by the previous layout', () => {
  async function storeLegacy(e: Env, phone: string) {
    const order = await createOnramp(e.ramp, phone);
    const key = `${e.prefix}order:${order.orderId}`;
    await e.redis.hSet(key, {
      order: JSON.stringify(order),
      state: JSON.stringify(pending()),
      rev: '2',
      posted: 'pending',
    });
    await e.redis.rPush(timelineKey(e.prefix, order.orderId), [
      JSON.stringify({ kind: 'created', at: 1 }),
      JSON.stringify({ kind: 'status', status: 'PENDING', at: 2 }),
    ]);
    await e.redis.sAdd(`${e.prefix}tracking`, order.orderId);
    return { order, key };
  }

  it('still loads, saves in its own form, extends its timeline once and finishes with its list', async () => {
    env = await setupEnv();
    const store = createRedisTrackerStore({ client: env.redis, prefix: env.prefix });
    const { order, key } = await storeLegacy(env, '254712300043');
    expect(await store.load(order.orderId)).toEqual({ order, state: pending(), rev: 2, posted: 'pending' });

    const next = { ...pending(), polls: 4 };
    expect(await store.saveState(order.orderId, next, 2)).toBe(3);
    expect(JSON.parse((await env.redis.hGet(key, 'state')) ?? '')).toEqual(next);
    expect((await store.load(order.orderId))?.state).toEqual(next);

    await store.appendEvent(order.orderId, { kind: 'status', status: 'PENDING', at: 3 }); // a repeat
    await store.appendEvent(order.orderId, { kind: 'status', status: 'SUCCESS', at: 4 });
    expect((await store.timeline(order.orderId)).map((e) => e.at)).toEqual([1, 2, 4]);

    expect(await store.trackingIds()).toEqual([order.orderId]);
    await store.completeFinal(order.orderId, 60_000);
    expect(await env.redis.pTTL(key)).toBeGreaterThan(0);
    expect(await env.redis.pTTL(timelineKey(env.prefix, order.orderId))).toBeGreaterThan(0);
    expect(await store.trackingIds()).toEqual([]);
  });

  it('is resumed from the tracking set and followed to its one final message', async () => {
    env = await setupEnv();
    const { order } = await storeLegacy(env, '254712300044');
    const notifier = recordingNotifier();
    const tracker = env.tracker({ notifier });
    await tracker.start();
    await waitFor('the final message', () => notifier.finals(order.orderId).length > 0, 10_000);
    expect(textIds(notifier.finals(order.orderId)[0]!.message)).toContain('tracker-onramp-done');
    expect(env.sandbox.depositCallCount(order.orderId)).toBe(1);
    expect((await tracker.timeline(order.orderId)).map((e) => e.kind)).toEqual([
      'created',
      'status',
      'status',
      'deposit_intent',
      'deposit_sent',
      'final',
    ]);
  });
});
