import type { RedisClientType } from 'redis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createLease,
  createWhatsAppChannel,
  type WhatsAppChannel,
} from '../../../src/channels/whatsapp/index.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../../helpers/redis.js';
import { RecordingSocket, recordingConversation, silent, testI18n, waitFor } from './helpers.js';

describe('one connection per number', () => {
  let redis: RedisClientType;
  let prefix: string;
  let channels: WhatsAppChannel[];

  beforeEach(async () => {
    redis = await connectTestRedis();
    prefix = uniquePrefix('wa-lease');
    channels = [];
  });

  afterEach(async () => {
    for (const c of channels) await c.stop();
    await flushPrefix(redis, prefix);
    await redis.quit();
  });

  it('grants the lease to one holder, renews and releases only for that holder', async () => {
    const key = `${prefix}lease`;
    const a = createLease(redis, key, 10_000);
    const b = createLease(redis, key, 10_000);
    expect(await a.acquire()).toBe(true);
    expect(await b.acquire()).toBe(false);
    expect(await a.renew()).toBe(true);
    expect(await b.renew()).toBe(false);
    await b.release();
    expect(await redis.get(key)).toBe(a.token);
    await a.release();
    expect(await redis.exists(key)).toBe(0);
    expect(await b.acquire()).toBe(true);
  });

  it('lets another holder in once an unrenewed lease expires', async () => {
    const key = `${prefix}lease`;
    const a = createLease(redis, key, 150);
    const b = createLease(redis, key, 150);
    expect(await a.acquire()).toBe(true);
    await waitFor(() => b.acquire(), 3000, 'the lease to expire');
    expect(await a.renew()).toBe(false);
  });

  function channel(name: string, sockets: RecordingSocket[]) {
    const c = createWhatsAppChannel({
      conversation: recordingConversation(),
      i18n: testI18n(),
      redis,
      logger: silent.child({ name }),
      keyPrefix: prefix,
      numberId: '254700000009',
      lease: { ttlMs: 600, retryMs: 20 },
      makeSocket: (config) => {
        const s = new RecordingSocket(config);
        sockets.push(s);
        return s;
      },
    });
    channels.push(c);
    return c;
  }

  it('runs one live connection across two instances; the other takes over when the first stops', async () => {
    const socketsA: RecordingSocket[] = [];
    const socketsB: RecordingSocket[] = [];
    const a = channel('a', socketsA);
    const b = channel('b', socketsB);
    await a.start();
    await waitFor(() => a.state === 'open', 5000, 'A open');
    await b.start();
    await waitFor(() => b.state === 'waiting_lease', 5000, 'B waiting');
    // Two lease periods pass: A keeps renewing, B keeps waiting.
    await new Promise((r) => setTimeout(r, 1300));
    expect(a.state).toBe('open');
    expect(b.state).toBe('waiting_lease');
    expect(socketsB).toHaveLength(0);

    await a.stop();
    expect(socketsA.every((s) => s.ended)).toBe(true);
    await waitFor(() => b.state === 'open', 5000, 'B to take over');
    expect(socketsB).toHaveLength(1);
  });

  it('closes its socket when the lease is lost, and one instance takes over after it expires', async () => {
    const socketsA: RecordingSocket[] = [];
    const socketsB: RecordingSocket[] = [];
    const a = channel('a', socketsA);
    const b = channel('b', socketsB);
    await a.start();
    await waitFor(() => a.state === 'open', 5000, 'A open');
    await b.start();
    await waitFor(() => b.state === 'waiting_lease', 5000, 'B waiting');
    let lost = false;
    a.events.on('leaseLost', () => {
      lost = true;
    });

    // As if A's lease had expired (a long pause) and a third party took it for a while.
    await redis.set(`${prefix}254700000009:lease`, 'someone-else', {
      expiration: { type: 'PX', value: 400 },
    });
    await waitFor(() => lost, 3000, 'A to notice the lost lease');
    expect(socketsA[0]!.ended).toBe(true);
    await waitFor(() => a.state === 'waiting_lease', 5000, 'A waiting');
    await waitFor(() => a.state === 'open' || b.state === 'open', 3000, 'a takeover');
    expect([a.state, b.state].filter((s) => s === 'open')).toHaveLength(1);
  });
});
