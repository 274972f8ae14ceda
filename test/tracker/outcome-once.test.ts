/**
 * An order's outcome is told once even when what records it told is lost (real Redis, a real
 * outbox): the outcome goes into the outbox under the order's name, so a worker that tells it again
 * (the first one's record of it failed, or it was killed right after) finds it there and nothing is
 * sent twice.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { OutMessage, UserRef } from '../../src/chat/types.js';
import {
  createOutboundLine,
  createOutbox,
  type Outbox,
  redisOutboxStore,
  type SendScope,
} from '../../src/outbound/index.js';
import { createOnramp, type Env, setupEnv, sleep, waitFor } from './helpers.js';

let env: Env | undefined;
let outbox: Outbox | undefined;
afterEach(async () => {
  await outbox?.handOver(100);
  await env?.close();
  env = undefined;
});

describe("an order's outcome", () => {
  it('is sent once when the tracker loses its record of telling it and tells it again', async () => {
    env = await setupEnv();
    const sent: OutMessage[] = [];
    outbox = createOutbox({
      store: redisOutboxStore(env.redis, `${env.prefix}outbox:`),
      line: createOutboundLine({ line: [] }),
      lanesOf: () => [],
      send: async (body) => {
        sent.push(body as OutMessage);
        return 'ok';
      },
    });
    const box = outbox;
    let lost = 0;
    let told = 0;
    const notifier = {
      async notify(user: UserRef, message: OutMessage, scope?: SendScope) {
        if (message.outcome) told += 1;
        await box.submit(user.id, message.outcome ? 'outcome' : 'progress', message, { scope });
        // The outcome was taken; what follows it (the record that it was told) is lost, twice.
        if (message.outcome && lost < 2) {
          lost += 1;
          throw new Error('the connection to Redis was lost');
        }
      },
    };
    const tracker = env.tracker({ notifier, config: { pollIntervalMs: 100 } });
    const order = await createOnramp(env.ramp, '254712345678');
    await tracker.start();
    await tracker.track(order);
    // Told three times: twice its record was lost, the third time it held.
    await waitFor('the outcome told three times', () => told >= 3);
    await sleep(500);
    expect(told).toBe(3);
    const finals = sent.filter((m) => m.outcome);
    expect(lost).toBe(2);
    expect(finals).toHaveLength(1);
    expect(finals[0]?.texts.map((t) => t.id)).toContain('tracker-onramp-done');
  });
});
