/**
 * `npx tsx bench/outbox.ts`: what the durable outbox costs per message against sending straight
 * through the outbound line, on one Redis (REDIS_URL, default redis://127.0.0.1:6379, under a
 * prefix of its own that is deleted afterwards). Both send BENCH_OUTBOX_MESSAGES (2,000) rendered
 * Telegram messages to BENCH_OUTBOX_CHATS (200) chats through a line paced on Redis (limits high
 * enough not to wait), with a send that answers at once. Prints, per message: Redis round trips,
 * bytes written to Redis (script arguments), CPU time, and the Redis memory a waiting message holds.
 */
import { randomBytes } from 'node:crypto';
import { createClient, type RedisClientType } from 'redis';
import {
  createOutboundLine,
  createOutbox,
  type OutboundLine,
  redisOutboxStore,
  redisSlotBook,
} from '../src/outbound/index.js';

const N = Number(process.env.BENCH_OUTBOX_MESSAGES ?? 2000);
const CHATS = Number(process.env.BENCH_OUTBOX_CHATS ?? 200);
const body = (i: number) => ({
  k: 'call',
  m: 'sendMessage',
  p: {
    chat_id: 1000 + (i % CHATS),
    text: `Order RC-${i} is <b>settled</b>: 1,000.00 KES for 7.62 USDT`,
    parse_mode: 'HTML',
  },
});

/** Counts the scripts a client runs and the bytes of their arguments. */
function counted(redis: RedisClientType) {
  const stats = { trips: 0, bytes: 0 };
  const wrap =
    (f: (...a: never[]) => Promise<unknown>) =>
    (script: string, opts: { keys: string[]; arguments: string[] }) => {
      stats.trips++;
      stats.bytes += [...opts.keys, ...opts.arguments].reduce((n, s) => n + Buffer.byteLength(s), 0);
      return (f as (s: string, o: unknown) => Promise<unknown>)(script, opts);
    };
  const client = { eval: wrap(redis.eval.bind(redis)), evalSha: wrap(redis.evalSha.bind(redis)) };
  return { client: client as unknown as RedisClientType, stats };
}

const line = (client: RedisClientType, p: string): OutboundLine =>
  createOutboundLine({
    line: [{ key: `${p}bot`, intervalMs: 0.01, burst: 1000 }],
    book: redisSlotBook(client, { hold: `${p}hold`, slow: `${p}slow` }),
    horizons: { reply: 60_000, outcome: 60_000, progress: 60_000, desk: 60_000 },
  });
const lanes = (p: string) => (key: string) => [{ key: `${p}chat:${key}`, intervalMs: 0.01, burst: 1000 }];

async function run(mode: 'direct' | 'outbox', redis: RedisClientType, p: string) {
  const { client, stats } = counted(redis);
  const l = line(client, p);
  const send = async () => ({ ok: true, result: { message_id: 1 } });
  const outbox = createOutbox({
    store: redisOutboxStore(client, `${p}ob:`),
    line: l,
    lanesOf: lanes(p),
    send,
    pollMs: 60_000,
  });
  await outbox.start();
  stats.trips = 0;
  stats.bytes = 0;
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: N }, (_, i) => {
      const key = String(1000 + (i % CHATS));
      return mode === 'outbox'
        ? outbox.submit(key, 'reply', body(i))
        : l.run({ key, cls: 'reply', own: lanes(p)(key) }, send);
    }),
  );
  const ms = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  await outbox.handOver(100);
  return { trips: stats.trips / N, bytes: stats.bytes / N, cpuUs: (used.user + used.system) / N, ms };
}

async function waitingBytes(redis: RedisClientType, p: string): Promise<number> {
  const store = redisOutboxStore(redis, `${p}w:`);
  await store.beat('bench', 60_000);
  for (let i = 0; i < 100; i++)
    await store.put({ key: String(1000 + i), cls: 'reply', body: body(i) }, 'bench');
  let bytes = 0;
  for await (const keys of redis.scanIterator({ MATCH: `${p}w:*`, COUNT: 500 })) {
    for (const k of Array.isArray(keys) ? keys : [keys]) bytes += Number((await redis.memoryUsage(k)) ?? 0);
  }
  return bytes / 100;
}

async function main() {
  const redis = createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }) as RedisClientType;
  await redis.connect();
  const p = `bench-outbox:${randomBytes(3).toString('hex')}:`;
  try {
    const direct = await run('direct', redis, `${p}d:`);
    const outbox = await run('outbox', redis, `${p}o:`);
    const fmt = (r: typeof direct) =>
      `${r.trips.toFixed(2)} round trips, ${Math.round(r.bytes)} B sent to Redis, ${r.cpuUs.toFixed(0)} µs CPU per message (${N} in ${r.ms.toFixed(0)} ms)`;
    process.stdout.write(`direct through the line: ${fmt(direct)}\n`);
    process.stdout.write(`through the outbox:      ${fmt(outbox)}\n`);
    process.stdout.write(
      `the outbox adds ${(outbox.trips - direct.trips).toFixed(2)} round trips, ${Math.round(outbox.bytes - direct.bytes)} B and ${(outbox.cpuUs - direct.cpuUs).toFixed(0)} µs CPU per message; a waiting message holds ${Math.round(await waitingBytes(redis, p))} B of Redis memory\n`,
    );
  } finally {
    for await (const keys of redis.scanIterator({ MATCH: `${p}*`, COUNT: 500 })) {
      const list = Array.isArray(keys) ? keys : [keys];
      if (list.length) await redis.del(list);
    }
    await redis.quit();
  }
}

void main();
