/** Shared setup of the tracker tests: a real sandbox over HTTP, the real ramp client, real Redis. */
import type { RedisClientType } from 'redis';
import type { OutMessage, UserRef } from '../../src/chat/types.js';
import type { TrackedOrder } from '../../src/flows/types.js';
import { createLogger } from '../../src/log/logger.js';
import { createRampClient } from '../../src/ramp/index.js';
import type { RampClient } from '../../src/ramp/types.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { createTracker, type Tracker, type TrackerDeps } from '../../src/tracker/index.js';
import type { TrackingState } from '../../src/tracker/store/state.js';
import { createRedisTrackerStore } from '../../src/tracker/store/store.js';
import type { Notifier } from '../../src/tracker/types.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';

export const WALLET = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';
export const LISK_USDT = {
  symbol: 'USDT',
  address: '0x05D032ac25d322df992303dCa074EE7392C117b9',
  decimals: 6,
};
export const FINAL_TEXT_IDS = new Set([
  'tracker-onramp-done',
  'tracker-onramp-failed',
  'tracker-onramp-cancelled',
  'tracker-offramp-done',
  'tracker-offramp-done-noname',
  'tracker-offramp-failed',
  'tracker-escalated-onramp-horizon',
  'tracker-escalated-offramp-horizon',
  'tracker-escalated-deposit',
]);

export const silentLogger = () => createLogger({ level: 'silent' });

export interface Posted {
  user: UserRef;
  message: OutMessage;
}

/** A Notifier that records what it was asked to post. */
export function recordingNotifier(): Notifier & { posted: Posted[]; finals(orderId: string): Posted[] } {
  const posted: Posted[] = [];
  return {
    posted,
    async notify(user, message) {
      posted.push({ user, message: structuredClone(message) });
    },
    finals(orderId) {
      return posted.filter(
        (p) =>
          p.message.replaceKey === `order:${orderId}` &&
          p.message.texts.some((t) => FINAL_TEXT_IDS.has(t.id)),
      );
    },
  };
}

export const textIds = (m: OutMessage) => m.texts.map((t) => t.id);

export type RecordingNotifier = ReturnType<typeof recordingNotifier>;

import { waitFor } from '../helpers/wait.js';

export { waitFor };

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type TrackerOverrides = Partial<Omit<TrackerDeps, 'config'>> & {
  config?: Partial<TrackerDeps['config']>;
};

export interface Env {
  sandbox: Sandbox;
  ramp: RampClient;
  redis: RedisClientType;
  redisUrl: string;
  prefix: string;
  trackers: Tracker[];
  tracker(over?: TrackerOverrides): Tracker;
  close(): Promise<void>;
}

/** An order's tracking state as stored in Redis (read through the store, whatever its layout). */
export async function storedState(env: Env, orderId: string): Promise<TrackingState | undefined> {
  return (await createRedisTrackerStore({ client: env.redis, prefix: env.prefix }).load(orderId))?.state;
}

export const TEST_CONFIG = {
  pollIntervalMs: 60,
  onrampHorizonMs: 60_000,
  offrampHorizonMs: 60_000,
  concurrency: 10,
  project: 'rampchat-test',
  maxBackoffMs: 500,
  claimStaleMs: 1_500,
  lockDurationMs: 2_000,
};

export async function setupEnv(opts: { settleMs?: number; redis?: boolean } = {}): Promise<Env> {
  const sandbox = await startSandbox({ port: 0, settleMs: opts.settleMs ?? 100 });
  const ramp = createRampClient({
    baseUrl: sandbox.url,
    apiKey: sandbox.options.apiKey,
    apiSecret: sandbox.options.apiSecret,
    timeoutMs: 5_000,
  });
  const redis = await connectTestRedis();
  const prefix = uniquePrefix('trk');
  const redisUrl = testRedisUrl();
  const trackers: Tracker[] = [];
  return {
    sandbox,
    ramp,
    redis,
    redisUrl,
    prefix,
    trackers,
    tracker(over = {}) {
      const t = createTracker({
        ramp,
        notifier: recordingNotifier(),
        logger: silentLogger(),
        redisUrl: opts.redis === false ? undefined : redisUrl,
        prefix,
        ...over,
        config: { ...TEST_CONFIG, ...over.config },
      });
      trackers.push(t);
      return t;
    },
    async close() {
      await Promise.allSettled(trackers.map((t) => t.stop()));
      await flushPrefix(redis, prefix);
      await redis.quit();
      await sandbox.close();
    },
  };
}

