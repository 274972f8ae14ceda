/**
 * Tracker benchmark: BENCH_ORDERS pending on-ramp orders (phones ending 0002 never settle) tracked by
 * this one process against the sandbox (in a child process), then the floor: plain HTTP GETs of the
 * same status endpoint at the same rate and concurrency from this process. Prints figures; asserts
 * nothing. Env: BENCH_ORDERS (10000), BENCH_SECONDS per phase (20), BENCH_INTERVAL_MS (5000),
 * BENCH_CONCURRENCY (200; the poll is latency-bound, so this is the throughput knob), REDIS_URL
 * (redis://127.0.0.1:6379). The tracker schedules with the sweep (one sorted set), its only scheduler.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createClient, type RedisClientType } from 'redis';
import type { TrackedOrder } from '../src/flows/types.js';
import { createLogger } from '../src/log/logger.js';
import { createRampClient } from '../src/ramp/index.js';
import { createTracker } from '../src/tracker/index.js';
import { floorPhase, type PhaseFigures, percentile } from './poll-floor.js';
import { formatKeyBytes, type KeyBytes, measureKeys } from './redis-keys.js';

const int = (name: string, def: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? Math.round(v) : def;
};

export interface TrackerBenchOptions {
  orders: number;
  seconds: number;
  intervalMs: number;
  concurrency: number;
  redisUrl: string;
}

export const benchOptionsFromEnv = (): TrackerBenchOptions => ({
  orders: int('BENCH_ORDERS', 10_000),
  seconds: int('BENCH_SECONDS', 20),
  intervalMs: int('BENCH_INTERVAL_MS', 5_000),
  concurrency: int('BENCH_CONCURRENCY', 200),
  redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
});

export interface TrackerBenchFigures {
  options: TrackerBenchOptions;
  targetPollsPerSecond: number;
  tracker: PhaseFigures;
  floor: PhaseFigures;
  /** INFO used_memory delta over tracking the orders (moves with other clients of the same Redis). */
  redisBytesPerOrder: number;
  /** MEMORY USAGE of every key under the prefix, once the orders are tracked and after the polls. */
  keysTracked: KeyBytes;
  keysPolled: KeyBytes;
  setupSeconds: number;
}

async function startSandboxChild(): Promise<{
  proc: ChildProcess;
  url: string;
  apiKey: string;
  apiSecret: string;
}> {
  const file = fileURLToPath(new URL('./sandbox-child.ts', import.meta.url));
  const proc = spawn(process.execPath, ['--import', 'tsx', file], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let buf = '';
    proc.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const line = buf.split('\n')[0];
      if (buf.includes('\n') && line) resolve({ proc, ...JSON.parse(line) });
    });
    proc.once('exit', (code) => reject(new Error(`sandbox child exited (${code})`)));
  });
}

async function usedMemory(redis: RedisClientType): Promise<number> {
  const info = await redis.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0);
}

async function deletePrefix(redis: RedisClientType, prefix: string) {
  for await (const keys of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) {
    const list = Array.isArray(keys) ? keys : [keys];
    if (list.length) await redis.del(list);
  }
}

async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

