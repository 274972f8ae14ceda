/**
 * Issue 31: after Redis came back empty the desk lost its open cases, and with them the lines users
 * were told went to support (chaos seed 42: 17 of 24). Open cases are now kept in the standing record
 * outside Redis; the recovery pass puts them back (slots, topic link) and posts their waiting lines.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.js';
import type { RampClient } from '../../src/ramp/types.js';
import { createStandingRecord, restoreStanding, type StandingSink } from '../../src/recovery/index.js';
import { caseRestorer, recordedCases } from '../../src/support/case/case-record.js';
import { createRedisCaseStore } from '../../src/support/case/store.js';
import { createRedisLedger } from '../../src/support/desk/line-ledger.js';
import { createDesk } from '../../src/support/desk.js';
import type { DeskTopics } from '../../src/support/ports.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';
import { group, quick } from './desk-edge.js';

const logger = createLogger({ level: 'silent' });
const user = { channel: 'whatsapp', id: '254712345678' } as const;

describe('open support cases after Redis came back empty', () => {
  let redis: RedisClientType;
  let dir: string;
  const prefixes = [uniquePrefix('case-record'), uniquePrefix('case-record')];
  beforeAll(async () => {
    redis = await connectTestRedis();
    dir = await mkdtemp(join(tmpdir(), 'case-record-'));
  });
  afterAll(async () => {
    for (const prefix of prefixes) await flushPrefix(redis, prefix);
    await redis.quit();
    await rm(dir, { recursive: true, force: true });
  });

  /** One replica's desk on the shared record; its group's posts go to `posts`, or hang. */
  const replica = (sink: StandingSink, owner: string, topics: DeskTopics, prefix = prefixes[0] as string) => {
    const raw = createRedisCaseStore({ client: redis, prefix });
    const recorded = recordedCases(raw, sink.record, logger);
    const desk = createDesk({
      store: recorded,
      ramp: {} as RampClient,
      conversation: { notify: async () => {}, handle: async () => {} },
      logger,
      topics,
      budget: quick,
      lines: createRedisLedger({ client: redis, prefix, owner, beatTtlMs: 300 }),
      sweepMs: 3600_000,
      reopenWindowMs: 3600_000,
    });
    sink.restorers.cases = caseRestorer(raw, sink.record, (id, lines) => desk.resume(id, lines));
    return { desk, store: raw, recorded };
  };

  it('are put back with their topic, and the lines still waiting are posted once', async () => {
    const sink: StandingSink = {
      record: createStandingRecord(join(dir, 'standing'), { keyFile: join(dir, 'orders.key') }),
      restorers: {},
    };
    const stuck = replica(sink, 'a', group([], true));
    const first = await stuck.desk.relayFromUser(user, 'I paid but got nothing');
    await stuck.desk.relayFromUser(user, 'order D-abc12-XY34 please');
    const before = await stuck.store.get(first.case.id);
    expect(before?.topic?.threadId).toBe(7);
    expect(before?.unposted).toEqual([1, 2]);

    await flushPrefix(redis, prefixes[0] as string);
    expect(await stuck.store.get(first.case.id)).toBeUndefined();

    const posts: string[][] = [];
    const next = replica(sink, 'b', group(posts, false));
    const report = await restoreStanding({ sink, notify: async () => {}, logger });
    expect(report).toMatchObject({ restored: 1, failed: 0, lost: 0 });
    const deadline = Date.now() + 5000;
    while (!posts.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 30));
    await new Promise((r) => setTimeout(r, 200));
    expect(posts).toEqual([['I paid but got nothing', 'order D-abc12-XY34 please']]);

    const back = await next.store.get(first.case.id);
    expect(back?.unposted).toEqual([]);
    expect(await next.store.byTopic(back!.topic!.chatId, 7)).toBe(first.case.id);
    expect(await next.store.slot(user, { kind: 'last' })).toBe(first.case.id);
    // A line written now goes to the same case, and a second pass changes nothing.
    const again = await next.desk.relayFromUser(user, 'still waiting');
    expect(again.case.id).toBe(first.case.id);
    expect(await restoreStanding({ sink, notify: async () => {}, logger })).toMatchObject({
      restored: 0,
      present: 1,
    });
    next.desk.stop();
  });

  it('are dropped from the record once closed', async () => {
    const sink: StandingSink = {
      record: createStandingRecord(join(dir, 'standing2'), { keyFile: join(dir, 'orders.key') }),
      restorers: {},
    };
    // A deployment of its own: the first test's stopped replicas leave lines a sweep here would take.
    const r = replica(sink, 'c', group([], false), prefixes[1]);
    const found = await r.desk.relayFromUser({ channel: 'telegram', id: '99' }, 'hello');
    await r.desk.idle();
    expect(await sink.record.list('cases')).toHaveLength(1);
    await r.recorded.update(found.case.id, (c) => ({ ...c, status: 'closed', closedAt: Date.now() }));
    expect(await sink.record.list('cases')).toHaveLength(0);
    r.desk.stop();
  });
});
