/**
 * The tick against the sandbox over real HTTP, on real Redis and on the in-memory store (local
 * mode): each crossed alert fires once and only
 * crossed ones; flapping does not re-fire until the rate moved back by the margin; one quote per
 * feed whatever the alerts; three replicas on one Redis fire each alert exactly once, also when one
 * dies between claim and send; an emptied Redis fires nothing twice.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AlertTicker } from '../../src/alerts/ticker.js';
import type { AlertsRequest } from '../../src/flows/types.js';
import { backends, type Rig, rig, type Told, user } from './rig.js';

let r: Rig;

/** USDT is priced at 1 USD: its rate in KES is the sandbox's KES per USD. */
const move = (kes: number) => r.sandbox.setKesPerUsd(kes);

const below = (
  level: number,
  network: 'celo' | 'lisk' = 'celo',
): Extract<AlertsRequest, { action: 'set' }> => ({
  action: 'set',
  token: 'USDT',
  network,
  side: 'below',
  level,
});

const ids = (told: Told[]) => told.map((t) => t.user.id).sort();

describe.each(backends)('the alert tick (%s)', (backend) => {
  beforeEach(async () => {
    r = await rig(backend);
  });
  afterEach(() => r.close());

  it('fires each crossed alert once, only crossed ones, with Buy now at the token and network', async () => {
    const s = r.store();
    move(130);
    await s.answer(user('a'), below(128));
    await s.answer(user('b'), below(127));
    await s.answer(user('c'), { ...below(131), side: 'above' });
    const told: Told[] = [];
    const t = r.ticker({}, told);
    expect((await t.tick()).fired).toBe(0);
    move(127.9);
    const rep = await t.tick();
    expect(rep).toMatchObject({ claimed: 1, fired: 1 });
    expect(ids(told)).toEqual(['a']);
    expect(told[0]!.message.texts[0]).toEqual({
      id: 'alerts-fired-below',
      args: { token: 'USDT', network: 'Celo', rate: '127.90', level: '128.00' },
    });
    expect(told[0]!.message.buttons?.[0]?.[0]?.id).toBe('menu:buy:USDT celo');
    expect(told[0]!.message.notice).toBe(true);
    await t.tick();
    expect(ids(told)).toEqual(['a']);
    move(126);
    await t.tick();
    expect(ids(told)).toEqual(['a', 'b']);
    move(132);
    await t.tick();
    expect(ids(told)).toEqual(['a', 'b', 'c']);
    expect(told[2]!.message.texts[0]!.id).toBe('alerts-fired-above');
    expect(told[2]!.message.buttons?.[0]?.[0]?.id).toBe('menu:sell:USDT celo');
  });

  it('does not fire again while the rate flaps around the level, only after it moved back by the margin', async () => {
    const s = r.store();
    await s.answer(user('flap'), below(128));
    const told: Told[] = [];
    const t = r.ticker({ rearmPct: 0.5 }, told);
    // 0.5 % above 128 is 128.64: up to there the alert stays fired.
    for (const rate of [127.9, 128.1, 127.8, 128.6, 127.5, 128.3, 127.99]) {
      move(rate);
      await t.tick();
    }
    expect(told).toHaveLength(1);
    move(128.7);
    expect((await t.tick()).rearmed).toBe(1);
    move(127.9);
    await t.tick();
    expect(told).toHaveLength(2);
  });

  it('an above alert (the sell rate) re-arms only once the rate fell back below the level by the margin', async () => {
    const s = r.store();
    await s.answer(user('up'), { ...below(130), side: 'above' });
    const told: Told[] = [];
    const t = r.ticker({ rearmPct: 1 }, told);
    // 1 % under 130 is 128.7.
    for (const rate of [130.1, 129.5, 130.4, 128.8, 131]) {
      move(rate);
      await t.tick();
    }
    expect(told).toHaveLength(1);
    move(128.6);
    expect((await t.tick()).rearmed).toBe(1);
    move(130);
    await t.tick();
    expect(told).toHaveLength(2);
  });

  it('asks the ramp one quote per watched feed per tick, however many alerts', async () => {
    const s = r.store();
    move(140);
    for (let i = 0; i < 300; i++)
      await s.answer(user(`many${i}`), below(100 + (i % 50), i % 2 ? 'celo' : 'lisk'));
    await s.answer(user('seller'), { ...below(200), side: 'above' });
    const t = r.ticker();
    const before = r.sandbox.quoteCallCount();
    const rep = await t.tick();
    // Three feeds: buy USDT on celo and lisk, sell USDT on celo.
    expect(rep.feeds).toBe(3);
    expect(r.sandbox.quoteCallCount() - before).toBe(3);
    // A feed nobody watches any more is no longer fetched.
    await s.answer(user('seller'), { action: 'delete', slot: 1 });
    const again = r.sandbox.quoteCallCount();
    expect((await t.tick()).feeds).toBe(2);
    expect(r.sandbox.quoteCallCount() - again).toBe(2);
  });

  it('with three replicas on one Redis, one tick per interval and every alert told exactly once', async () => {
    const s = r.store();
    move(130);
    for (let i = 0; i < 200; i++) await s.answer(user(`rep${i}`), below(120 + (i % 20)));
    const told: Told[] = [];
    const replicas = [0, 1, 2].map(() => r.ticker({}, told));
    const before = r.sandbox.quoteCallCount();
    move(110);
    // Every replica looks in the same interval: one wins the tick.
    const reports = await Promise.all(replicas.map((t) => t.maybeTick()));
    expect(reports.filter(Boolean)).toHaveLength(1);
    expect(r.sandbox.quoteCallCount() - before).toBe(1);
    // Even with each running its own tick at once, the claims let each alert through once.
    await Promise.all(replicas.map((t) => t.tick()));
    expect(told).toHaveLength(200);
    expect(new Set(ids(told)).size).toBe(200);
  });

  it('a replica that dies after claiming: another tells the user once the lease ends, and only once', async () => {
    const s = r.store();
    move(130);
    for (let i = 0; i < 5; i++) await s.answer(user(`dies${i}`), below(128));
    move(127);
    const told: Told[] = [];
    // The dying replica claims, then its send never returns (a SIGKILL between claim and send).
    let sending = 0;
    const stuck = () => {
      sending++;
      return new Promise<void>(() => {});
    };
    const dying = r.ticker({ notifier: { notify: stuck }, maxHoldMs: 0 });
    void dying.tick();
    await waitFor(async () => sending === 5);
    const others: AlertTicker[] = [r.ticker({}, told), r.ticker({}, told)];
    await Promise.all(others.map((t) => t.tick()));
    expect(told).toHaveLength(0);
    r.clock.now += 2_001;
    await Promise.all(others.map((t) => t.tick()));
    expect(ids(told)).toEqual(['dies0', 'dies1', 'dies2', 'dies3', 'dies4']);
    // Told with the rate of the moment, though the feed was dropped while all its alerts were claimed.
    expect(told[0]!.message.texts[0]!.args).toMatchObject({ rate: '127.00', level: '128.00' });
    r.clock.now += 60_000;
    await Promise.all(others.map((t) => t.tick()));
    expect(told).toHaveLength(5);
    // And the feed is watched again: the alerts re-arm and can fire once more.
    move(129);
    expect((await others[0]!.tick()).rearmed).toBe(5);
    move(127);
    await others[0]!.tick();
    expect(told).toHaveLength(10);
  });

  it('a send that fails leaves the alert claimed and it is retried after a backoff, not lost', async () => {
    const s = r.store();
    await s.answer(user('retry'), below(128));
    move(127);
    let fail = true;
    const told: Told[] = [];
    const t = r.ticker({
      failBackoffMs: 10_000,
      notifier: {
        notify: async (u, message) => {
          if (fail) throw new Error('channel down');
          told.push({ user: u, message });
        },
      },
    });
    expect((await t.tick()).failed).toBe(1);
    fail = false;
    await t.tick();
    // Past the lease (2 s) but not the backoff (10 s): not yet.
    r.clock.now += 5_000;
    await t.tick();
    expect(told).toHaveLength(0);
    r.clock.now += 5_001;
    expect((await t.tick()).retried).toBe(1);
    expect(told).toHaveLength(1);
  });

  it.runIf(backend === 'redis')(
    'an emptied Redis fires nothing twice (its alerts are gone with it)',
    async () => {
      const s = r.store();
      await s.answer(user('gone'), below(128));
      move(127);
      const told: Told[] = [];
      const t = r.ticker({}, told);
      await t.tick();
      expect(told).toHaveLength(1);
      for (const key of await r.redis.keys(`${r.prefix}*`)) await r.redis.del(key);
      await t.tick();
      move(129);
      await t.tick();
      move(127);
      await t.tick();
      expect(told).toHaveLength(1);
      expect(await s.list(user('gone'))).toEqual([]);
    },
  );
});

async function waitFor(check: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((res) => setTimeout(res, 10));
  }
}
