/**
 * The recovery pass's lease across processes: a holder that died (its lease left in Redis, no one
 * renewing it) stalls recovery for one short lease, not until the next check; a live holder's lease
 * is renewed while its pass runs; a pass whose lease was taken from it stops and leaves the work due.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { AppParts } from '../../src/app/extensions.js';
import { startRecovery } from '../../src/app/follow-ups.js';
import type { Stops } from '../../src/app/stops.js';
import { createLogger } from '../../src/log/logger.js';
import type { JournalEntry, OrderJournal } from '../../src/recovery/journal.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';

const redis = await connectTestRedis();
const prefixes: string[] = [];
afterAll(async () => {
  for (const p of prefixes) await flushPrefix(redis, p);
  await redis.quit();
});

const LEASE_MS = 600;
const entry: JournalEntry = {
  kind: 'intent',
  at: Date.now(),
  order: {
    side: 'onramp',
    user: { channel: 'telegram', id: '1' },
    network: 'polygon',
    walletAddress: '0x1111111111111111111111111111111111111111',
    token: { symbol: 'USDT', address: '0x', decimals: 6 },
    amountKes: 500,
    phone: '254712345678',
  },
};

const secondWallet: JournalEntry = {
  ...entry,
  order: { ...entry.order, walletAddress: '0x2222222222222222222222222222222222222222' },
};

/** One process's recovery on a shared prefix; each history read at its ramp takes `readMs`. */
function process_(prefix: string, readMs: number, entries = [entry]) {
  const stops: Stops = [];
  let reads = 0;
  const journal: OrderJournal = {
    intent: async () => {},
    order: async () => {},
    final: async () => {},
    sale: async () => {},
    saleHash: async () => {},
    read: async () => entries,
  };
  const parts = {
    redis,
    journal,
    prefix,
    logger: createLogger({ level: 'silent' }),
    escalation: {},
    config: {
      RECOVERY_LEASE_MS: LEASE_MS,
      RECOVERY_CHECK_MS: 60_000,
      RECOVERY_HORIZON_MS: 3600_000,
    },
    ramp: {
      getHistory: async () => {
        reads += 1;
        await new Promise((r) => setTimeout(r, readMs));
        return { records: [] };
      },
    },
    tracker: { track: async () => {}, ownerOf: async () => undefined },
  } as unknown as AppParts;
  return {
    start: () => startRecovery(parts, 'unused', stops),
    reads: () => reads,
    stop: async () => {
      for (const s of stops.reverse()) await s();
    },
  };
}

const due = async (prefix: string) => (await redis.exists(`${prefix}recovery:todo`)) === 1;

describe('the recovery lease', () => {
  it('a holder that died holds recovery up for one short lease only', async () => {
    const prefix = uniquePrefix('lease');
    prefixes.push(prefix);
    // A process took the lease and was killed: Redis was found empty, the lease is left behind.
    await redis.set(`${prefix}epoch`, '1');
    await redis.set(`${prefix}recovery:todo`, '1');
    await redis.set(`${prefix}recovery:lease`, 'dead-holder', {
      expiration: { type: 'PX', value: LEASE_MS },
    });
    const b = process_(prefix, 0);
    const started = Date.now();
    expect(await b.start()).toBeUndefined();
    await expect.poll(() => due(prefix), { timeout: 3000, interval: 50 }).toBe(false);
    expect(Date.now() - started).toBeLessThan(LEASE_MS + 1000);
    expect(b.reads()).toBe(1);
    await b.stop();
  });

  it('a pass longer than the lease keeps it: no second process runs one beside it', async () => {
    const prefix = uniquePrefix('lease');
    prefixes.push(prefix);
    const a = process_(prefix, 4 * LEASE_MS);
    const b = process_(prefix, 0);
    const passA = a.start();
    await new Promise((r) => setTimeout(r, 100));
    expect(await b.start()).toBeUndefined();
    expect(await passA).toMatchObject({ wallets: 1 });
    await new Promise((r) => setTimeout(r, 200));
    expect(b.reads()).toBe(0);
    expect(await due(prefix)).toBe(false);
    await Promise.all([a.stop(), b.stop()]);
  });

  it('a pass whose lease was lost stops and leaves recovery due', async () => {
    const prefix = uniquePrefix('lease');
    prefixes.push(prefix);
    // Two wallets, each read slowly: the lease goes during the first.
    const a = process_(prefix, 2 * LEASE_MS, [entry, secondWallet]);
    const passA = a.start();
    await new Promise((r) => setTimeout(r, 100));
    await redis.set(`${prefix}recovery:lease`, 'someone-else', { expiration: { type: 'PX', value: 60_000 } });
    expect(await passA).toBeUndefined();
    expect(await due(prefix)).toBe(true);
    expect(await redis.get(`${prefix}recovery:lease`)).toBe('someone-else');
    expect(a.reads()).toBe(1);
    await a.stop();
  });
});
