/**
 * Standing buys: 100,000 plans due in the same minute on one Redis (`npx tsx bench/savings.ts`;
 * REDIS_URL, default redis://127.0.0.1:6379; SAVINGS_BENCH_PLANS to change the count).
 *
 * Measures, in one run: Redis bytes per plan (MEMORY USAGE SAMPLES 0 of every key under the run's
 * prefix, divided by the plans: plan JSON, the user's index, the due set's share, the run record);
 * the time from the due minute to the last reminder handed to the channel and the CPU per reminder,
 * with the real sweep (src/savings/sweep.ts) and run handler (src/savings/remind.ts) and a sink as
 * the channel; and the least work that could do it (one ZRANGEBYSCORE take per batch, one SET NX and
 * one send per plan) over the same number of plans, with the ratio. The channel's own pacing is not
 * simulated: at Telegram's 27 messages a second per bot (TELEGRAM_SENDS_PER_SECOND) delivering
 * 100,000 reminders takes 100,000 / 27 s whatever the scheduler does; that floor is printed beside.
 */
import { randomBytes } from 'node:crypto';
import { createClient, type RedisClientType } from 'redis';
import type { OutMessage, UserRef } from '../src/chat/types.js';
import { createLogger } from '../src/log/logger.js';
import type { Plan } from '../src/savings/plan.js';
import { handleDue } from '../src/savings/remind.js';
import { createPlanStore } from '../src/savings/store.js';
import { createDueSweep } from '../src/savings/sweep.js';

const N = Number(process.env.SAVINGS_BENCH_PLANS ?? 100_000);
const URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const CONCURRENCY = 500;
const TELEGRAM_PER_SECOND = 27;
const WALLET = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';
const logger = createLogger({ level: 'silent' });

const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

async function connect(): Promise<RedisClientType> {
  const c = createClient({ url: URL }) as RedisClientType;
  await c.connect();
  return c;
}

async function keysUnder(redis: RedisClientType, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const batch of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 2000 }))
    keys.push(...(Array.isArray(batch) ? batch : [batch]).map(String));
  return keys;
}

/** Bytes of every key under the prefix, by kind, per plan. */
async function bytesPerPlan(redis: RedisClientType, prefix: string) {
  const keys = await keysUnder(redis, prefix);
  const byKind: Record<string, number> = {};
  let total = 0;
  for (let i = 0; i < keys.length; i += 1000) {
    const batch = keys.slice(i, i + 1000);
    const sizes = await Promise.all(batch.map((k) => redis.memoryUsage(k, { SAMPLES: 0 })));
    batch.forEach((k, j) => {
      const kind = k.slice(prefix.length).split(':').slice(0, 2).join(':');
      byKind[kind] = (byKind[kind] ?? 0) + (sizes[j] ?? 0);
      total += sizes[j] ?? 0;
    });
  }
  return {
    perPlan: total / N,
    byKind: Object.fromEntries(Object.entries(byKind).map(([k, v]) => [k, Math.round((v / N) * 10) / 10])),
  };
}

const plan = (i: number, due: number): Omit<Plan, 'id'> => ({
  v: 1,
  u: `telegram:${100_000_000 + i}`,
  t: 'USDT',
  n: 'polygon',
  w: WALLET,
  ph: `2547${String(10_000_000 + i).slice(-8)}`,
  kes: 500,
  c: 'w5@9',
  s: 'a',
  due,
  no: 3,
  past: ['3|2026-W47|p|D-40bvs-OM', '2|2026-W46|s'],
});

