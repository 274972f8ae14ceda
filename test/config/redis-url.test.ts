/** REDIS_URL as one Redis or as a primary behind Sentinel: read, refused with a reason, shown without passwords. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/env.js';
import { parseSentinelUrl, redisUrlProblem, redisUrlWhere } from '../../src/config/redis-url.js';
import { secretsOf } from '../../src/doctor/scrub.js';

describe('REDIS_URL', () => {
  it('reads a redis+sentinel:// URL: Sentinels, primary name, database, the data nodes and the Sentinels passwords', () => {
    expect(
      parseSentinelUrl(
        'redis+sentinel://app:p%40ss@s1:26379,10.0.0.2:26380,[::1]:26381/mymaster/2?sentinel_password=sp',
      ),
    ).toEqual({
      sentinels: [
        { host: 's1', port: 26379 },
        { host: '10.0.0.2', port: 26380 },
        { host: '::1', port: 26381 },
      ],
      name: 'mymaster',
      db: 2,
      username: 'app',
      password: 'p@ss',
      sentinelPassword: 'sp',
    });
    expect(parseSentinelUrl('redis+sentinel://s1:26379/mymaster')).toEqual({
      sentinels: [{ host: 's1', port: 26379 }],
      name: 'mymaster',
      db: 0,
    });
  });

  it('refuses a Sentinel URL without ports or a primary name, and other schemes, at the start with the reason', () => {
    expect(redisUrlProblem('redis+sentinel://s1,s2/mymaster')).toMatch(/host:port/);
    expect(redisUrlProblem('redis+sentinel://s1:26379')).toMatch(/primary name/);
    expect(redisUrlProblem('redis+sentinel://s1:26379/mymaster/x')).toMatch(/database/);
    expect(redisUrlProblem('http://redis:6379')).toMatch(/redis:\/\//);
    expect(redisUrlProblem('redis://redis:6379/0')).toBeUndefined();
    expect(() => loadConfig({ REDIS_URL: 'redis+sentinel://s1/mymaster' })).toThrow(/REDIS_URL/);
    expect(loadConfig({ REDIS_URL: 'redis+sentinel://s1:26379,s2:26379/mymaster' }).REDIS_URL).toBe(
      'redis+sentinel://s1:26379,s2:26379/mymaster',
    );
  });

  it('is shown without passwords, and the doctor knows both passwords as secrets', () => {
    const url = 'redis+sentinel://:data-node-pass@s1:26379,s2:26379/mymaster?sentinel_password=sentinel-pass';
    expect(redisUrlWhere(url)).toBe('sentinel mymaster via s1:26379,s2:26379');
    expect(redisUrlWhere(url)).not.toMatch(/pass/);
    expect(secretsOf({ REDIS_URL: url })).toEqual(
      expect.arrayContaining(['data-node-pass', 'sentinel-pass']),
    );
  });
});
