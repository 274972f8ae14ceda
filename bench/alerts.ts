/**
 * `npx tsx bench/alerts.ts` (or `npm run bench -- alerts`): 100,000 rate alerts over 12
 * token/network pairs, both sides, on one Redis (REDIS_URL, default redis://127.0.0.1:6379, under
 * a prefix of its own that is deleted afterwards) and the in-process sandbox ramp over HTTP. Prints
 * the ramp quotes per tick, Redis bytes per alert (MEMORY USAGE over every key / alerts), the time
 * one tick takes to find and claim the crossed alerts (10 % of them), CPU per fired alert, and the
 * same tick against the least work possible (one quote and one ZRANGEBYSCORE per feed).
 * BENCH_ALERTS (100000) and BENCH_ALERT_USERS (20000) change the size.
 */
import { randomBytes } from 'node:crypto';
import { createClient, type RedisClientType } from 'redis';
import type { Feed } from '../src/alerts/store/storage.js';
import { AlertStore } from '../src/alerts/store/store.js';
import { AlertTicker } from '../src/alerts/ticker.js';
import type { Network } from '../src/domain/types.js';
import type { AlertSide } from '../src/flows/types.js';
import { createLogger } from '../src/log/logger.js';
import { createRampClient } from '../src/ramp/index.js';
import { startSandbox } from '../src/sandbox/index.js';

export interface AlertBenchFigures {
  alerts: number;
  users: number;
  pairs: number;
  feeds: number;
  quoteCalls: number;
  bytesPerAlert: number;
  crossed: number;
  fired: number;
  /** The tick's quoting of every feed, and its finding and claiming of what crossed (ms). */
  quoteMs: number;
  claimMs: number;
  /** The least work: one quote per feed, then one ZRANGEBYSCORE per feed (ms). */
  leastQuoteMs: number;
  leastRangeMs: number;
  /** The whole tick, notices and "fired" marks included (ms). */
  tickMs: number;
  cpuUsPerFired: number;
  redisCpuUsPerFired: number;
}

const PAIRS: Array<[string, Network]> = [];

