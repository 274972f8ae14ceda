import { afterAll, describe, expect, it } from 'vitest';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../helpers/redis.js';

describe('test Redis', () => {
  const prefix = uniquePrefix('smoke');
  let client: Awaited<ReturnType<typeof connectTestRedis>>;
  afterAll(async () => {
    await flushPrefix(client, prefix);
    await client.quit();
  });
  it('answers and round-trips a key', async () => {
    client = await connectTestRedis();
    await client.set(`${prefix}k`, 'v');
    expect(await client.get(`${prefix}k`)).toBe('v');
  });
});
