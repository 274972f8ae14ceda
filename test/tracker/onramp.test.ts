import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { explorerTxUrl } from '../../src/domain/networks.js';
import { createRampClient } from '../../src/ramp/index.js';
import type { EscalationCase } from '../../src/tracker/index.js';
import {
  createOnramp,
  depositMarker,
  type Env,
  followToFinal,
  leaveDepositIntent,
  recordingNotifier,
  releaseBehindTracker,
  setupEnv,
  sleep,
  storedState,
  textIds,
  waitFor,
} from './helpers.js';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('on-ramp tracking with Redis (the sweep)', () => {
  it('follows a paid order to exactly one deposit and one final message with the hash', async () => {
    env = await setupEnv();
    const notifier = recordingNotifier();
    const tracker = env.tracker({ notifier });
    const order = await createOnramp(env.ramp, '254712345678');
    await tracker.start();
    await tracker.track(order);
    await tracker.track(order); // tracking twice is a no-op

    const [final] = await waitFor(
      'the final message',
      () => notifier.finals(order.orderId).length > 0 && notifier.finals(order.orderId),
    );
    expect(env.sandbox.depositCallCount(order.orderId)).toBe(1);

    const done = final!.message.texts.find((t) => t.id === 'tracker-onramp-done');
    expect(done?.args?.receipt).toMatch(/^[A-Z0-9]{10}$/);
    expect(done?.args).toMatchObject({
      amount: '500.00',
      tokens: '3.861004',
      symbol: 'USDT',
      network: 'Lisk',
    });
    const hashText = final!.message.texts.find((t) => t.id === 'tracker-tx-hash');
    const hash = String(hashText?.args?.hash);
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/i);
    expect(hashText?.args?.url).toBe(explorerTxUrl('lisk', hash));
    expect(final!.message.buttons?.[0]?.[0]?.url).toBe(explorerTxUrl('lisk', hash));
    expect(final!.message.replaceKey).toBe(`order:${order.orderId}`);

    // The sandbox's own record of the release carries the same hash.
    const sandboxOrder = env.sandbox.order(order.orderId) as { release?: { hash: string } };
    expect(sandboxOrder.release?.hash).toBe(hash);
    expect(await depositMarker(env, order.orderId)).toMatchObject({ state: 'sent', hash });

    // Each state was posted once, in order, to the user that placed the order.
    await sleep(300);
    const ids = notifier.posted.map((p) => p.message.texts[0]!.id);
    expect(ids.filter((id) => id === 'tracker-onramp-done')).toHaveLength(1);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.at(-1)).toBe('tracker-onramp-done');
    expect(ids).toContain('tracker-onramp-paid');
    expect(notifier.posted.every((p) => p.user.id === 'local')).toBe(true);

    // Finished orders leave the tracking set and the queue; tracking one again does nothing.
    expect(await env.redis.sIsMember(`${env.prefix}tracking`, order.orderId)).toBe(0);
    await tracker.track(order);
    await sleep(300);
    expect(notifier.finals(order.orderId)).toHaveLength(1);
    expect(env.sandbox.depositCallCount(order.orderId)).toBe(1);
    const metrics = await tracker.registry.getSingleMetricAsString('rampchat_tracker_deposits_total');
    expect(metrics).toContain('rampchat_tracker_deposits_total{outcome="success"} 1');
  });

  it('two workers racing on one paid order release it once and post one final message', async () => {
    env = await setupEnv();
    const notifier = recordingNotifier();
    const a = env.tracker({ notifier, workerId: 'a' });
    const b = env.tracker({ notifier, workerId: 'b' });
    const orders = await Promise.all(
      ['254711000011', '254711000012', '254711000013'].map((p) => createOnramp(env!.ramp, p)),
    );
    await sleep(200); // paid
    await Promise.all([a.start(), b.start()]);
    for (const order of orders) {
      await Promise.all([a.track(order), b.track(order)]);
      // Besides the queue, force both workers to poll the same order at the same moment.
      await Promise.all([a.pollOnce(order.orderId), b.pollOnce(order.orderId)]);
    }
    for (const order of orders) {
      await waitFor('final', () => notifier.finals(order.orderId).length > 0);
    }
    await sleep(2_500); // longer than the claim staleness: nobody posts again
    for (const order of orders) {
      expect(env.sandbox.depositCallCount(order.orderId)).toBe(1);
      expect(notifier.finals(order.orderId)).toHaveLength(1);
      // Both workers saw the same status; the timeline has each step once.
      expect((await b.timeline(order.orderId)).map((e) => e.kind)).toEqual([
        'created',
        'status',
        'deposit_intent',
        'deposit_sent',
        'final',
      ]);
    }
  });

  it('an intent without outcome whose hash is in the history completes without a second deposit', async () => {
    env = await setupEnv();
    const order = await createOnramp(env.ramp, '254712300021');
    // A worker wrote its intent, called deposit, and died before recording the hash.
    const released = await releaseBehindTracker(env, order);
    await leaveDepositIntent(env, order.orderId, Date.now() - 60_000);
    const { tracker, final } = await followToFinal(env, async () => order);
    expect(textIds(final.message)).toContain('tracker-onramp-done');
    expect(final.message.texts.find((t) => t.id === 'tracker-tx-hash')?.args?.hash).toBe(released.hash);
    expect(env.sandbox.depositCallCount(order.orderId)).toBe(1);
    expect(await depositMarker(env, order.orderId)).toMatchObject({
      state: 'sent',
      hash: released.hash,
      reconciled: true,
    });
    const m = await tracker.registry.getSingleMetricAsString('rampchat_tracker_deposits_total');
    expect(m).toContain('outcome="reconciled"} 1');
  });

  it('an intent without outcome and nothing in the history goes to support, never to a second call', async () => {
    env = await setupEnv();
    const cases: EscalationCase[] = [];
    const order = await createOnramp(env.ramp, '254712300022');
    await sleep(200);
    // A live-looking intent: the tracker waits for its writer before reconciling.
    await leaveDepositIntent(env, order.orderId, Date.now());
    const { final } = await followToFinal(env, async () => order, {
      onEscalate: async (c) => void cases.push(c),
    });
    expect(textIds(final.message)).toEqual(['tracker-escalated-deposit']);
    expect(env.sandbox.depositCallCount(order.orderId)).toBe(0);
    // Support is alerted just after the user's final message.
    await waitFor('the escalation', () => cases.length > 0);
    expect(cases).toHaveLength(1);
    expect(cases[0]).toMatchObject({
      reason: 'deposit_unknown',
      lastStatus: 'SUCCESS',
      order: { orderId: order.orderId },
      deposit: { state: 'intent', worker: 'dead-worker' },
    });
    expect(cases[0]!.receipt).toMatch(/^[A-Z0-9]{10}$/);
    // The intent stays: no later run may ever call deposit for this order.
    expect(await depositMarker(env, order.orderId)).toMatchObject({ state: 'intent' });
  });

  it('a deposit refused as already processed is reconciled, not retried', async () => {
    env = await setupEnv();
    const order = await createOnramp(env.ramp, '254712300023');
    // Released behind the tracker's back (e.g. by an operator), with no marker.
    const released = await releaseBehindTracker(env, order, 'x');
    const { tracker, final } = await followToFinal(env, async () => order);
    expect(final.message.texts.find((t) => t.id === 'tracker-tx-hash')?.args?.hash).toBe(released.hash);
    // Ours plus exactly one from the tracker, which was refused.
    expect(env.sandbox.depositCallCount(order.orderId)).toBe(2);
    const m = await tracker.registry.getSingleMetricAsString('rampchat_tracker_deposits_total');
    expect(m).toContain('outcome="refused"} 1');
    expect(m).toContain('outcome="reconciled"} 1');
  });

  it('a deposit whose answer is lost on the wire is reconciled, not sent again', async () => {
    env = await setupEnv();
    const sandboxUrl = env.sandbox.url;
    // A proxy that forwards everything but cuts the connection after the deposit went through.
    const proxy: Server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k)),
      ) as Record<string, string>;
      const upstream = await fetch(`${sandboxUrl}${req.url}`, {
        method: req.method,
        headers,
        body: req.method === 'POST' ? Buffer.concat(chunks) : undefined,
      });
      const body = Buffer.from(await upstream.arrayBuffer());
      if (req.method === 'POST' && req.url?.split('?')[0] === '/api/deposit') {
        req.socket.destroy();
        return;
      }
      res.writeHead(upstream.status, {
        'content-type': upstream.headers.get('content-type') ?? 'application/json',
      });
      res.end(body);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    try {
      const port = (proxy.address() as AddressInfo).port;
      const ramp = createRampClient({
        baseUrl: `http://127.0.0.1:${port}`,
        apiKey: env.sandbox.options.apiKey,
        apiSecret: env.sandbox.options.apiSecret,
        timeoutMs: 5_000,
      });
      const e = env;
      const { tracker, order, final } = await followToFinal(e, () => createOnramp(e.ramp, '254712300024'), {
        ramp,
      });
      const sandboxOrder = env.sandbox.order(order.orderId) as { release?: { hash: string } };
      expect(final.message.texts.find((t) => t.id === 'tracker-tx-hash')?.args?.hash).toBe(
        sandboxOrder.release?.hash,
      );
      expect(env.sandbox.depositCallCount(order.orderId)).toBe(1);
      const m = await tracker.registry.getSingleMetricAsString('rampchat_tracker_deposits_total');
      expect(m).toContain('outcome="unknown"} 1');
      expect(m).toContain('outcome="reconciled"} 1');
    } finally {
      proxy.closeAllConnections();
      await new Promise((r) => proxy.close(r));
    }
  });

  it('a failed payment says why and offers the refund ticket button, with nothing released', async () => {
    env = await setupEnv();
    const { order, final } = await followToFinal(env, (ramp) => createOnramp(ramp, '254712340001'));
    expect(textIds(final.message)).toEqual([
      'tracker-onramp-failed',
      'tracker-reason-insufficient-balance',
      'tracker-ticket-hint',
    ]);
    expect(final.message.buttons).toEqual([
      [{ id: `ticket:${order.orderId}`, label: { id: 'tracker-ticket-button' } }],
      [{ id: `support:order:${order.orderId}`, label: { id: 'tracker-talk-button' } }],
    ]);
    expect(env.sandbox.depositCallCount(order.orderId)).toBe(0);
  });

  it('a cancelled prompt is reported as cancelled and offers to try again, not a refund ticket', async () => {
    env = await setupEnv();
    const { order, final } = await followToFinal(env, (ramp) => createOnramp(ramp, '254712340003'));
    expect(textIds(final.message)).toEqual([
      'tracker-onramp-cancelled',
      'tracker-reason-cancelled',
      'tracker-try-again-hint',
    ]);
    expect(final.message.buttons).toEqual([
      [
        {
          id: `menu:buy:${order.amountKes} ${order.token.symbol} ${order.network}`,
          label: { id: 'tracker-try-again-button' },
        },
      ],
    ]);
  });

  it('an order still pending past its horizon is escalated and the user told, then no longer polled', async () => {
    env = await setupEnv();
    const cases: EscalationCase[] = [];
    const { tracker, notifier, order, final } = await followToFinal(
      env,
      (ramp) => createOnramp(ramp, '254712340002'),
      { onEscalate: async (c) => void cases.push(c), config: { onrampHorizonMs: 400 } },
    );
    expect(textIds(final.message)).toEqual(['tracker-escalated-onramp-horizon']);
    // Support is alerted just after the user's final message.
    await waitFor('the escalation', () => cases.length > 0);
    expect(cases).toHaveLength(1);
    expect(cases[0]).toMatchObject({
      reason: 'horizon',
      lastStatus: 'PENDING',
      order: { orderId: order.orderId },
    });
    expect(cases[0]!.polls).toBeGreaterThan(0);
    // Counted for the "orders past their horizon" alert (deploy/prometheus).
    expect(await tracker.registry.getSingleMetricAsString('rampchat_tracker_escalations_total')).toContain(
      'rampchat_tracker_escalations_total{side="onramp",reason="horizon"} 1',
    );
    // It was reported as pending first, once.
    expect(notifier.posted.filter((p) => p.message.texts[0]!.id === 'tracker-onramp-pending')).toHaveLength(
      1,
    );
    const polls = cases[0]!.polls;
    await sleep(400);
    expect(notifier.finals(order.orderId)).toHaveLength(1);
    expect((await tracker.health()).details.queue).toMatchObject({ delayed: 0, active: 0, waiting: 0 });
    expect((await storedState(env, order.orderId))?.polls).toBe(polls);
  });

  it('a support handler that fails is retried until it takes the case; the user is told once, first', async () => {
    env = await setupEnv();
    let calls = 0;
    const { tracker, notifier, order } = await followToFinal(
      env,
      (ramp) => createOnramp(ramp, '254712350002'),
      {
        onEscalate: async () => {
          calls += 1;
          if (calls < 3) throw new Error('support desk unreachable');
        },
        config: { onrampHorizonMs: 200 },
      },
    );
    await waitFor('the case taken', () => calls >= 3);
    await sleep(300);
    expect(calls).toBe(3);
    expect(notifier.finals(order.orderId)).toHaveLength(1);
    const errors = await tracker.registry.getSingleMetricAsString('rampchat_tracker_errors_total');
    expect(errors).toContain('kind="escalate"} 2');
  });

  it('after a restart the tracker resumes pending orders without repeating what it posted', async () => {
    env = await setupEnv({ settleMs: 1_200 });
    const notifier = recordingNotifier();
    const first = env.tracker({ notifier });
    const order = await createOnramp(env.ramp, '254712345600');
    await first.track(order);
    await first.start();
    await waitFor('pending message', () =>
      notifier.posted.some((p) => p.message.texts[0]!.id === 'tracker-onramp-pending'),
    );
    await first.stop();

    const second = env.tracker({ notifier });
    await second.start();
    await waitFor('final', () => notifier.finals(order.orderId).length > 0);
    await sleep(200);
    const ids = notifier.posted.map((p) => p.message.texts[0]!.id);
    expect(ids).toEqual(['tracker-onramp-pending', 'tracker-onramp-paid', 'tracker-onramp-done']);
    expect(env.sandbox.depositCallCount(order.orderId)).toBe(1);
  });
});

