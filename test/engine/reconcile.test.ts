/**
 * STK pushes whose process died after claiming the idempotency key and before recording the outcome.
 * Process A walks the buy flow and taps Confirm; its ramp calls go through a wire-level proxy that
 * stops answering the order POST (after passing it on to the sandbox, or without), so A never records
 * an outcome, as if it had died. Another process's reconciler (real Redis, the sandbox over HTTP, the
 * real tracker) must then either find the order and follow it, or hand the case to support once.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/app/flows.js';
import type { UserRef } from '../../src/chat/types.js';
import { createClaimReconciler, type Engine, type StkEscalation } from '../../src/engine/index.js';
import { createLogger } from '../../src/log/logger.js';
import { createRampClient } from '../../src/ramp/index.js';
import type { RampClient } from '../../src/ramp/types.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { createRedisStore, type SessionStore } from '../../src/store/index.js';
import { readEscalation } from '../../src/support/case/escalation.js';
import { createTracker, type Tracker } from '../../src/tracker/index.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';
import { recordingChannel } from './fixtures.js';

const logger = createLogger({ level: 'silent' });
let sandbox: Sandbox;
let ramp: RampClient;
let redisA: RedisClientType;
let redisB: RedisClientType;
const prefixes: string[] = [];
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, settleMs: 300 });
  ramp = createRampClient({ baseUrl: sandbox.url, apiKey: 'sandbox-key', apiSecret: 'sandbox-secret' });
  redisA = await connectTestRedis();
  redisB = await connectTestRedis();
});
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()?.();
  for (const p of prefixes) await flushPrefix(redisA, p);
  await redisA.quit();
  await redisB.quit();
  await sandbox.close();
});

/** How the proxy treats the on-ramp order POST. */
type ProxyMode = 'forward' | 'swallow' | 'forward-502' | 'swallow-502' | 'forward-garbage';

/**
 * Passes every ramp call on to the sandbox, except the on-ramp order POST: `forward` passes it on
 * and never answers; `swallow` never passes it on nor answers; `forward-502` and `forward-garbage`
 * pass it on and answer a 502 or a body that is not JSON (the ramp created the order, we hear an
 * error); `swallow-502` answers 502 without passing it on. `posted` resolves once it arrived
 * (and, for `forward`, once the sandbox answered).
 */
