/**
 * Issue #31 on the Cloud API channel (real HTTP, real Redis, the fake Graph API at the wire): an
 * incoming message answered 200 is in Redis before the 200, and a stop with 40 incoming messages
 * still queued loses none. Replica A handles slowly; 40 messages of 4 users are posted, A is stopped
 * (and "exits": its conversation takes nothing more), then B starts: every message is handled, each
 * user's in the order sent, none twice.
 */
import type { RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation } from '../../../src/channels/types.js';
import { createWhatsAppCloudChannel } from '../../../src/channels/whatsapp-cloud/index.js';
import { FakeWhatsAppGraphApi } from '../../fakes/whatsapp-graph-api.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../../helpers/redis.js';
import { waitFor } from '../whatsapp/helpers.js';
import { APP_SECRET, PHONE_NUMBER_ID, replicaOptions, serveReplica, TOKEN } from './helpers.js';

let fake: FakeWhatsAppGraphApi;
let redis: RedisClientType;
const prefix = uniquePrefix('wacloud-intake');
const servers: Array<{ close(): Promise<void> }> = [];

/** A replica whose conversation takes `slowMs` a message and nothing once its process "exited". */
async function replica(slowMs: number) {
  const handled: Array<{ user: string; text: string; id: string | undefined }> = [];
  const life = { exited: false };
  const conversation: Conversation = {
    async handle(user, input, opts) {
      if (life.exited) return new Promise<void>(() => {});
      await new Promise((r) => setTimeout(r, slowMs));
      if (life.exited) return new Promise<void>(() => {});
      handled.push({ user: user.id, text: input.kind === 'text' ? input.text : '', id: opts?.updateId });
    },
  };
  const channel = createWhatsAppCloudChannel({
    ...replicaOptions(fake, redis, prefix),
    conversation,
    stopTimeoutMs: 400,
    handbackPollMs: 50,
  });
  servers.push(await serveReplica(channel, fake));
  return { channel, handled, life };
}

beforeAll(async () => {
  fake = await FakeWhatsAppGraphApi.start({
    token: TOKEN,
    phoneNumberId: PHONE_NUMBER_ID,
    appSecret: APP_SECRET,
  });
  redis = await connectTestRedis();
});
afterAll(async () => {
  for (const s of servers) await s.close();
  await fake?.close();
  await flushPrefix(redis, prefix);
  await redis?.quit();
});

describe('stopping with incoming messages queued', () => {
  it('loses none of 40: the next replica answers each once, in each user’s order', async () => {
    const a = await replica(150);
    const users = ['254711000401', '254711000402', '254711000403', '254711000404'];
    const sent: Array<{ user: string; id: string; text: string }> = [];
    for (let n = 0; n < 10; n++) {
      const round = await Promise.all(
        users.map(async (user) => ({
          user,
          text: `message ${n}`,
          ...(await fake.sendText(user, `message ${n}`)),
        })),
      );
      for (const { user, id, text, status } of round) {
        expect(status).toBe(200);
        sent.push({ user, id, text });
      }
    }
    // Each user's queue holds about 10 × 150 ms: most are still queued at the stop.
    await a.channel.stop();
    a.life.exited = true;
    const queuedAtStop = sent.length - a.handled.length;
    expect(queuedAtStop).toBeGreaterThanOrEqual(20);

    const b = await replica(5);
    const all = () => [...a.handled, ...b.handled];
    await waitFor(() => all().length >= sent.length, 15_000, 'every message answered after the restart');
    await new Promise((r) => setTimeout(r, 300));
    const ids = all().map((h) => h.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set(sent.map((s) => s.id)));
    for (const user of users)
      expect(
        all()
          .filter((h) => h.user === user)
          .map((h) => h.text),
      ).toEqual(sent.filter((s) => s.user === user).map((s) => s.text));
    await b.channel.stop();
  }, 40_000);
});
