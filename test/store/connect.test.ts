/** The node-redis pieces the app names itself so a start without Redis need not load node-redis. */
import { RESP_TYPES } from 'redis';
import { describe, expect, it } from 'vitest';
import { BLOB_STRING, connectRedis } from '../../src/store/connection/connect.js';
import { testRedisUrl, uniquePrefix } from '../helpers/redis.js';

describe('Redis connections', () => {
  it("BLOB_STRING is node-redis's bulk-string type, and reads bytes back as a Buffer", async () => {
    expect(BLOB_STRING).toBe(RESP_TYPES.BLOB_STRING);
    const client = await connectRedis({ url: testRedisUrl(), name: 'test' });
    try {
      const key = `${uniquePrefix('blob')}png`;
      const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00]);
      await client.set(key, bytes, { EX: 60 });
      const back = await client.withTypeMapping({ [BLOB_STRING]: Buffer }).get(key);
      expect(Buffer.isBuffer(back) && back.equals(bytes)).toBe(true);
    } finally {
      client.destroy();
    }
  });
});
