/**
 * Real Redis for tests. The global setup makes sure one answers (the machine's on 6379, or a
 * redis-server it starts on a free port) and exports its URL as TEST_REDIS_URL. Each test takes a
 * unique key prefix so parallel files never see each other's keys.
 */
import { randomBytes } from 'node:crypto';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';

export function testRedisUrl(): string {
  const url = process.env.TEST_REDIS_URL ?? inject('redisUrl');
  if (!url)
    throw new Error('TEST_REDIS_URL is not set: run the tests through vitest (test/helpers/global-setup.ts)');
  return url;
}

/** A prefix no other test uses, e.g. `t:3fa9c1:`. */
export function uniquePrefix(name = 't'): string {
  return `${name}:${randomBytes(4).toString('hex')}:`;
}

/** A connected node-redis client; close it with `client.quit()` (or `.close()`). */
export async function connectTestRedis(): Promise<RedisClientType> {
  const client = createClient({ url: testRedisUrl() }) as RedisClientType;
  await client.connect();
  return client;
}

/** Deletes every key under a prefix. */
export async function flushPrefix(client: RedisClientType, prefix: string): Promise<void> {
  for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
    const list = Array.isArray(keys) ? keys : [keys];
    if (list.length) await client.del(list);
  }
}

/**
 * A test file's Redis client (connected before its tests), the prefixes it used (flushed after
 * them) and its cleanups (run after each test, last first).
 */
export function redisForFile() {
  const file = {
    redis: undefined as unknown as RedisClientType,
    prefixes: [] as string[],
    cleanups: [] as Array<() => Promise<void>>,
  };
  beforeAll(async () => {
    file.redis = await connectTestRedis();
  });
  afterEach(async () => {
    while (file.cleanups.length) await file.cleanups.pop()?.();
  });
  afterAll(async () => {
    for (const p of file.prefixes) await flushPrefix(file.redis, p);
    await file.redis.quit();
  });
  return file;
}
