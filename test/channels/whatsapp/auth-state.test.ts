import { initAuthCreds, proto } from '@whiskeysockets/baileys';
import type { RedisClientType } from 'redis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  loadRedisAuthState,
  redisSignalKeyStore,
  whatsappKeys,
} from '../../../src/channels/whatsapp/index.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../../helpers/redis.js';

describe('Redis auth state', () => {
  let redis: RedisClientType;
  let prefix: string;
  let keys: ReturnType<typeof whatsappKeys>;

  beforeEach(async () => {
    redis = await connectTestRedis();
    prefix = uniquePrefix('wa-auth');
    keys = whatsappKeys(prefix, '254700000001');
  });

  afterEach(async () => {
    await flushPrefix(redis, prefix);
    await redis.quit();
  });

  async function keysUnderPrefix(): Promise<string[]> {
    const found: string[] = [];
    for await (const batch of redis.scanIterator({ MATCH: `${prefix}*` })) {
      found.push(...(Array.isArray(batch) ? batch : [batch]));
    }
    return found.sort();
  }

  it('creates fresh credentials, saves them and reads them back with their Buffers', async () => {
    const first = await loadRedisAuthState(redis, keys);
    first.state.creds.registered = true;
    first.state.creds.me = { id: '254700000001:3@s.whatsapp.net', name: 'Ramp' };
    first.state.creds.routingInfo = Buffer.from([1, 2, 3, 250]);
    await first.saveCreds();

    const again = await loadRedisAuthState(redis, keys);
    expect(again.state.creds).toEqual(first.state.creds);
    expect(Buffer.isBuffer(again.state.creds.noiseKey.private)).toBe(true);
    expect(Buffer.from(again.state.creds.noiseKey.public)).toEqual(
      Buffer.from(first.state.creds.noiseKey.public),
    );
    expect(again.state.creds.routingInfo).toEqual(Buffer.from([1, 2, 3, 250]));
    expect(again.state.creds.me?.id).toBe('254700000001:3@s.whatsapp.net');
  });

  it('round-trips signal keys of every shape, including app state keys as proto objects', async () => {
    const store = redisSignalKeyStore(redis, keys);
    const pair = initAuthCreds().signedIdentityKey;
    const session = new Uint8Array([9, 8, 7, 0, 255]);
    await store.set({
      'pre-key': { '1': pair },
      session: { '254711@s.whatsapp.net.0': session },
      'app-state-sync-key': {
        AAAA: { keyData: new Uint8Array([5, 5, 5]), timestamp: 1700000000 },
      },
      'lid-mapping': { '254711': '181926412345678' },
    });

    const preKeys = await store.get('pre-key', ['1', '2']);
    expect(Object.keys(preKeys)).toEqual(['1']);
    expect(Buffer.from(preKeys['1']!.public)).toEqual(Buffer.from(pair.public));
    expect(Buffer.isBuffer(preKeys['1']!.private)).toBe(true);

    const sessions = await store.get('session', ['254711@s.whatsapp.net.0']);
    expect(Buffer.from(sessions['254711@s.whatsapp.net.0']!)).toEqual(Buffer.from(session));

    const appKeys = await store.get('app-state-sync-key', ['AAAA']);
    expect(appKeys.AAAA).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    expect(Buffer.from(appKeys.AAAA!.keyData!)).toEqual(Buffer.from([5, 5, 5]));

    expect(await store.get('lid-mapping', ['254711'])).toEqual({ '254711': '181926412345678' });
  });

  it('writes only the keys it is given and deletes keys set to null', async () => {
    const store = redisSignalKeyStore(redis, keys);
    const a = initAuthCreds().signedIdentityKey;
    const b = initAuthCreds().signedIdentityKey;
    await store.set({ 'pre-key': { '1': a, '2': b, '3': a } });
    expect(await redis.hLen(keys.signalKeys('pre-key'))).toBe(3);

    // A marker in key 2: a store that rewrote every key would overwrite it.
    await redis.hSet(keys.signalKeys('pre-key'), '2', '"untouched"');
    await store.set({ 'pre-key': { '1': b, '3': null }, session: { s1: new Uint8Array([1]) } });

    expect(await redis.hLen(keys.signalKeys('pre-key'))).toBe(2);
    expect(await redis.hGet(keys.signalKeys('pre-key'), '2')).toBe('"untouched"');
    expect(await redis.hExists(keys.signalKeys('pre-key'), '3')).toBe(0);
    const one = await store.get('pre-key', ['1']);
    expect(Buffer.from(one['1']!.public)).toEqual(Buffer.from(b.public));
    expect(await redis.hLen(keys.signalKeys('session'))).toBe(1);

    await store.set({ session: { s1: null } });
    expect(await redis.exists(keys.signalKeys('session'))).toBe(0);
  });

  it('clears credentials and every key, and a cleared number starts with new credentials', async () => {
    const auth = await loadRedisAuthState(redis, keys);
    await auth.saveCreds();
    await auth.state.keys.set({
      'pre-key': { '1': initAuthCreds().signedIdentityKey },
      session: { x: new Uint8Array([1]) },
    });
    await redis.hSet(keys.lidToPhone, '123', '254700000002');
    expect((await keysUnderPrefix()).length).toBe(4);

    await auth.clear();
    expect(await keysUnderPrefix()).toEqual([keys.lidToPhone]);
    const fresh = await loadRedisAuthState(redis, keys);
    expect(Buffer.from(fresh.state.creds.noiseKey.public)).not.toEqual(
      Buffer.from(auth.state.creds.noiseKey.public),
    );
  });
});
