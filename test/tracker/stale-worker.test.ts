/**
 * Two workers on one order (the first one's lease ran out, e.g. Redis away past it): the slower worker
 * holds a view of the order that is older than what the other one stored. Its save must be
 * dropped and it must not act on that view, so the stored state never goes backwards.
 */

import { afterEach, describe, expect, it } from 'vitest';
import type { RampClient } from '../../src/ramp/types.js';
import type { EscalationCase } from '../../src/tracker/index.js';
import { initialTrackingState } from '../../src/tracker/store/state.js';
import { createMemoryTrackerStore, createRedisTrackerStore } from '../../src/tracker/store/store.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';
import { waitFor } from '../helpers/wait.js';
import { createOnramp, type Env, storedState as readState, recordingNotifier, setupEnv } from './helpers.js';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

/** The real ramp client whose status call waits, once it was asked, until `open()`. */
function heldRamp(ramp: RampClient) {
  let open!: () => void;
  let asked!: () => void;
  const gate = new Promise<void>((r) => {
    open = r;
  });
  const entered = new Promise<void>((r) => {
    asked = r;
  });
  const held: RampClient = {
    ...ramp,
    async getOnrampStatus(id) {
      asked();
      await gate;
      return ramp.getOnrampStatus(id);
    },
  };
  return { ramp: held, open, entered };
}

const storedState = async (e: Env, orderId: string) =>
  // biome-ignore lint/suspicious/noExplicitAny: read as the test's JSON view of the state
  (await readState(e, orderId)) as any;

describe('a worker whose view of the order went stale', () => {
  it('does not put an escalated order back to polling nor tell the user it is still pending', async () => {
    env = await setupEnv();
    const e = env;
    const cases: EscalationCase[] = [];
    const slow = heldRamp(e.ramp);
    const slowNotifier = recordingNotifier();
    const a = e.tracker({
      ramp: slow.ramp,
      notifier: slowNotifier,
      onEscalate: async (c) => void cases.push(c),
    });
    const bNotifier = recordingNotifier();
    const b = e.tracker({
      notifier: bNotifier,
      onEscalate: async (c) => void cases.push(c),
      config: { onrampHorizonMs: 0 },
    });
    const order = await createOnramp(e.ramp, '254733100002');
    await a.track(order);

    const slowPoll = a.pollOnce(order.orderId);
    await slow.entered;
    expect(await b.pollOnce(order.orderId)).toEqual({ done: true });
    expect(bNotifier.finals(order.orderId)).toHaveLength(1);
    slow.open();
    await slowPoll;

    const state = await storedState(e, order.orderId);
    expect(state).toMatchObject({ stage: 'final', final: { outcome: 'escalated' } });
    expect(state.final.raisedAt).toEqual(expect.any(Number));
    expect(slowNotifier.posted).toEqual([]);
    // Support is alerted just after the user's final message.
    await waitFor('the escalation', () => cases.length > 0);
    expect(cases).toHaveLength(1);
  });

  it('does not drop the record that the user was told, so the user hears of the order once', async () => {
    env = await setupEnv();
    const e = env;
    const cases: EscalationCase[] = [];
    let failNext = true;
    const onEscalate = async (c: EscalationCase) => {
      if (failNext) {
        failNext = false;
        throw new Error('support desk unavailable');
      }
      cases.push(c);
    };
    const slow = heldRamp(e.ramp);
    const told = recordingNotifier();
    const a = e.tracker({ ramp: slow.ramp, onEscalate, notifier: told, config: { onrampHorizonMs: 0 } });
    // The fast worker tells the user (the reason first), then cannot reach support this time.
    const b = e.tracker({ onEscalate, notifier: told, config: { onrampHorizonMs: 0 } });
    const order = await createOnramp(e.ramp, '254733200002');
    await a.track(order);

    const slowPoll = a.pollOnce(order.orderId);
    await slow.entered;
    expect(await b.pollOnce(order.orderId)).toHaveProperty('next');
    expect(failNext).toBe(false);
    expect(cases).toHaveLength(0);
    expect(told.finals(order.orderId)).toHaveLength(1);
    const notifiedAt = (await storedState(e, order.orderId)).final.notifiedAt;
    expect(notifiedAt).toEqual(expect.any(Number));

    slow.open();
    await slowPoll;
    expect((await storedState(e, order.orderId)).final.notifiedAt).toBe(notifiedAt);

    expect(await b.pollOnce(order.orderId)).toEqual({ done: true });
    expect(told.finals(order.orderId)).toHaveLength(1);
    // Support is alerted just after the user's final message.
    await waitFor('the escalation', () => cases.length > 0);
    expect(cases).toHaveLength(1);
  });
});

describe.each(['redis', 'memory'] as const)('the %s tracker store', (kind) => {
  it('saves a state only over the revision it was read at', async () => {
    const prefix = uniquePrefix('trkcas');
    const store =
      kind === 'redis'
        ? createRedisTrackerStore({ url: testRedisUrl(), prefix })
        : createMemoryTrackerStore();
    const order = {
      orderId: 'ord-cas',
      side: 'onramp' as const,
      user: { channel: 'terminal' as const, id: 'u' },
      network: 'lisk' as const,
      walletAddress: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
      token: { symbol: 'USDT', address: '0x05D032ac25d322df992303dCa074EE7392C117b9', decimals: 6 },
      amountKes: 500,
      phone: '254700000000',
      createdAt: 1,
    };
    try {
      await store.addOrder(order, initialTrackingState());
      const first = (await store.load(order.orderId))!;
      const second = (await store.load(order.orderId))!;
      const rev = await store.saveState(order.orderId, { ...first.state, polls: 1 }, first.rev);
      expect(rev).toBe(first.rev + 1);
      expect(await store.saveState(order.orderId, { ...second.state, polls: 0 }, second.rev)).toBeUndefined();
      expect((await store.load(order.orderId))!.state.polls).toBe(1);
      expect(await store.saveState('ord-unknown', initialTrackingState(), 0)).toBeUndefined();
      expect(await store.load('ord-unknown')).toBeUndefined();
    } finally {
      await store.close();
      if (kind === 'redis') {
        const redis = await connectTestRedis();
        await flushPrefix(redis, prefix);
        await redis.quit();
      }
    }
  });
});
