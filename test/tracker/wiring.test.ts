/**
 * The tracker as the app wires it (`trackerConfigFrom` on the validated environment): a deposit call
 * that may still be running within the configured ramp timeout is never taken for a dead worker's.
 * Real sandbox over HTTP, real Redis; the tracker's clock is stepped instead of waiting minutes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { envSchema, parseEnv } from '../../src/config/env.js';
import { createTracker, trackerConfigFrom } from '../../src/tracker/index.js';
import { createOnramp, type Env, recordingNotifier, setupEnv, silentLogger, waitFor } from './helpers.js';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('the tracker wired from the environment', () => {
  it('waits for a deposit intent younger than the ramp timeout allows, then reconciles and escalates', async () => {
    env = await setupEnv({ settleMs: 20 });
    const e = env;
    const config = parseEnv(envSchema, { RAMP_TIMEOUT_MS: '200000' });
    let offset = 0;
    const notifier = recordingNotifier();
    const tracker = createTracker({
      ramp: e.ramp,
      notifier,
      logger: silentLogger(),
      redisUrl: e.redisUrl,
      prefix: e.prefix,
      config: trackerConfigFrom(config),
      now: () => Date.now() + offset,
    });
    e.trackers.push(tracker);
    const order = await createOnramp(e.ramp, '254712345678');
    await waitFor(
      'the payment',
      async () => (await e.ramp.getOnrampStatus(order.orderId)).status === 'SUCCESS',
    );
    await tracker.track(order);
    // Another worker took the deposit guard and is waiting on ramp.deposit (up to RAMP_TIMEOUT_MS).
    await e.redis.set(
      `${e.prefix}deposit:${order.orderId}`,
      JSON.stringify({ state: 'intent', token: 'worker-a-token', worker: 'worker-a', at: Date.now() }),
    );

    offset = 150_000; // still inside worker A's 200 s call
    for (let i = 0; i < 4; i++) expect(await tracker.pollOnce(order.orderId)).toHaveProperty('next');
    const kinds = (await tracker.timeline(order.orderId)).map((ev) => ev.kind);
    expect(kinds).not.toContain('escalated');
    expect(notifier.finals(order.orderId)).toEqual([]);

    // Long past any call worker A could still be in: looked up in the history, not found, to support.
    offset = 3_600_000;
    await waitFor('the escalation', async () => {
      await tracker.pollOnce(order.orderId);
      return notifier.finals(order.orderId).length > 0;
    });
    expect(notifier.finals(order.orderId).map((p) => p.message.texts[0]?.id)).toEqual([
      'tracker-escalated-deposit',
    ]);
    expect(e.sandbox.depositCallCount(order.orderId)).toBe(0);
  });

  it("takes over a dead worker's claim after TRACKER_CLAIM_STALE_MS, never sooner than the ramp timeout allows", () => {
    const stale = (env: Record<string, string>) => trackerConfigFrom(parseEnv(envSchema, env)).claimStaleMs;
    expect(stale({})).toBe(120_000);
    expect(stale({ TRACKER_CLAIM_STALE_MS: '30000', RAMP_TIMEOUT_MS: '2000' })).toBe(30_000);
    // Shorter than a live worker's ramp call may last: the ramp timeout's floor holds.
    expect(stale({ TRACKER_CLAIM_STALE_MS: '30000', RAMP_TIMEOUT_MS: '15000' })).toBe(40_000);
    expect(() => parseEnv(envSchema, { TRACKER_CLAIM_STALE_MS: '10' })).toThrow(/TRACKER_CLAIM_STALE_MS/);
  });
});