describe('on-ramp tracking without Redis (local mode)', () => {
  it('follows a paid order to one deposit and one final message in-process', async () => {
    env = await setupEnv({ redis: false });
    const notifier = recordingNotifier();
    const tracker = env.tracker({ notifier });
    expect(tracker.mode).toBe('local');
    const order = await createOnramp(env.ramp, '254712345679');
    await tracker.track(order); // before start: queued until the tracker runs
    await tracker.start();
    await tracker.track(order);
    const [final] = await waitFor(
      'final',
      () => notifier.finals(order.orderId).length > 0 && notifier.finals(order.orderId),
    );
    expect(textIds(final!.message)).toEqual(['tracker-onramp-done', 'tracker-tx-hash']);
    await sleep(200);
    expect(env.sandbox.depositCallCount(order.orderId)).toBe(1);
    expect(notifier.finals(order.orderId)).toHaveLength(1);
    expect(await env.redis.keys(`${env.prefix}*`)).toEqual([]);
    expect((await tracker.health()).ok).toBe(true);
  });

  it('races in one process still release once', async () => {
    env = await setupEnv({ redis: false });
    const notifier = recordingNotifier();
    const tracker = env.tracker({ notifier });
    const order = await createOnramp(env.ramp, '254712345680');
    await sleep(200);
    await tracker.track(order);
    await Promise.all([tracker.pollOnce(order.orderId), tracker.pollOnce(order.orderId)]);
    await tracker.start();
    await waitFor('final', () => notifier.finals(order.orderId).length > 0);
    await sleep(200);
    expect(env.sandbox.depositCallCount(order.orderId)).toBe(1);
    expect(notifier.finals(order.orderId)).toHaveLength(1);
  });
});
