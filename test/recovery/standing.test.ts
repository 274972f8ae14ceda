/**
 * Rate alerts and standing-buy plans survive an emptied Redis (real Redis): they are written to the
 * durable record outside Redis as users change them, and the recovery pass puts every one back,
 * where it fires or runs as before. A user whose alerts or plan could not come back (their slots
 * were taken meanwhile) is told once, however many passes run.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertRestorer, journaledAlerts } from '../../src/alerts/store/standing.js';
import { AlertStore } from '../../src/alerts/store/store.js';
import type { OutMessage, UserRef } from '../../src/chat/types.js';
import type { AlertsRequest } from '../../src/flows/types.js';
import { createLogger } from '../../src/log/logger.js';
import { backfillStanding, restoreStanding, type StandingSink } from '../../src/recovery/standing.js';
import { createStandingRecord, type StandingRecord } from '../../src/recovery/standing-record.js';
import type { Plan } from '../../src/savings/plan.js';
import { handleDue } from '../../src/savings/remind.js';
import { journaledPlans, planRestorer } from '../../src/savings/standing.js';
import { createPlanStore, type PlanStore } from '../../src/savings/store.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';

const logger = createLogger({ level: 'silent' });
const WALLET = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';
const ann: UserRef = { channel: 'telegram', id: '5550001' };
const bo: UserRef = { channel: 'whatsapp', id: '254700000002' };
const set = (level: number, token = 'USDT', side: 'below' | 'above' = 'below'): AlertsRequest => ({
  action: 'set',
  token,
  network: 'celo',
  side,
  level,
});
const planOf = (u: UserRef, kes: number, due: number): Omit<Plan, 'id'> => ({
  v: 1,
  u: `${u.channel}:${u.id}`,
  t: 'USDT',
  n: 'polygon',
  w: WALLET,
  ph: '254712345678',
  kes,
  c: 'w5@9',
  s: 'a',
  due,
  no: 0,
  past: [],
});

let redis: RedisClientType;
let dir: string;
const prefixes: string[] = [];
beforeAll(async () => {
  redis = await connectTestRedis();
  dir = mkdtempSync(join(tmpdir(), 'rampchat-standing-'));
});
afterAll(async () => {
  for (const p of prefixes) await flushPrefix(redis, p);
  await redis.quit();
  rmSync(dir, { recursive: true, force: true });
});

/** A deployment's alert and plan stores on one prefix, journaled to one record, and its recovery sink. */
function deployment(name: string) {
  const prefix = uniquePrefix(name);
  prefixes.push(prefix);
  const record: StandingRecord = createStandingRecord(join(dir, name), {
    secret: 'a-journal-key-of-32-characters-or-more-for-tests',
    keyFile: join(dir, `${name}.key`),
  });
  const alertStore = new AlertStore(redis, prefix, logger);
  const alerts = journaledAlerts(alertStore, record);
  const client = async () => redis;
  const planStore = createPlanStore(client, prefix, () => {});
  const plans: PlanStore = journaledPlans(planStore, record);
  const sink: StandingSink = {
    record,
    restorers: {
      alerts: alertRestorer(alertStore, record),
      plans: planRestorer({
        store: planStore,
        redis: client,
        prefix,
        record,
        maxPlans: 2,
        windowMs: 3600_000,
      }),
    },
  };
  const told: Array<{ user: UserRef; message: OutMessage }> = [];
  const pass = () =>
    restoreStanding({ sink, logger, notify: async (user, message) => void told.push({ user, message }) });
  return { prefix, record, alertStore, alerts, plans, planStore, sink, told, pass };
}

