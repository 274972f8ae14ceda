/**
 * The alert store on real Redis and in memory (local mode) alike, so the two cannot drift: set,
 * list, change, delete, renew, the limit of 10, expiry and its note; a bad stored record on Redis.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_TTL_MS } from '../../src/alerts/store/storage.js';
import type { AlertsRequest } from '../../src/flows/types.js';
import { backends, type Rig, rig, type Told, user } from './rig.js';

const set = (
  level: number,
  extra: Partial<Extract<AlertsRequest, { action: 'set' }>> = {},
): AlertsRequest => ({
  action: 'set',
  token: 'USDT',
  network: 'celo',
  side: 'below',
  level,
  ...extra,
});

describe.each(backends)('the alert store (%s)', (backend) => {
  let r: Rig;
  beforeAll(async () => {
    r = await rig(backend);
  });
  afterAll(() => r.close());

  it('sets, lists, changes, renews and deletes an alert', async () => {
    const s = r.store();
    const u = user('crud');
    const first = await s.answer(u, set(128));
    expect(first).toMatchObject({ action: 'set', changed: false, alert: { slot: 1, level: 128 } });
    await s.answer(u, set(135, { side: 'above', network: 'lisk' }));
    let list = await s.list(u);
    expect(list.map((a) => [a.slot, a.side, a.level])).toEqual([
      [1, 'below', 128],
      [2, 'above', 135],
    ]);
    expect(list[0]!.expiresAt).toBe(Math.floor((r.clock.now + ALERT_TTL_MS) / 1000) * 1000);

    expect(await s.answer(u, set(127.5, { slot: 1 }))).toMatchObject({
      action: 'set',
      changed: true,
      alert: { slot: 1 },
    });
    list = await s.list(u);
    expect(list.map((a) => a.level)).toEqual([127.5, 135]);
    // The changed alert left its old level's place: one member per alert in the feed's set.
    if (backend === 'redis')
      expect(await r.redis.zRangeWithScores(`${r.redisStore().p}z:b:celo:USDT`, 0, -1)).toEqual([
        { value: expect.any(String), score: 127.5 },
      ]);

    r.clock.now += 10 * 24 * 3600_000;
    const renewed = await s.answer(u, { action: 'renew', slot: 2 });
    expect(renewed).toMatchObject({ action: 'renewed', alert: { slot: 2 } });
    expect((renewed as { alert: { expiresAt: number } }).alert.expiresAt).toBeGreaterThan(list[1]!.expiresAt);

    expect(await s.answer(u, { action: 'delete', slot: 1 })).toEqual({ action: 'deleted', slot: 1 });
    expect(await s.answer(u, { action: 'delete', slot: 1 })).toEqual({ action: 'missing', slot: 1 });
    expect((await s.list(u)).map((a) => a.slot)).toEqual([2]);
    if (backend === 'redis') expect(await r.redis.zCard(`${r.redisStore().p}z:b:celo:USDT`)).toBe(0);
    else
      expect(
        await s.dropIfUnwatched({ key: 'b:celo:USDT', side: 'below', network: 'celo', token: 'USDT' }),
      ).toBe(true);
    // The next new alert takes the free slot.
    expect(await s.answer(u, set(120))).toMatchObject({ alert: { slot: 1 } });
  });

  it('the same alert set twice is one alert', async () => {
    const s = r.store();
    const u = user('twice');
    const a = await s.answer(u, set(128.25));
    const b = await s.answer(u, set(128.25));
    expect(b).toEqual(a);
    expect(await s.list(u)).toHaveLength(1);
  });

  it('refuses the 11th alert, and takes one again once one is deleted', async () => {
    const s = r.store();
    const u = user('ten');
    for (let i = 0; i < 10; i++) expect(await s.answer(u, set(100 + i))).toMatchObject({ action: 'set' });
    expect(await s.answer(u, set(99))).toEqual({ action: 'full', max: 10 });
    expect(await s.list(u)).toHaveLength(10);
    await s.answer(u, { action: 'delete', slot: 4 });
    expect(await s.answer(u, set(99))).toMatchObject({ action: 'set', alert: { slot: 4 } });
  });

  it('sends one note a day before expiry, then expires the alert after 30 days unless renewed', async () => {
    const r = await rig(backend);
    const told: Told[] = [];
    const start = r.clock.now;
    const s = r.store();
    const u = user('expiry');
    const kept = user('renewer');
    await s.answer(u, set(50, { token: 'USDC', network: 'base' }));
    await s.answer(kept, set(50, { token: 'USDC', network: 'base' }));
    // Rates are far above the level: nothing fires; only expiry is at work.
    const ticker = r.ticker({}, told);
    await ticker.tick();
    r.clock.now = start + ALERT_TTL_MS - 23 * 3600_000;
    await ticker.tick();
    const ours = () => told.filter((t) => t.user.id === 'expiry' || t.user.id === 'renewer');
    expect(ours().map((t) => [t.user.id, t.message.texts[0]!.id])).toEqual([
      ['expiry', 'alerts-expiring'],
      ['renewer', 'alerts-expiring'],
    ]);
    expect(
      ours()[0]!
        .message.buttons?.flat()
        .map((b) => b.id),
    ).toContain('al:renew:1');
    await r.ticker({}, told).tick();
    expect(ours()).toHaveLength(2);
    await s.answer(kept, { action: 'renew', slot: 1 });
    r.clock.now = start + ALERT_TTL_MS + 2 * 3600_000;
    const report = await ticker.tick();
    expect(report.expired).toBe(1);
    expect(await s.list(u)).toEqual([]);
    expect(await s.list(kept)).toHaveLength(1);
    expect(ours()).toHaveLength(2);
    await r.close();
  });

  it.runIf(backend === 'redis')(
    'skips a bad stored record instead of failing the listing or the tick',
    async () => {
      const s = r.redisStore();
      const u = user('bad');
      await s.answer(u, set(200, { network: 'lisk' }));
      await s.answer(u, set(201, { network: 'lisk' }));
      const packed = await r.redis.hGet(s.userBucket(u), 'c:bad');
      const id = /^1=(\d+)/.exec(packed ?? '')?.[1];
      await r.redis.hSet(`${s.p}a:${Math.floor(Number(id) / 100)}`, id!, '9|garbage');
      expect((await s.list(u)).map((a) => a.level)).toEqual([201]);
      const report = await r.ticker().tick();
      expect(report.fired).toBeGreaterThanOrEqual(1);
      // The unreadable one is not kept claimed (to be retried forever).
      expect(await r.redis.zCard(`${s.p}c`)).toBe(0);
    },
  );
});
