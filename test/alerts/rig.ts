/**
 * The sandbox ramp over real HTTP and the alert store on real Redis or in memory (local mode), for
 * the alert store and ticker tests.
 */
import type { RedisClientType } from 'redis';
import type { AlertStorage } from '../../src/alerts/store/storage.js';
import { AlertStore } from '../../src/alerts/store/store.js';
import { MemoryAlertStore } from '../../src/alerts/store/store-memory.js';
import { AlertTicker, type TickerOptions } from '../../src/alerts/ticker.js';
import type { OutMessage, UserRef } from '../../src/chat/types.js';
import { createLogger } from '../../src/log/logger.js';
import { createRampClient } from '../../src/ramp/index.js';
import type { RampClient } from '../../src/ramp/types.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';

export const silent = () => createLogger({ level: 'silent' });

export interface Told {
  user: UserRef;
  message: OutMessage;
}

export interface Rig {
  sandbox: Sandbox;
  ramp: RampClient;
  redis: RedisClientType;
  prefix: string;
  clock: { now: number };
  backend: Backend;
  /** The store under test: a new Redis store on the rig's prefix each call, or the rig's one memory store. */
  store(): AlertStorage;
  /** A Redis store on the rig's prefix, for what only Redis has (keys, memory use). */
  redisStore(): AlertStore;
  ticker(opts?: Partial<TickerOptions>, told?: Told[]): AlertTicker;
  close(): Promise<void>;
}

export type Backend = 'redis' | 'memory';
export const backends: Backend[] = ['redis', 'memory'];

export async function rig(backend: Backend = 'redis'): Promise<Rig> {
  const sandbox = await startSandbox({ port: 0, settleMs: 50 });
  const ramp = createRampClient({
    baseUrl: sandbox.url,
    apiKey: sandbox.options.apiKey,
    apiSecret: sandbox.options.apiSecret,
    timeoutMs: 5_000,
  });
  const redis = await connectTestRedis();
  const prefix = uniquePrefix('alerts');
  const clock = { now: Date.parse('2026-11-26T12:00:00Z') };
  const now = () => clock.now;
  const redisStore = () => new AlertStore(redis, prefix, silent(), now);
  const memory = new MemoryAlertStore(now);
  const store = () => (backend === 'redis' ? redisStore() : memory);
  return {
    sandbox,
    ramp,
    redis,
    prefix,
    clock,
    backend,
    store,
    redisStore,
    ticker: (opts = {}, told = []) =>
      new AlertTicker({
        store: store(),
        ramp,
        notifier: {
          notify: async (user, message) => {
            told.push({ user, message });
          },
        },
        log: silent(),
        intervalMs: 1000,
        rearmPct: 0.5,
        leaseMs: 2000,
        now,
        ...opts,
      }),
    close: async () => {
      await flushPrefix(redis, prefix);
      await redis.quit();
      await sandbox.close();
    },
  };
}

export const user = (n: number | string): UserRef => ({ channel: 'terminal', id: String(n) });