/** The real thing: sweep + run handler, one process, the channel a sink. */
async function realRun(redis: RedisClientType, prefix: string) {
  const store = createPlanStore(
    async () => redis,
    prefix,
    () => {},
  );
  const due = Date.now() + 2_000;
  for (let i = 0; i < N; i += 2000)
    await Promise.all(
      Array.from({ length: Math.min(2000, N - i) }, (_, j) => store.create(plan(i + j, due), 5)),
    );
  const seeded = await bytesPerPlan(redis, prefix);
  let sent = 0;
  let last = 0;
  let cpuAtDue = 0;
  const done = new Promise<void>((resolve) => {
    const sweep = createDueSweep({
      redis: async () => redis,
      key: store.dueKey,
      concurrency: CONCURRENCY,
      sweepMs: 50,
      logger,
    });
    const notify = async (_u: UserRef, _m: OutMessage) => {
      if (++sent === N) {
        last = Date.now();
        void sweep.stop().then(resolve);
      }
    };
    sweep.start((id) =>
      handleDue(
        { store, notify, estimate: async () => '3.86', windowMs: 6 * 3600_000, now: Date.now, logger },
        id,
      ),
    );
  });
  while (Date.now() < due) await new Promise((r) => setTimeout(r, 5));
  cpuAtDue = cpuMs();
  await done;
  const cpu = cpuMs() - cpuAtDue;
  const after = await bytesPerPlan(redis, prefix);
  return { seconds: (last - due) / 1000, cpuMsPerReminder: cpu / N, seeded, after };
}

/** The least work: take due ids in batches, SET NX a run record, send. */
async function leastWork(redis: RedisClientType, prefix: string) {
  const key = `${prefix}due`;
  const due = Date.now();
  for (let i = 0; i < N; i += 5000)
    await redis.zAdd(
      key,
      Array.from({ length: Math.min(5000, N - i) }, (_, j) => ({ score: due, value: `p${i + j}` })),
    );
  const start = Date.now();
  const cpu0 = cpuMs();
  let sent = 0;
  const send = async () => {
    sent++;
  };
  for (;;) {
    const ids = await redis.zRangeByScore(key, '-inf', Date.now(), {
      LIMIT: { offset: 0, count: CONCURRENCY },
    });
    if (!ids.length) break;
    await redis.zRem(key, ids);
    await Promise.all(
      ids.map(async (id) => {
        const ok = await redis.set(`${prefix}r:${id}`, 'sent', {
          condition: 'NX',
          expiration: { type: 'EX', value: 600 },
        });
        if (ok === 'OK') await send();
      }),
    );
  }
  return { seconds: (Date.now() - start) / 1000, cpuMsPerReminder: (cpuMs() - cpu0) / N, sent };
}

async function main() {
  const redis = await connect();
  // As long as the default prefix (`rampchat:`, 9 characters): the key names are part of the bytes.
  const prefix = `bs${randomBytes(3).toString('hex')}:`;
  const basePrefix = `bl${randomBytes(3).toString('hex')}:`;
  try {
    console.log(
      `standing buys: ${N.toLocaleString('en')} plans due in the same minute, one process, concurrency ${CONCURRENCY}, ${URL}`,
    );
    const real = await realRun(redis, prefix);
    const base = await leastWork(redis, basePrefix);
    const floor = N / TELEGRAM_PER_SECOND;
    console.log(
      `Redis bytes per plan, seeded (plan JSON, due set share):             ${real.seeded.perPlan.toFixed(0)} ${JSON.stringify(real.seeded.byKind)}`,
    );
    console.log(
      `Redis bytes per plan, after its run (with the run record):            ${real.after.perPlan.toFixed(0)} ${JSON.stringify(real.after.byKind)}`,
    );
    console.log(
      `due minute → last reminder handed to the channel: ${real.seconds.toFixed(2)} s (${Math.round(N / real.seconds).toLocaleString('en')}/s)`,
    );
    console.log(`CPU per reminder (this process): ${(real.cpuMsPerReminder * 1000).toFixed(0)} µs`);
    console.log(
      `least work (take + SET NX + send): ${base.seconds.toFixed(2)} s, CPU ${(base.cpuMsPerReminder * 1000).toFixed(0)} µs per reminder`,
    );
    console.log(
      `ratio real / least work: time ×${(real.seconds / base.seconds).toFixed(1)}, CPU ×${(real.cpuMsPerReminder / base.cpuMsPerReminder).toFixed(1)}`,
    );
    console.log(
      `channel floor: at ${TELEGRAM_PER_SECOND} messages/s per bot, ${N.toLocaleString('en')} reminders take ${(floor / 60).toFixed(1)} min to deliver, whatever the scheduler does`,
    );
  } finally {
    for (const p of [prefix, basePrefix]) {
      const keys = await keysUnder(redis, p);
      for (let i = 0; i < keys.length; i += 1000) await redis.del(keys.slice(i, i + 1000));
    }
    await redis.quit();
  }
}

await main();