describe('alerts and standing buys after Redis came back empty', () => {
  it('every alert and plan comes back, fires and runs as before, and nobody is told anything', async () => {
    const d = deployment('standing-all');
    await d.alerts.answer(ann, set(128));
    await d.alerts.answer(ann, set(140, 'USDC', 'above'));
    await d.alerts.answer(ann, set(120));
    await d.alerts.answer(ann, { action: 'delete', slot: 2 });
    await d.alerts.answer(bo, set(129));
    const due = Date.now() - 1000;
    const annPlan = (await d.plans.create(planOf(ann, 500, due), 2))!;
    const boPlan = (await d.plans.create(planOf(bo, 800, due + 3600_000), 2))!;
    await d.plans.update(boPlan.id, (p) => ({ ...p, s: 'p' }));
    const before = {
      ann: await d.alertStore.list(ann),
      bo: await d.alertStore.list(bo),
      annPlan: await d.planStore.get(annPlan.id),
      boPlan: await d.planStore.get(boPlan.id),
    };
    expect(before.ann.map((a) => a.slot)).toEqual([1, 3]);
    // Nothing personal in clear on disk.
    const files = readdirSync(join(dir, 'standing-all'), { recursive: true, withFileTypes: true })
      .filter((f) => f.isFile())
      .map((f) => readFileSync(join(f.parentPath, f.name), 'utf8'))
      .join('');
    expect(files).not.toMatch(/5550001|254700000002|254712345678|0x742d35/i);

    await flushPrefix(redis, d.prefix);
    expect(await d.alertStore.list(ann)).toEqual([]);
    const report = await d.pass();
    expect(report).toMatchObject({ restored: 5, lost: 0, told: 0, failed: 0, unreadable: 0 });
    expect(await d.alertStore.list(ann)).toEqual(before.ann);
    expect(await d.alertStore.list(bo)).toEqual(before.bo);
    expect(await d.planStore.get(annPlan.id)).toEqual(before.annPlan);
    expect(await d.planStore.get(boPlan.id)).toEqual(before.boPlan);

    // A second pass finds everything there.
    expect(await d.pass()).toMatchObject({ restored: 0, present: 5, told: 0 });

    // The alerts fire: a rate of 119 crosses ann's 128 and 120 and bo's 129, once each.
    const feed = { key: 'b:celo:USDT', side: 'below' as const, network: 'celo', token: 'USDT' };
    expect((await d.alertStore.feeds()).map((f) => f.key).sort()).toEqual(['b:celo:USDT']);
    const claimed = await d.alertStore.claimCrossed(feed, 119, 10, Date.now() + 10_000);
    const fired = await d.alertStore.records(claimed);
    expect(fired.map((r) => `${r.user.id}:${r.level}`).sort()).toEqual([
      '254700000002:129',
      '5550001:120',
      '5550001:128',
    ]);
    // The active plan is due again and its reminder goes out; the paused one is not in the due set.
    expect(await redis.zScore(d.planStore.dueKey, annPlan.id)).toBe(due);
    expect(await redis.zScore(d.planStore.dueKey, boPlan.id)).toBeNull();
    const reminded: UserRef[] = [];
    const next = await handleDue(
      {
        store: d.plans,
        notify: async (user) => void reminded.push(user),
        estimate: async () => '3.86',
        windowMs: 3600_000,
        now: Date.now,
        logger,
      },
      annPlan.id,
    );
    expect(reminded).toEqual([ann]);
    expect(next).toBeGreaterThan(Date.now());
    // The run is recorded too: emptied again, the plan comes back with its run, not due again.
    await flushPrefix(redis, d.prefix);
    await d.pass();
    expect((await d.planStore.get(annPlan.id))?.no).toBe(1);
  });

  it('a user whose slots were taken meanwhile is told once, however many passes run', async () => {
    const d = deployment('standing-told');
    for (const level of [100, 101, 102]) await d.alerts.answer(ann, set(level));
    await d.plans.create(planOf(ann, 500, Date.now() + 3600_000), 2);
    await d.plans.create(planOf(ann, 600, Date.now() + 3600_000), 2);
    await flushPrefix(redis, d.prefix);
    // After the loss, before recovery: ann sets 9 new alerts (one slot left) and two new plans (the limit).
    for (let i = 0; i < 9; i++) await d.alertStore.answer(ann, set(200 + i));
    await d.planStore.create(planOf(ann, 700, Date.now() + 3600_000), 2);
    await d.planStore.create(planOf(ann, 900, Date.now() + 3600_000), 2);

    const first = await d.pass();
    expect(first).toMatchObject({ restored: 1, lost: 4, told: 3, failed: 0 });
    expect(d.told.map((t) => [t.user, t.message.texts[0]?.id])).toEqual(
      expect.arrayContaining([
        [ann, 'alerts-lost-after-outage'],
        [ann, 'savings-lost-after-outage'],
        [ann, 'savings-lost-after-outage'],
      ]),
    );
    expect((await d.alertStore.list(ann)).length).toBe(10);
    const again = await d.pass();
    expect(again).toMatchObject({ restored: 0, lost: 0, told: 0 });
    expect(d.told.length).toBe(3);
  });
});

describe('alerts and plans made before the record existed (an upgrade)', () => {
  it('are written to it once from Redis, and come back after Redis is emptied', async () => {
    const d = deployment('standing-fill');
    // Made through the plain stores: no record written, as before this version.
    await d.alertStore.answer(ann, set(128));
    await d.alertStore.answer(bo, set(129, 'USDC', 'above'));
    const plan = (await d.planStore.create(planOf(ann, 500, Date.now() + 3600_000), 2))!;
    const before = {
      ann: await d.alertStore.list(ann),
      bo: await d.alertStore.list(bo),
      plan: await d.planStore.get(plan.id),
    };
    let marked = false;
    const mark = {
      due: async () => !marked,
      set: async () => {
        marked = true;
      },
    };
    expect(await backfillStanding({ sink: d.sink, mark, logger })).toBe(3);
    // Once per deployment.
    expect(await backfillStanding({ sink: d.sink, mark, logger })).toBe(0);

    await flushPrefix(redis, d.prefix);
    expect(await d.pass()).toMatchObject({ restored: 3, lost: 0, told: 0, failed: 0 });
    expect(await d.alertStore.list(ann)).toEqual(before.ann);
    expect(await d.alertStore.list(bo)).toEqual(before.bo);
    expect(await d.planStore.get(plan.id)).toEqual(before.plan);
  });
});