export async function runTrackerBench(opts: TrackerBenchOptions): Promise<TrackerBenchFigures> {
  const setupStart = performance.now();
  const sandbox = await startSandboxChild();
  const prefix = `bench:tracker:${randomBytes(3).toString('hex')}:`;
  const redis = createClient({ url: opts.redisUrl }) as RedisClientType;
  await redis.connect();
  const ramp = createRampClient({
    baseUrl: sandbox.url,
    apiKey: sandbox.apiKey,
    apiSecret: sandbox.apiSecret,
    timeoutMs: 30_000,
  });
  try {
    // Pending orders in the sandbox (created over HTTP, phones ending 0002 never settle).
    const wallet = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';
    const token = { symbol: 'USDT', address: '0x05D032ac25d322df992303dCa074EE7392C117b9', decimals: 6 };
    const orders: TrackedOrder[] = [];
    await inBatches(
      Array.from({ length: opts.orders }, (_, i) => i),
      100,
      async (i) => {
        const phone = `2547${String(i).padStart(4, '0').slice(-4)}0002`;
        const created = await ramp.createOnrampOrder({
          phone,
          amountKes: 100,
          userAddress: wallet,
          tokenAddress: token.address,
        });
        orders.push({
          orderId: created.orderId,
          side: 'onramp',
          user: { channel: 'terminal', id: `bench-${i}` },
          network: 'lisk',
          walletAddress: wallet,
          token,
          amountKes: 100,
          phone,
          createdAt: Date.now(),
        });
      },
    );

    let measuring = false;
    let polls = 0;
    const lags: number[] = [];
    const tracker = createTracker({
      ramp,
      notifier: { notify: async () => {} },
      logger: createLogger({ level: 'warn' }),
      redisUrl: opts.redisUrl,
      prefix,
      config: {
        pollIntervalMs: opts.intervalMs,
        onrampHorizonMs: 24 * 3600_000,
        offrampHorizonMs: 24 * 3600_000,
        concurrency: opts.concurrency,
        project: 'bench',
      },
      onPoll: (s) => {
        if (!measuring) return;
        polls++;
        lags.push(s.lagMs);
      },
    });

    const memBefore = await usedMemory(redis);
    await inBatches(orders, 200, (o) => tracker.track(o));
    const memAfter = await usedMemory(redis);
    const orderIds = orders.map((o) => o.orderId);
    const keysTracked = await measureKeys(redis, prefix, orderIds);
    const setupSeconds = (performance.now() - setupStart) / 1000;

    await tracker.start();
    await new Promise((r) => setTimeout(r, Math.min(opts.intervalMs, 5_000)));
    measuring = true;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, opts.seconds * 1000));
    measuring = false;
    const cpu = process.cpuUsage(cpu0);
    const elapsed = (performance.now() - t0) / 1000;
    await tracker.stop();
    const keysPolled = await measureKeys(redis, prefix, orderIds);
    lags.sort((a, b) => a - b);
    const trackerFigures: PhaseFigures = {
      polls,
      pollsPerSecond: polls / elapsed,
      lagP50Ms: percentile(lags, 50),
      lagP99Ms: percentile(lags, 99),
      cpuUsPerPoll: polls ? (cpu.user + cpu.system) / polls : 0,
    };

    const floor = await floorPhase(
      orders.length,
      opts.intervalMs,
      opts.concurrency,
      opts.seconds,
      (i) => `${sandbox.url}/api/onramp-order-status/${orders[i]!.orderId}`,
      { 'x-api-key': sandbox.apiKey, 'x-api-secret': sandbox.apiSecret },
    );

    return {
      options: opts,
      targetPollsPerSecond: opts.orders / (opts.intervalMs / 1000),
      tracker: trackerFigures,
      floor,
      redisBytesPerOrder: (memAfter - memBefore) / opts.orders,
      keysTracked,
      keysPolled,
      setupSeconds,
    };
  } finally {
    await deletePrefix(redis, prefix);
    await redis.quit();
    sandbox.proc.kill('SIGTERM');
  }
}

export function formatTrackerFigures(f: TrackerBenchFigures): string {
  const n = (x: number, d = 0) =>
    x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  const row = (name: string, p: PhaseFigures) =>
    `  ${name.padEnd(22)} ${n(p.pollsPerSecond, 1).padStart(9)} /s  lag p50 ${n(p.lagP50Ms).padStart(5)} ms  p99 ${n(p.lagP99Ms).padStart(6)} ms  CPU ${n(p.cpuUsPerPoll).padStart(5)} µs/poll  (${n(p.polls)} polls)`;
  const o = f.options;
  return [
    `Tracker benchmark: ${n(o.orders)} pending orders, interval ${n(o.intervalMs)} ms, concurrency ${o.concurrency}, ${o.seconds} s per phase`,
    `  target                 ${n(f.targetPollsPerSecond, 1).padStart(9)} /s`,
    row('tracker (sweep+Redis)', f.tracker),
    row('floor (plain GETs)', f.floor),
    `  tracker / floor        rate ${n(f.tracker.pollsPerSecond / Math.max(f.floor.pollsPerSecond, 1e-9), 2)}x, CPU per poll ${n(f.tracker.cpuUsPerPoll / Math.max(f.floor.cpuUsPerPoll, 1e-9), 1)}x`,
    `  achieved / target      tracker ${n((100 * f.tracker.pollsPerSecond) / f.targetPollsPerSecond, 1)} %, floor ${n((100 * f.floor.pollsPerSecond) / f.targetPollsPerSecond, 1)} %`,
    `  Redis memory           ${n(f.redisBytesPerOrder)} bytes per tracked order (INFO used_memory delta)`,
    formatKeyBytes('keys, once tracked', f.keysTracked),
    formatKeyBytes('keys, after the polls', f.keysPolled),
    `  setup                  ${n(f.setupSeconds, 1)} s (creating and tracking the orders)`,
  ].join('\n');
}
