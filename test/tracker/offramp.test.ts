import { afterEach, describe, expect, it } from 'vitest';
import { maskPhone } from '../../src/domain/phone.js';
import type { EscalationCase } from '../../src/tracker/index.js';
import { createOfframp, type Env, followToFinal, setupEnv, textIds, waitFor } from './helpers.js';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('off-ramp tracking', () => {
  it('a paid-out order reports the amount, the masked recipient, the name and the receipt', async () => {
    env = await setupEnv({ settleMs: 600 }); // long enough to be seen pending first
    const { notifier, order, final } = await followToFinal(env, (ramp) =>
      createOfframp(ramp, '254722334455'),
    );
    const done = final.message.texts[0]!;
    expect(done.id).toBe('tracker-offramp-done');
    expect(done.args?.phone).toBe(maskPhone('254722334455'));
    expect(String(done.args?.name)).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/); // the name without the phone
    expect(done.args?.receipt).toMatch(/^[A-Z0-9]{10}$/);
    expect(done.args?.amount).toMatch(/^[1-9][\d,]*\.\d{2}$/);
    expect(JSON.stringify(notifier.posted)).not.toContain('254722334455');
    // Its one way on: the receipt (src/receipts), named by the order.
    expect(final.message.buttons).toEqual([
      [{ id: `rc:${order.orderId}`, label: { id: 'receipts-button' } }],
    ]);
    const pending = notifier.posted.find((p) => p.message.texts[0]!.id === 'tracker-offramp-pending');
    expect(pending?.message.replaceKey).toBe(`order:${order.orderId}`);
  });

  it("a paid-out order's M-Pesa receipt is in its owner's history", async () => {
    env = await setupEnv();
    const { tracker, order, final } = await followToFinal(env, (ramp) => createOfframp(ramp, '254722334466'));
    const receipt = final.message.texts[0]!.args?.receipt;
    expect(receipt).toMatch(/^[A-Z0-9]{10}$/);
    const page = await tracker.ordersOf(order.user, 1, 10);
    expect(page.orders.find((o) => o.orderId === order.orderId)).toMatchObject({
      outcome: 'completed',
      receipt,
    });
  });

  it('a failed payout says why in payout words (no PIN prompt) and offers the refund ticket button', async () => {
    env = await setupEnv();
    const { order, final } = await followToFinal(env, (ramp) => createOfframp(ramp, '254722330001'));
    expect(textIds(final.message)).toEqual([
      'tracker-offramp-failed',
      'tracker-payout-reason-timeout',
      'tracker-payout-ticket-hint',
    ]);
    expect(final.message.buttons).toEqual([
      [{ id: `ticket:${order.orderId}`, label: { id: 'tracker-ticket-button' } }],
      [{ id: `support:order:${order.orderId}`, label: { id: 'tracker-talk-button' } }],
    ]);
  });

  it('a payout still pending past its horizon goes to support', async () => {
    env = await setupEnv();
    const cases: EscalationCase[] = [];
    const { order, final } = await followToFinal(env, (ramp) => createOfframp(ramp, '254722330002'), {
      onEscalate: async (c) => void cases.push(c),
      config: { offrampHorizonMs: 300 },
    });
    expect(textIds(final.message)).toEqual(['tracker-escalated-offramp-horizon']);
    // Support hears of it just after the user's final message.
    await waitFor('the escalation', () => cases.length > 0);
    expect(cases).toMatchObject([
      { reason: 'horizon', lastStatus: 'PENDING', order: { txHash: order.txHash } },
    ]);
  });
});