async function startFreezingProxy(mode: ProxyMode) {
  let arrived!: () => void;
  const posted = new Promise<void>((r) => {
    arrived = r;
  });
  const read = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  };
  const server: Server = createServer(async (req, res) => {
    const body = await read(req);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
    const forward = () =>
      fetch(`${sandbox.url}${req.url}`, {
        method: req.method,
        headers,
        body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
      });
    if (req.method === 'POST' && req.url?.startsWith('/api/onramp-orders')) {
      if (mode.startsWith('forward')) await (await forward()).arrayBuffer();
      arrived();
      if (mode === 'forward' || mode === 'swallow') return; // the sender is "dead": it never hears back
      if (mode === 'forward-garbage') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('<html>upstream hiccup</html>');
      } else {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end('bad gateway');
      }
      return;
    }
    const answer = await forward();
    res.writeHead(answer.status, {
      'content-type': answer.headers.get('content-type') ?? 'application/json',
    });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posted,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

let walletSeq = 0;
const freshWallet = () => `0x${(0x7a11ce0000000000n + BigInt(++walletSeq)).toString(16).padStart(40, '0')}`;
let userSeq = 0;
const freshUser = (): UserRef => ({ channel: 'telegram', id: `77${Date.now() % 1e6}${++userSeq}` });

/** A process: its own Redis connection, store, engine and channel (and tracker, when asked). */
async function startProcess(
  client: RedisClientType,
  prefix: string,
  rampClient: RampClient,
  withTracker = false,
) {
  const channel = recordingChannel('telegram');
  const store: SessionStore = await createRedisStore({ client, prefix, flowTtlSeconds: 600 });
  let engineRef: Engine | undefined;
  let tracker: Tracker | undefined;
  if (withTracker) {
    tracker = createTracker({
      ramp: rampClient,
      notifier: { notify: (user, message) => engineRef!.notify(user, message) },
      logger,
      redisUrl: testRedisUrl(),
      prefix,
      config: {
        pollIntervalMs: 60,
        onrampHorizonMs: 60_000,
        offrampHorizonMs: 60_000,
        concurrency: 5,
        project: 'test',
        maxBackoffMs: 300,
        claimStaleMs: 1_500,
        lockDurationMs: 2_000,
      },
    });
    await tracker.start();
  }
  const engine = createEngine({
    store,
    ramp: rampClient,
    tracker,
    logger,
    config: { rateTolerancePct: 1, project: 'test' },
    channels: [channel],
  });
  engineRef = engine;
  cleanups.push(async () => {
    await tracker?.stop();
    await engine.idle();
  });
  return { channel, store, engine, tracker };
}

/** Process A walks to the summary and taps Confirm; the tap never finishes (A "died" mid-call). */
async function crashMidOrder(
  prefix: string,
  mode: ProxyMode,
  user: UserRef,
  wallet: string,
  buy = '500 USDT polygon',
) {
  const proxy = await startFreezingProxy(mode);
  const frozenRamp = createRampClient({
    baseUrl: proxy.url,
    apiKey: 'sandbox-key',
    apiSecret: 'sandbox-secret',
    timeoutMs: 120_000,
  });
  const a = await startProcess(redisA, prefix, frozenRamp);
  cleanups.push(async () => {
    await proxy.close();
    await a.engine.idle();
  });
  await a.engine.handle(user, { kind: 'command', command: 'buy', args: buy });
  await a.engine.handle(user, { kind: 'text', text: wallet });
  await a.engine.handle(user, { kind: 'text', text: '0712345678' });
  const confirm = a.channel.sent
    .at(-1)
    ?.message.buttons?.flat()
    .find((b) => b.label.id.startsWith('buy-button-confirm'));
  expect(confirm, `no summary; texts ${JSON.stringify(a.channel.ids())}`).toBeDefined();
  const tapped = a.engine.handle(user, { kind: 'button', id: confirm!.id });
  await proxy.posted;
  // The process is as good as dead from here: a killed replica's chat lock is no longer renewed and
  // lapses; this one, frozen in-process, would keep renewing it, so it is let go here.
  await redisA.del(`${prefix}chat-lock:${user.channel}:${user.id}`);
  if (mode !== 'forward' && mode !== 'swallow') await tapped;
  return a;
}

async function until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 40));
  }
}

/** The reconcilers' clock: real time plus what a test adds, so staleness never depends on test speed. */
let offset = 0;
const clock = () => Date.now() + offset;

/** The claim reconciler of a process, on the test clock, with the test's stale/give-up/lease times. */
function reconcilerOf(
  p: { store: SessionStore; engine: Engine; tracker?: Tracker },
  onEscalate: (c: StkEscalation) => Promise<void>,
  rampClient: RampClient = ramp,
) {
  return createClaimReconciler({
    store: p.store,
    ramp: rampClient,
    ...(p.tracker ? { tracker: p.tracker } : {}),
    conversation: p.engine,
    logger,
    staleAfterMs: STALE,
    giveUpAfterMs: GIVE_UP,
    leaseMs: LEASE,
    onEscalate,
    now: clock,
  });
}
const STALE = 60_000;
const GIVE_UP = 120_000;
const LEASE = 10_000;

const history = async (wallet: string) => {
  try {
    return (await ramp.getHistory('onramp', wallet)).records;
  } catch (err) {
    if ((err as { kind?: string }).kind === 'not_found') return [];
    throw err;
  }
};