export async function runAlertBench(
  alerts = Number(process.env.BENCH_ALERTS ?? 100_000),
  users = Number(process.env.BENCH_ALERT_USERS ?? 20_000),
): Promise<AlertBenchFigures> {
  const log = createLogger({ level: 'silent' });
  const sandbox = await startSandbox({ port: 0, settleMs: 50 });
  const ramp = createRampClient({
    baseUrl: sandbox.url,
    apiKey: sandbox.options.apiKey,
    apiSecret: sandbox.options.apiSecret,
    timeoutMs: 10_000,
  });
  const redis = createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }) as RedisClientType;
  await redis.connect();
  const prefix = `bench-alerts:${randomBytes(3).toString('hex')}:`;
  try {
    // 12 listed token/network pairs, priced in KES (not KES-pegged, whose rate never moves).
    const listed = (await ramp.listAssets()).tokens;
    PAIRS.length = 0;
    for (const t of listed)
      if (PAIRS.length < 12 && !/KES/i.test(t.symbol)) PAIRS.push([t.symbol, t.network]);
    const rates = new Map<string, number>();
    for (const [token, network] of PAIRS)
      for (const side of ['below', 'above'] as AlertSide[]) {
        const q = await ramp.getQuote(
          side === 'below'
            ? { type: 'onramp', token, network, fiatCurrency: 'KES', amount: '1000' }
            : { type: 'offramp', token, network, fiatCurrency: 'KES', fiatAmount: '1000' },
        );
        rates.set(`${side}:${network}:${token}`, q.exchangeRate);
      }

    const store = new AlertStore(redis, prefix, log);
    // Levels spread so that one alert in ten is crossed at today's rate.
    let seed = 42;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let crossed = 0;
    const perUser = Math.ceil(alerts / users);
    for (let start = 0; start < alerts; start += 2000) {
      const batch: Promise<unknown>[] = [];
      for (let i = start; i < Math.min(alerts, start + 2000); i++) {
        const [token, network] = PAIRS[i % PAIRS.length]!;
        const side: AlertSide = Math.floor(i / PAIRS.length) % 2 ? 'above' : 'below';
        const rate = rates.get(`${side}:${network}:${token}`)!;
        const u = rand();
        const hit = u >= 0.9;
        if (hit) crossed++;
        const level =
          side === 'below'
            ? rate * (hit ? 1.001 + u / 100 : 0.9 + u / 10)
            : rate * (hit ? 0.999 - u / 100 : 1.01 + u / 10);
        batch.push(
          store.answer(
            { channel: 'telegram', id: String(100_000_000 + Math.floor(i / perUser)) },
            { action: 'set', token, network, side, level: Math.round(level * 1e4) / 1e4 },
          ),
        );
      }
      await Promise.all(batch);
    }

    let bytes = 0;
    for await (const keys of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) {
      for (const key of Array.isArray(keys) ? keys : [keys])
        bytes += (await redis.memoryUsage(key, { SAMPLES: 0 })) ?? 0;
    }

    const feeds = await store.feeds();
    // The least work: one quote per feed, then one ZRANGEBYSCORE per feed, nothing claimed.
    const quoteAll = () =>
      Promise.all(
        feeds.map((f: Feed) =>
          ramp.getQuote(
            f.side === 'below'
              ? {
                  type: 'onramp',
                  token: f.token,
                  network: f.network as Network,
                  fiatCurrency: 'KES',
                  amount: '1000',
                }
              : {
                  type: 'offramp',
                  token: f.token,
                  network: f.network as Network,
                  fiatCurrency: 'KES',
                  fiatAmount: '1000',
                },
          ),
        ),
      );
    // Once to warm the connections (as the tick's own quotes find them), then timed.
    await quoteAll();
    const least0 = performance.now();
    await quoteAll();
    const leastQuoteMs = performance.now() - least0;
    const range0 = performance.now();
    let leastFound = 0;
    await Promise.all(
      feeds.map(async (f: Feed) => {
        const rate = rates.get(`${f.side}:${f.network}:${f.token}`)!;
        const key = `${store.p}z:${f.key}`;
        const ids =
          f.side === 'below'
            ? await redis.zRangeByScore(key, rate, '+inf')
            : await redis.zRangeByScore(key, '-inf', rate);
        leastFound += ids.length;
      }),
    );
    const leastRangeMs = performance.now() - range0;
    if (leastFound !== crossed)
      throw new Error(`the least-work pass found ${leastFound} crossed, expected ${crossed}`);

    let fired = 0;
    const ticker = new AlertTicker({
      store,
      ramp,
      notifier: {
        notify: async () => {
          fired++;
        },
      },
      log,
      intervalMs: 60_000,
      rearmPct: 0.5,
      leaseMs: 30_000,
    });
    const quotes0 = sandbox.quoteCallCount();
    const redisCpu0 = await redisCpuUs(redis);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const report = await ticker.tick();
    const tickMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const redisCpu = (await redisCpuUs(redis)) - redisCpu0;
    return {
      alerts,
      users,
      pairs: PAIRS.length,
      feeds: report.feeds,
      quoteCalls: sandbox.quoteCallCount() - quotes0,
      bytesPerAlert: bytes / alerts,
      crossed,
      fired: report.fired,
      quoteMs: report.quoteMs,
      claimMs: report.claimMs,
      leastQuoteMs,
      leastRangeMs,
      tickMs,
      cpuUsPerFired: (cpu.user + cpu.system) / Math.max(1, fired),
      redisCpuUsPerFired: redisCpu / Math.max(1, fired),
    };
  } finally {
    for await (const keys of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) {
      const list = Array.isArray(keys) ? keys : [keys];
      if (list.length) await redis.del(list);
    }
    await redis.quit();
    await sandbox.close();
  }
}

async function redisCpuUs(redis: RedisClientType): Promise<number> {
  const info = await redis.info('cpu');
  const get = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return (get('used_cpu_sys') + get('used_cpu_user')) * 1e6;
}

export function formatAlertFigures(f: AlertBenchFigures): string {
  const r = (n: number, d = 1) => n.toFixed(d);
  return [
    `Rate alerts: ${f.alerts.toLocaleString('en')} alerts of ${f.users.toLocaleString('en')} users over ${f.pairs} token/network pairs, both sides (${f.feeds} feeds)`,
    `  ramp quote calls per tick      ${f.quoteCalls} (feeds watched: ${f.feeds}; one per feed, whatever the alerts)`,
    `  Redis bytes per alert          ${r(f.bytesPerAlert)} (MEMORY USAGE of every key / alerts)`,
    `  crossed / fired this tick      ${f.crossed} / ${f.fired}`,
    `  quote every feed               ${r(f.quoteMs)} ms (least work, the same quotes at once: ${r(f.leastQuoteMs)} ms; ratio ${r(f.quoteMs / f.leastQuoteMs, 2)})`,
    `  find and claim the crossed     ${r(f.claimMs)} ms (least work, one ZRANGEBYSCORE per feed, nothing claimed: ${r(f.leastRangeMs)} ms; ratio ${r(f.claimMs / f.leastRangeMs, 2)})`,
    `  both                           ${r(f.quoteMs + f.claimMs)} ms vs ${r(f.leastQuoteMs + f.leastRangeMs)} ms; ratio ${r((f.quoteMs + f.claimMs) / (f.leastQuoteMs + f.leastRangeMs), 2)}`,
    `  whole tick (notices, marks)    ${r(f.tickMs)} ms`,
    `  CPU per fired alert            ${r(f.cpuUsPerFired)} µs in the process, ${r(f.redisCpuUsPerFired)} µs in Redis`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(formatAlertFigures(await runAlertBench()));
  process.exit(0);
}