/** Sends an STK push through the ramp client and describes the order as the buy flow would. */
export async function createOnramp(
  ramp: RampClient,
  phone: string,
  user: UserRef = { channel: 'terminal', id: 'local' },
  amountKes = 500,
): Promise<TrackedOrder> {
  const created = await ramp.createOnrampOrder({
    phone,
    amountKes,
    userAddress: WALLET,
    tokenAddress: LISK_USDT.address,
  });
  return {
    orderId: created.orderId,
    side: 'onramp',
    user,
    network: 'lisk',
    walletAddress: WALLET,
    token: LISK_USDT,
    amountKes,
    tokenAmount: String(amountKes / 129.5),
    phone,
    createdAt: Date.now(),
  };
}

/** Files an off-ramp order for a (made-up) 66-character transaction hash. */
export async function createOfframp(
  ramp: RampClient,
  phone: string,
  user: UserRef = { channel: 'terminal', id: 'local' },
): Promise<TrackedOrder> {
  const hash = `0x${[...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
  const created = await ramp.createOfframpOrder({
    chain: 'lisk',
    hash,
    phone,
    tokenAddress: LISK_USDT.address,
    userAddress: WALLET,
    project: 'rampchat-test',
  });
  return {
    orderId: created.orderId,
    side: 'offramp',
    user,
    network: 'lisk',
    walletAddress: WALLET,
    token: LISK_USDT,
    amountKes: 1000,
    tokenAmount: '7.7',
    phone,
    createdAt: Date.now(),
    txHash: hash,
  };
}

/** What `followToFinal` ran: the tracker, what it posted, the order and its one final message. */
export interface Followed {
  tracker: Tracker;
  notifier: RecordingNotifier;
  order: TrackedOrder;
  final: Posted;
}

/**
 * The common run of a tracker test: a tracker posting to a recording notifier, an order created
 * at the sandbox, tracked and followed until its first final message.
 */
export async function followToFinal(
  env: Env,
  createOrder: (ramp: RampClient) => Promise<TrackedOrder>,
  over: TrackerOverrides = {},
): Promise<Followed> {
  const notifier = recordingNotifier();
  const tracker = env.tracker({ notifier, ...over });
  const order = await createOrder(over.ramp ?? env.ramp);
  await tracker.track(order);
  await tracker.start();
  const [final] = await waitFor(
    'the final message',
    () => notifier.finals(order.orderId).length > 0 && notifier.finals(order.orderId),
  );
  return { tracker, notifier, order, final: final! };
}

/** The deposit guard of an order as stored (undefined when none). */
export async function depositMarker(env: Env, orderId: string): Promise<Record<string, unknown> | undefined> {
  const raw = await env.redis.get(`${env.prefix}deposit:${orderId}`);
  return raw ? JSON.parse(raw) : undefined;
}

/** Writes the deposit intent a worker leaves before its release call (`at` says how long ago). */
export async function leaveDepositIntent(env: Env, orderId: string, at: number): Promise<void> {
  await env.redis.set(
    `${env.prefix}deposit:${orderId}`,
    JSON.stringify({ state: 'intent', token: 'dead', worker: 'dead-worker', at }),
  );
}

/** Lets the sandbox settle the payment, then releases the crypto behind the tracker's back. */
export async function releaseBehindTracker(
  env: Env,
  order: TrackedOrder,
  project = 'rampchat-test',
): Promise<{ hash: string }> {
  await sleep(200);
  return env.ramp.deposit({ chain: 'lisk', address: order.walletAddress, orderId: order.orderId, project });
}
