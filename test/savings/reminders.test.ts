/**
 * The standing buys' reminders on real Redis: a due plan gets exactly one reminder; three sweeping
 * instances on one Redis, one killed after claiming (its notify never resolves, its timers stop as
 * with SIGKILL) and Redis restarted (SIGKILL, AOF) during the due minute: every run reminded once,
 * none twice, none missed; three periods of downtime give one reminder, not three; a reminder not
 * answered within its window is recorded as missed; an invalid wallet pauses the plan and asks once;
 * an unreadable record is skipped without stopping the sweep. The single-process cases run against
 * the in-memory store and sweep of local mode too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RedisClientType } from 'redis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { OutMessage, UserRef } from '../../src/chat/types.js';
import { createLogger } from '../../src/log/logger.js';
import type { Plan } from '../../src/savings/plan.js';
import { handleDue } from '../../src/savings/remind.js';
import { nextDue, parseCadence } from '../../src/savings/schedule.js';
import { createPlanStore, type PlanStore } from '../../src/savings/store.js';
import { createMemoryPlanStore } from '../../src/savings/store-memory.js';
import { createDueSweep, type DueSweep } from '../../src/savings/sweep.js';
import { createMemoryDueSweep } from '../../src/savings/sweep-memory.js';
import { connectOnFirstUse, createResilientClient } from '../../src/store/connection/connect.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';
import { freePort, type OwnRedis, ownRedis } from '../helpers/redis-server.js';
import { waitFor } from '../helpers/wait.js';
import { weeklyPlan } from './plan-fixture.js';

const logger = createLogger({ level: 'silent' });
const dir = mkdtempSync(join(tmpdir(), 'rampchat-savings-'));
const prefixes: string[] = [];
const running: Array<{ sweep: DueSweep; client?: RedisClientType }> = [];
let server: OwnRedis | undefined;

afterEach(async () => {
  for (const r of running.splice(0)) {
    r.sweep.abandon();
    if (r.client?.isOpen) r.client.destroy();
  }
  await server?.kill();
  server = undefined;
});
afterAll(async () => {
  const redis = await connectTestRedis();
  for (const p of prefixes) await flushPrefix(redis, p);
  await redis.quit();
  rmSync(dir, { recursive: true, force: true });
});

function plan(name: string, due: number, over: Partial<Plan> = {}): Omit<Plan, 'id'> {
  return weeklyPlan(`telegram:${name}`, due, over);
}

interface Sent {
  user: UserRef;
  message: OutMessage;
  by: string;
}

function instance(
  opts: { url: string; prefix: string; name: string; windowMs?: number; leaseMs?: number; memory?: boolean },
  notify: (user: UserRef, message: OutMessage) => Promise<void>,
  bad: string[] = [],
): { store: PlanStore; sweep: DueSweep; client?: RedisClientType } {
  let store: PlanStore;
  let sweep: DueSweep;
  let client: RedisClientType | undefined;
  if (opts.memory) {
    const memory = createMemoryPlanStore((id) => bad.push(id));
    store = memory;
    sweep = createMemoryDueSweep({ due: memory.due, concurrency: 50, sweepMs: 25, logger });
  } else {
    client = createResilientClient({ url: opts.url, name: opts.name, queueWhileDown: true });
    const redis = connectOnFirstUse(client);
    store = createPlanStore(redis, opts.prefix, (id) => bad.push(id));
    sweep = createDueSweep({
      redis,
      key: store.dueKey,
      concurrency: 50,
      leaseMs: opts.leaseMs ?? 1_000,
      sweepMs: 25,
      logger,
    });
  }
  sweep.start((id) =>
    handleDue(
      {
        store,
        notify,
        estimate: async () => '3.86',
        windowMs: opts.windowMs ?? 3600_000,
        now: Date.now,
        logger,
      },
      id,
    ),
  );
  const r = { store, sweep, client };
  running.push(r);
  return r;
}

const prefix = () => {
  const p = uniquePrefix('save');
  prefixes.push(p);
  return p;
};

describe('standing buy reminders', () => {
  it('three instances, one killed after claiming and Redis restarted in the due minute: each run reminded once, none missed', async () => {
    const port = await freePort();
    server = ownRedis({ port, dir: mkdtempSync(join(dir, 'r-')), aof: true });
    await server.start();
    const p = 'kill:';
    const delivered = new Map<string, string[]>();
    const claimedByKilled: string[] = [];
    const deliver = (by: string) => async (_user: UserRef, message: OutMessage) => {
      const run = message.buttons![0]![0]!.id;
      delivered.set(run, [...(delivered.get(run) ?? []), by]);
    };
    // The first instance claims and then hangs in notify forever, as a process killed mid-send.
    const killed = instance({ url: server.url, prefix: p, name: 'killed' }, (user) => {
      claimedByKilled.push(user.id);
      return new Promise<void>(() => {});
    });
    const seed = await connectOnFirstUse(createResilientClient({ url: server.url, name: 'seed' }))();
    const store = createPlanStore(
      async () => seed,
      p,
      () => {},
    );
    const N = 60;
    const due = Date.now() + 300;
    const ids: string[] = [];
    for (let i = 0; i < N; i++) ids.push((await store.create(plan(`k${i}`, due + (i % 10) * 30), 5))!.id);
    await waitFor('the killed instance to claim runs', () => claimedByKilled.length >= 5);
    // SIGKILL: its timers stop, its connection drops, its promises are abandoned.
    killed.sweep.abandon();
    killed.client?.destroy();
    instance({ url: server.url, prefix: p, name: 'b' }, deliver('b'));
    instance({ url: server.url, prefix: p, name: 'c' }, deliver('c'));
    // Redis restarts in the due minute (AOF: it comes back with its data).
    await server.kill();
    await new Promise((r) => setTimeout(r, 300));
    await server.start();
    await waitFor('every run reminded', () => delivered.size === N, 30_000);
    // Past two leases: nothing more comes.
    await new Promise((r) => setTimeout(r, 2_500));
    const twice = [...delivered.entries()].filter(([, by]) => by.length > 1);
    expect(twice).toEqual([]);
    expect(delivered.size).toBe(N);
    expect(claimedByKilled.length).toBeGreaterThan(0);
    // Each killed claim was taken over by b or c.
    for (const user of claimedByKilled) {
      const id = ids[Number(user.slice(1))]!;
      expect([...delivered.keys()].some((k) => k.includes(`:${id}:`))).toBe(true);
    }
    for (const id of ids) expect((await store.get(id))?.run?.s).toBe('sent');
    seed.destroy();
  }, 60_000);

  it('an invalid wallet pauses the plan and asks once; an unreadable record is skipped', async () => {
    const p = prefix();
    const sent: Sent[] = [];
    const bad: string[] = [];
    const a = instance(
      { url: testRedisUrl(), prefix: p, name: 'a' },
      async (user, message) => {
        sent.push({ user, message, by: 'a' });
      },
      bad,
    );
    const redis = await connectTestRedis();
    await redis.set(`${p}sv:p:broken`, '{"v":1,"id":"broken"');
    await redis.zAdd(`${p}sv:due`, { score: Date.now(), value: 'broken' });
    const badw = (await a.store.create(plan('badw', Date.now(), { w: '0x1234' }), 5))!;
    await a.store.create(plan('good', Date.now()), 5);
    await waitFor('the ask and the good reminder', () => sent.length >= 2);
    await new Promise((r) => setTimeout(r, 600));
    expect(sent.map((s) => s.message.texts[0]!.id).sort()).toEqual([
      'savings-invalid-wallet',
      'savings-reminder',
    ]);
    expect((await a.store.get(badw.id))?.s).toBe('p');
    expect(bad).toContain('broken');
    // Out of the due set: paused and unreadable plans are not swept again.
    expect(await redis.zScore(`${p}sv:due`, badw.id)).toBeNull();
    expect(await redis.zScore(`${p}sv:due`, 'broken')).toBeNull();
    await redis.quit();
  });
});

describe.each([{ memory: false }, { memory: true }])(
  'standing buy reminders, one process (memory: $memory)',
  ({ memory }) => {
    it('a due plan gets exactly one reminder, with Pay now and Skip, and moves to its next week', async () => {
      const p = prefix();
      const sent: Sent[] = [];
      const a = instance({ url: testRedisUrl(), prefix: p, name: 'a', memory }, async (user, message) => {
        sent.push({ user, message, by: 'a' });
      });
      const due = Date.now() + 200;
      const p1 = (await a.store.create(plan('p1', due), 5))!;
      await waitFor('the reminder', () => sent.length === 1);
      await new Promise((r) => setTimeout(r, 500));
      expect(sent).toHaveLength(1);
      const m = sent[0]!.message;
      expect(sent[0]!.user).toEqual({ channel: 'telegram', id: 'p1' });
      expect(m.texts[0]).toMatchObject({
        id: 'savings-reminder',
        args: { kes: '500', about: '3.86', token: 'USDT' },
      });
      const ids = m.buttons!.flat().map((b) => b.id);
      expect(ids[0]).toBe(`save:pay:${p1.id}:${ids[0]!.split(':')[3]}`);
      expect(ids[0]).toMatch(/:\d{4}-W\d{2}$/);
      expect(ids[1]).toMatch(new RegExp(`^save:skip:${p1.id}:`));
      const stored = await waitFor('the run recorded', async () => {
        const s = await a.store.get(p1.id);
        return s?.run?.s === 'sent' ? s : undefined;
      });
      expect(stored.no).toBe(1);
      expect(stored.due).toBe(nextDue(parseCadence('w5@9')!, due));
    });

    it('after three periods of downtime: one reminder for the latest period, never a backlog', async () => {
      const p = prefix();
      const sent: Sent[] = [];
      const a = instance({ url: testRedisUrl(), prefix: p, name: 'a', memory }, async (user, message) => {
        sent.push({ user, message, by: 'a' });
      });
      const weekly = parseCadence('w5@9')!;
      const owed = nextDue(weekly, Date.now() - 22 * 24 * 3600_000);
      const down = (await a.store.create(plan('down', owed), 5))!;
      await waitFor('the reminder', () => sent.length === 1);
      await new Promise((r) => setTimeout(r, 600));
      expect(sent).toHaveLength(1);
      const s = (await a.store.get(down.id))!;
      expect(s.no).toBe(1);
      expect(s.due).toBeGreaterThan(Date.now());
      expect(s.due - Date.now()).toBeLessThanOrEqual(7 * 24 * 3600_000);
    });

    it('a reminder not answered within its window is recorded as missed', async () => {
      const p = prefix();
      const a = instance(
        { url: testRedisUrl(), prefix: p, name: 'a', memory, windowMs: 400 },
        async () => {},
      );
      const quiet = (await a.store.create(plan('quiet', Date.now()), 5))!;
      const missed = await waitFor('the run missed', async () => {
        const s = await a.store.get(quiet.id);
        return s?.run?.s === 'missed' ? s : undefined;
      });
      expect(missed.run).toMatchObject({ no: 1, s: 'missed' });
    });
  },
);
