/**
 * A worker process SIGKILLed mid-order, then a fresh tracker: the order still ends with one final
 * message and the crypto is released at most once.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { OutMessage } from '../../src/chat/types.js';
import type { TrackedOrder } from '../../src/flows/types.js';
import type { EscalationCase } from '../../src/tracker/index.js';
import type { Notifier } from '../../src/tracker/types.js';
import {
  createOnramp,
  type Env,
  FINAL_TEXT_IDS,
  setupEnv,
  sleep,
  storedState,
  TEST_CONFIG,
  waitFor,
} from './helpers.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/worker.ts', import.meta.url));

let env: Env | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = undefined;
  await env?.close();
  env = undefined;
});

interface Notified {
  pid: number;
  message: OutMessage;
}

function spawnWorker(e: Env, order: TrackedOrder | undefined, crash?: string): Promise<ChildProcess> {
  const proc = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
    env: {
      ...process.env,
      REDIS_URL: e.redisUrl,
      PREFIX: e.prefix,
      NOTIFY_LIST: `${e.prefix}test:notified`,
      SANDBOX_URL: e.sandbox.url,
      SANDBOX_API_KEY: e.sandbox.options.apiKey,
      SANDBOX_API_SECRET: e.sandbox.options.apiSecret,
      TRACKER_CONFIG: JSON.stringify(TEST_CONFIG),
      ORDER: order ? JSON.stringify(order) : '',
      CRASH: crash ?? '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child = proc;
  return new Promise((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('ready')) resolve(proc);
    });
    proc.once('exit', (code, signal) => reject(new Error(`worker exited early (${code ?? signal})`)));
  });
}

const exited = (proc: ChildProcess) =>
  proc.exitCode !== null || proc.signalCode !== null
    ? Promise.resolve(proc.signalCode)
    : new Promise<string | null>((r) => proc.once('exit', (_c, s) => r(s)));

/** The parent's tracker posts to the same Redis list as the child did. */
const listNotifier = (e: Env): Notifier => ({
  async notify(user, message) {
    await e.redis.rPush(`${e.prefix}test:notified`, JSON.stringify({ pid: process.pid, user, message }));
  },
});

async function notified(e: Env): Promise<Notified[]> {
  return (await e.redis.lRange(`${e.prefix}test:notified`, 0, -1)).map((s) => JSON.parse(s));
}
const finals = (all: Notified[]) => all.filter((n) => n.message.texts.some((t) => FINAL_TEXT_IDS.has(t.id)));

describe('a tracker worker killed with SIGKILL', () => {
  it('while the order is pending: a new tracker completes it with one deposit and one final message', async () => {
    env = await setupEnv({ settleMs: 1_500 });
    const e = env;
    const proc = await spawnWorker(e, undefined);
    // Queued from here (a producer that runs no worker), polled by the child.
    const order = await createOnramp(e.ramp, '254733000101');
    await e.tracker({ notifier: listNotifier(e) }).track(order);
    await waitFor('the child to poll the pending order', async () => {
      const state = await storedState(e, order.orderId);
      return !!state && state.polls >= 2;
    });
    proc.kill('SIGKILL');
    expect(await exited(proc)).toBe('SIGKILL');
    expect((e.sandbox.order(order.orderId) as { release?: unknown }).release).toBeUndefined();

    const tracker = e.tracker({ notifier: listNotifier(e) });
    await tracker.start();
    await waitFor('final', async () => finals(await notified(e)).length > 0, 15_000);
    await sleep(500);
    const all = await notified(e);
    expect(finals(all)).toHaveLength(1);
    expect(finals(all)[0]!.pid).toBe(process.pid);
    expect(finals(all)[0]!.message.texts.map((t) => t.id)).toContain('tracker-onramp-done');
    expect(all.filter((n) => n.message.texts[0]!.id === 'tracker-onramp-pending')).toHaveLength(1);
    expect(e.sandbox.depositCallCount(order.orderId)).toBe(1);
  });

  it('between the deposit call and recording its hash: reconciled from history, never sent twice', async () => {
    env = await setupEnv();
    const e = env;
    const order = await createOnramp(e.ramp, '254733000102');
    const proc = await spawnWorker(e, order, 'after-deposit');
    expect(await exited(proc)).toBe('SIGKILL');
    expect(e.sandbox.depositCallCount(order.orderId)).toBe(1);
    const marker = JSON.parse((await e.redis.get(`${e.prefix}deposit:${order.orderId}`))!);
    expect(marker).toMatchObject({ state: 'intent', worker: `child-${proc.pid}` });

    const tracker = e.tracker({ notifier: listNotifier(e) });
    await tracker.start();
    await waitFor('final', async () => finals(await notified(e)).length > 0, 15_000);
    await sleep(500);
    const [final] = finals(await notified(e));
    const released = (e.sandbox.order(order.orderId) as { release?: { hash: string } }).release;
    expect(final!.message.texts.find((t) => t.id === 'tracker-tx-hash')?.args?.hash).toBe(released?.hash);
    expect(finals(await notified(e))).toHaveLength(1);
    expect(e.sandbox.depositCallCount(order.orderId)).toBe(1);
  });

  it('right after writing the deposit intent: support is alerted instead of calling deposit again', async () => {
    env = await setupEnv();
    const e = env;
    const cases: EscalationCase[] = [];
    const order = await createOnramp(e.ramp, '254733000103');
    const proc = await spawnWorker(e, order, 'before-deposit');
    expect(await exited(proc)).toBe('SIGKILL');
    expect(e.sandbox.depositCallCount(order.orderId)).toBe(0);

    const tracker = e.tracker({ notifier: listNotifier(e), onEscalate: async (c) => void cases.push(c) });
    await tracker.start();
    await waitFor('final', async () => finals(await notified(e)).length > 0, 15_000);
    await sleep(500);
    const all = await notified(e);
    expect(finals(all)).toHaveLength(1);
    expect(finals(all)[0]!.message.texts[0]!.id).toBe('tracker-escalated-deposit');
    expect(cases).toMatchObject([{ reason: 'deposit_unknown', order: { orderId: order.orderId } }]);
    expect(e.sandbox.depositCallCount(order.orderId)).toBe(0);
  });
});
