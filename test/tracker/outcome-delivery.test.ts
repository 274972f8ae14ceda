/**
 * An order's outcome is never dropped: a send that fails is tried again at the next poll until it
 * lands, and a chat the platform says is gone hands the order to support, saying so.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ChatGoneError } from '../../src/chat/types.js';
import type { EscalationCase } from '../../src/tracker/index.js';
import { createOnramp, type Env, recordingNotifier, setupEnv, sleep, waitFor } from './helpers.js';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe("an order's outcome", () => {
  it('is sent as an outcome and tried again until it lands when the channel cannot deliver it yet', async () => {
    env = await setupEnv();
    const notifier = recordingNotifier();
    let failures = 0;
    const flaky = {
      ...notifier,
      async notify(
        user: Parameters<typeof notifier.notify>[0],
        message: Parameters<typeof notifier.notify>[1],
      ) {
        const final = message.texts.some((t) => t.id === 'tracker-onramp-done');
        if (final && failures < 2) {
          failures += 1;
          throw new Error('the outbound line gave up');
        }
        await notifier.notify(user, message);
      },
    };
    const tracker = env.tracker({ notifier: flaky, config: { pollIntervalMs: 100 } });
    const order = await createOnramp(env.ramp, '254712345678');
    await tracker.start();
    await tracker.track(order);
    const [final] = await waitFor(
      'the outcome',
      () => notifier.finals(order.orderId).length > 0 && notifier.finals(order.orderId),
    );
    expect(failures).toBe(2);
    expect(final?.message.outcome).toBe(true);
    expect(env.sandbox.depositCallCount(order.orderId)).toBe(1);
    await sleep(300);
    expect(notifier.finals(order.orderId)).toHaveLength(1);
  });

  it('goes to support as undeliverable when the user blocked the bot, with what they were not told', async () => {
    env = await setupEnv();
    const cases: EscalationCase[] = [];
    let tries = 0;
    const gone = {
      async notify(_user: unknown, message: { texts: Array<{ id: string }> }) {
        if (message.texts.some((t) => t.id === 'tracker-onramp-done')) {
          tries += 1;
          throw new ChatGoneError('telegram', 'Forbidden: bot was blocked by the user');
        }
      },
    };
    const tracker = env.tracker({
      notifier: gone,
      onEscalate: async (c) => void cases.push(c),
      config: { pollIntervalMs: 100 },
    });
    const order = await createOnramp(env.ramp, '254712345678');
    await tracker.start();
    await tracker.track(order);
    await waitFor('the case', () => cases.length > 0);
    await sleep(500);
    expect(cases).toHaveLength(1);
    expect(tries).toBe(1);
    expect(cases[0]).toMatchObject({ reason: 'undeliverable', order: { orderId: order.orderId } });
    expect(cases[0]?.detail).toMatch(/could not be told the order succeeded: telegram says the chat is gone/);
    expect(env.sandbox.depositCallCount(order.orderId)).toBe(1);
  });
});