describe('an STK push whose process died before recording the outcome', () => {
  it('is found in the ramp history, tracked, and the user gets the order id and the outcome', async () => {
    const prefix = uniquePrefix('reconcile');
    prefixes.push(prefix);
    const user = freshUser();
    const wallet = freshWallet();
    await crashMidOrder(prefix, 'forward', user, wallet);
    const [order] = await history(wallet);
    expect(order?.orderId).toBeDefined();

    const b = await startProcess(redisB, prefix, ramp, true);
    const escalations: StkEscalation[] = [];
    offset = 0;
    const reconciler = reconcilerOf(b, async (c) => void escalations.push(c));
    // Before the claim is stale nothing is taken: the first process may still be waiting for its answer.
    expect((await reconciler.sweep()).taken).toBe(0);
    offset = STALE + 1_000;
    expect(await reconciler.sweep()).toMatchObject({ taken: 1, recovered: 1 });

    const stk = b.channel.sent.flatMap((s) => s.message.texts).find((t) => t.id === 'buy-stk-sent');
    expect(stk?.args).toMatchObject({ orderId: order!.orderId });
    const done = await until('the tracker', async () =>
      b.channel.sent.flatMap((s) => s.message.texts).find((t) => t.id === 'tracker-onramp-done'),
    );
    expect(done.args).toMatchObject({ amount: '500.00', symbol: 'USDT' });
    const key = await b.store.keyOfOrder(order!.orderId!);
    expect(key).toMatch(/^buy:/);
    expect(await b.store.claimIdempotencyKey(key!)).toMatchObject({
      status: 'created',
      orderId: order!.orderId,
    });
    // Later sweeps find nothing more to do; still one order, nothing escalated.
    offset += LEASE + 1_000;
    expect(await reconciler.sweep()).toMatchObject({ taken: 0 });
    expect(await history(wallet)).toHaveLength(1);
    expect(escalations).toEqual([]);
  });

  it('created, but its tracking could not start (Redis blinked): the reconciler finds it and tracks it', async () => {
    const prefix = uniquePrefix('reconcile');
    prefixes.push(prefix);
    const user = freshUser();
    const wallet = freshWallet();
    // Process A creates the order; its tracker fails, as when Redis drops the connection just then.
    const channel = recordingChannel('telegram');
    const store = await createRedisStore({ client: redisA, prefix, flowTtlSeconds: 600 });
    const failingTracker = {
      track: async () => {
        throw new Error('Socket closed unexpectedly');
      },
    } as unknown as Tracker;
    const a = createEngine({
      store,
      ramp,
      tracker: failingTracker,
      logger,
      config: { rateTolerancePct: 1, project: 'test' },
      channels: [channel],
    });
    cleanups.push(() => a.idle());
    await a.handle(user, { kind: 'command', command: 'buy', args: '500 USDT polygon' });
    await a.handle(user, { kind: 'text', text: wallet });
    await a.handle(user, { kind: 'text', text: '0712345678' });
    const confirm = channel.sent
      .at(-1)
      ?.message.buttons?.flat()
      .find((b) => b.label.id.startsWith('buy-button-confirm'));
    await a.handle(user, { kind: 'button', id: confirm!.id });
    const [order] = await history(wallet);
    expect(order?.orderId).toBeDefined();
    expect(channel.ids()).toContain('buy-stk-sent');

    const b = await startProcess(redisB, prefix, ramp, true);
    offset = STALE + 1_000;
    const reconciler = reconcilerOf(b, async () => {});
    expect(await reconciler.sweep()).toMatchObject({ taken: 1, recovered: 1 });
    const done = await until('the final message', async () =>
      b.channel.sent.flatMap((s) => s.message.texts).find((t) => t.id === 'tracker-onramp-done'),
    );
    expect(done.args).toMatchObject({ amount: '500.00', symbol: 'USDT' });
    expect(await history(wallet)).toHaveLength(1);
  });

  it('that never reached the ramp is escalated and the user told, once, with two reconcilers racing', async () => {
    const prefix = uniquePrefix('reconcile');
    prefixes.push(prefix);
    const user = freshUser();
    const wallet = freshWallet();
    await crashMidOrder(prefix, 'swallow', user, wallet);

    const escalations: StkEscalation[] = [];
    const reconcilers = await Promise.all(
      [redisA, redisB].map(async (client) => {
        const p = await startProcess(client, prefix, ramp);
        const reconciler = reconcilerOf(p, async (c) => void escalations.push(c));
        return { ...p, reconciler };
      }),
    );
    offset = 0;
    const sweepAll = () => Promise.all(reconcilers.map((r) => r.reconciler.sweep()));
    const total = (reports: Awaited<ReturnType<typeof sweepAll>>, k: 'taken' | 'waiting' | 'escalated') =>
      reports.reduce((n, r) => n + r[k], 0);
    expect(total(await sweepAll(), 'taken')).toBe(0);
    // Stale but not yet given up: one of the two takes it, looks, and waits (the ramp may list it late).
    offset = STALE + 1_000;
    const first = await sweepAll();
    expect([total(first, 'taken'), total(first, 'waiting')]).toEqual([1, 1]);
    expect(total(await sweepAll(), 'taken')).toBe(0); // leased
    offset += LEASE + 1_000;
    expect(total(await sweepAll(), 'waiting')).toBe(1);
    expect(escalations).toEqual([]);
    offset = GIVE_UP + 1_000;
    expect(total(await sweepAll(), 'escalated')).toBe(1);
    for (let i = 0; i < 3; i++) {
      offset += LEASE + 1_000;
      expect(total(await sweepAll(), 'taken')).toBe(0);
    }

    expect(escalations).toHaveLength(1);
    expect(escalations[0]).toMatchObject({
      reason: 'stk_unknown',
      user,
      phone: '254712345678',
      amountKes: 500,
      network: 'polygon',
      token: { symbol: 'USDT' },
    });
    expect(escalations[0]!.walletAddress.toLowerCase()).toBe(wallet);
    // The support desk reads it (no order id to attach; a buy, with what is known).
    expect(readEscalation(escalations[0])).toMatchObject({
      user,
      side: 'onramp',
      phone: '254712345678',
      amountKes: 500,
      network: 'polygon',
      symbol: 'USDT',
      detail: expect.stringContaining(escalations[0]!.idempotencyKey),
    });
    expect(readEscalation(escalations[0]).orderId).toBeUndefined();
    const told = reconcilers.flatMap((r) =>
      r.channel.sent.flatMap((s) => s.message.texts).filter((t) => t.id === 'engine-order-unconfirmed'),
    );
    expect(told).toEqual([{ id: 'engine-order-unconfirmed', args: { amount: 500 } }]);
    expect(await history(wallet)).toEqual([]);
    const key = escalations[0]!.idempotencyKey;
    expect(await reconcilers[0]!.store.claimIdempotencyKey(key)).toMatchObject({ status: 'failed' });
  });

  it("never takes the order of a later buy still waiting for the ramp's answer (same wallet, phone and amount)", async () => {
    const prefix = uniquePrefix('reconcile');
    prefixes.push(prefix);
    const user = freshUser();
    const wallet = freshWallet();
    // Buy 1 (Polygon) died before its push reached the ramp.
    await crashMidOrder(prefix, 'swallow', user, wallet, '500 USDT polygon');
    const between = Date.now();
    await new Promise((r) => setTimeout(r, 5));
    // Buy 2 (Celo), same wallet, phone and amount: the ramp took it, its answer is still on the way.
    await crashMidOrder(prefix, 'forward', user, wallet, '500 USDT celo');
    const [order] = await history(wallet);
    expect(order?.orderId).toBeDefined();

    const b = await startProcess(redisB, prefix, ramp, true);
    const escalations: StkEscalation[] = [];
    const reconciler = reconcilerOf(b, async (c) => void escalations.push(c));
    // Buy 1's claim is stale, buy 2's is not (its call may still answer).
    offset = STALE + between - Date.now();
    const report = await reconciler.sweep();
    expect(report).toMatchObject({ taken: 1, recovered: 0, waiting: 1 });
    // The Celo order is not recorded under buy 1's key, nor tracked as a Polygon order.
    expect(await b.store.keyOfOrder(order!.orderId!)).toBeUndefined();
    expect(await b.tracker!.timeline(order!.orderId!)).toEqual([]);
    expect(b.channel.sent.flatMap((s) => s.message.texts).map((t) => t.id)).not.toContain('buy-stk-sent');
    expect(escalations).toEqual([]);

    // Buy 2's answer lands: the order is its own; buy 1 still has none and goes to support at give-up.
    const listed = await b.store.listPendingClaims();
    const second = listed.find((p) => (p.data as { track?: { network?: string } }).track?.network === 'celo');
    expect(second).toBeDefined();
    await b.store.recordIdempotencyOutcome(second!.key, {
      status: 'created',
      orderId: order!.orderId!,
      createdAt: Date.now(),
    });
    offset = GIVE_UP + 1_000;
    expect(await reconciler.sweep()).toMatchObject({ taken: 1, recovered: 0, escalated: 1 });
    expect(await b.store.keyOfOrder(order!.orderId!)).toBe(second!.key);
    expect(escalations).toHaveLength(1);
    expect(escalations[0]).toMatchObject({ network: 'polygon', amountKes: 500 });
  });
});

