/**
 * An alert's notice and its "fired" mark go together (real Redis, the sandbox's rates, a real
 * outbox): the mark is written in the same Redis step that puts the notice in the outbox, so a
 * Redis blip after the notice was taken (the separate mark failing, as in issue 31: 33 of 38 alerts
 * told twice) cannot leave the alert claimed and told again at the next tick.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AlertRecord } from '../../src/alerts/store/record.js';
import { AlertStore } from '../../src/alerts/store/store.js';
import { AlertTicker } from '../../src/alerts/ticker.js';
import { createOutboundLine, createOutbox, redisOutboxStore } from '../../src/outbound/index.js';
import { type Rig, rig, silent, user } from './rig.js';

let r: Rig;
beforeEach(async () => {
  r = await rig('redis');
});
afterEach(() => r.close());

/** A store whose own "fired" write fails, as it did while Redis reconnected. */
class BlippingStore extends AlertStore {
  override async markFired(_rec: AlertRecord, _rearmPct: number): Promise<boolean> {
    throw new Error('the connection to Redis was lost');
  }
}

describe('an alert notice and its fired mark', () => {
  it('are written in one step: the mark failing on its own cannot tell the alert twice', async () => {
    const s = r.store();
    r.sandbox.setKesPerUsd(130);
    await s.answer(user('blip'), {
      action: 'set',
      token: 'USDT',
      network: 'celo',
      side: 'below',
      level: 128,
    });
    const sent: unknown[] = [];
    const outbox = createOutbox({
      store: redisOutboxStore(r.redis, `${r.prefix}outbox:`),
      line: createOutboundLine({ line: [] }),
      lanesOf: () => [],
      send: async (body) => {
        sent.push(body);
        return 'ok';
      },
    });
    const store = new BlippingStore(r.redis, r.prefix, silent(), () => r.clock.now);
    const ticker = new AlertTicker({
      store,
      ramp: r.ramp,
      notifier: {
        notify: async (u, message, scope) => void (await outbox.submit(u.id, 'outcome', message, { scope })),
      },
      log: silent(),
      intervalMs: 1000,
      rearmPct: 0.5,
      leaseMs: 2000,
      failBackoffMs: 1000,
      now: () => r.clock.now,
    });
    r.sandbox.setKesPerUsd(127.9);
    await ticker.tick();
    expect(sent).toHaveLength(1);
    // Long past any lease or back-off: a claim left behind would be taken and told again here.
    for (let i = 0; i < 3; i++) {
      r.clock.now += 30 * 60_000;
      await ticker.tick();
    }
    expect(sent).toHaveLength(1);
    await outbox.handOver(100);
  });
});