describe('an STK push whose create call answered with an error that may hide an order', () => {
  const reconcilerFor = (p: Awaited<ReturnType<typeof startProcess>>, escalations: StkEscalation[]) =>
    reconcilerOf(p, async (c) => void escalations.push(c));
  const texts = (p: { channel: { sent: Array<{ message: { texts: Array<{ id: string }> } }> } }) =>
    p.channel.sent.flatMap((s) => s.message.texts.map((t) => t.id));

  for (const mode of ['forward-502', 'forward-garbage'] as const) {
    it(`(${mode}) created at the ramp: found, tracked, released once, the user gets the outcome`, async () => {
      const prefix = uniquePrefix('reconcile');
      prefixes.push(prefix);
      const user = freshUser();
      const wallet = freshWallet();
      const a = await crashMidOrder(prefix, mode, user, wallet);
      // The user heard "could not confirm"; the key stays in flight (a retry sends nothing).
      expect(texts(a)).toContain('buy-order-uncertain');
      const [order] = await history(wallet);
      expect(order?.orderId).toBeDefined();
      const listed = await a.store.listPendingClaims();
      expect(listed).toHaveLength(1);
      expect(await a.store.claimIdempotencyKey(listed[0]!.key)).toMatchObject({ status: 'in_flight' });

      const b = await startProcess(redisB, prefix, ramp, true);
      const escalations: StkEscalation[] = [];
      const reconciler = reconcilerFor(b, escalations);
      offset = STALE + 1_000;
      expect(await reconciler.sweep()).toMatchObject({ taken: 1, recovered: 1 });
      const done = await until('the tracker', async () =>
        b.channel.sent.flatMap((s) => s.message.texts).find((t) => t.id === 'tracker-onramp-done'),
      );
      expect(done.args).toMatchObject({ amount: '500.00', symbol: 'USDT' });
      expect(await b.store.keyOfOrder(order!.orderId!)).toBe(listed[0]!.key);
      offset += LEASE + 1_000;
      expect(await reconciler.sweep()).toMatchObject({ taken: 0 });
      expect(await history(wallet)).toHaveLength(1);
      expect(escalations).toEqual([]);
      const releases = (await b.tracker!.timeline(order!.orderId!)).filter((e) => e.kind === 'deposit_sent');
      expect(releases).toHaveLength(1);
    });
  }

  it('not created at the ramp: after the margin the user is told plainly, no support case', async () => {
    const prefix = uniquePrefix('reconcile');
    prefixes.push(prefix);
    const user = freshUser();
    const wallet = freshWallet();
    const a = await crashMidOrder(prefix, 'swallow-502', user, wallet);
    expect(texts(a)).toContain('buy-order-uncertain');
    const b = await startProcess(redisB, prefix, ramp);
    const escalations: StkEscalation[] = [];
    const reconciler = reconcilerFor(b, escalations);
    offset = STALE + 1_000;
    expect(await reconciler.sweep()).toMatchObject({ taken: 1, waiting: 1 });
    offset = GIVE_UP + 1_000;
    expect(await reconciler.sweep()).toMatchObject({ taken: 1, notCreated: 1, escalated: 0 });
    offset += LEASE + 1_000;
    expect(await reconciler.sweep()).toMatchObject({ taken: 0 });
    expect(escalations).toEqual([]);
    const told = b.channel.sent
      .flatMap((s) => s.message.texts)
      .filter((t) => t.id === 'engine-order-not-created');
    expect(told).toEqual([{ id: 'engine-order-not-created', args: { amount: 500 } }]);
    expect(await history(wallet)).toEqual([]);
  });

  it('undecidable (the history cannot be read): a support case with what is known', async () => {
    const prefix = uniquePrefix('reconcile');
    prefixes.push(prefix);
    const user = freshUser();
    const wallet = freshWallet();
    await crashMidOrder(prefix, 'swallow-502', user, wallet);
    const b = await startProcess(redisB, prefix, ramp);
    const escalations: StkEscalation[] = [];
    const broken = createRampClient({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'k',
      apiSecret: 's',
      timeoutMs: 500,
    });
    const reconciler = reconcilerOf(b, async (c) => void escalations.push(c), broken);
    offset = GIVE_UP + 1_000;
    expect(await reconciler.sweep()).toMatchObject({ taken: 1, escalated: 1, notCreated: 0 });
    expect(escalations).toHaveLength(1);
    expect(escalations[0]).toMatchObject({ reason: 'stk_unknown', user, amountKes: 500 });
    expect(escalations[0]!.lastError).toMatch(/history unreadable/);
  });
});
