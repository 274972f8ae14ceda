/** A start Redis dropped out of is begun again within the start's time; other failures end it at once. */
import { describe, expect, it } from 'vitest';
import { isRedisDropout, startAgainOnDropout } from '../../src/app/start-again.js';

describe('starting again when Redis drops out of the start', () => {
  it('recognises the errors of a Redis connection that went away, and nothing else', () => {
    for (const m of [
      'read ECONNRESET',
      'Socket closed unexpectedly',
      'The client is offline',
      'connect ECONNREFUSED 127.0.0.1:6379',
      // A Redis restarted with AOF answers this until its data is read back (issue #31's chaos exit).
      'LOADING Redis is loading the dataset in memory',
      'The client is closed',
      'Connection timeout',
    ])
      expect(isRedisDropout(new Error(m))).toBe(true);
    for (const m of ['RAMP_BASE_URL is required', 'listen EADDRINUSE: address already in use', 'WRONGTYPE'])
      expect(isRedisDropout(new Error(m))).toBe(false);
  });

  it('begins again after a dropout and returns the start that succeeded', async () => {
    let tries = 0;
    const retried: string[] = [];
    const app = await startAgainOnDropout(
      async () => {
        tries += 1;
        if (tries < 3) throw new Error('read ECONNRESET');
        return 'started';
      },
      { withinMs: 5_000, pauseMs: 1, onRetry: (e) => retried.push(e.message) },
    );
    expect(app).toBe('started');
    expect(tries).toBe(3);
    expect(retried).toEqual(['read ECONNRESET', 'read ECONNRESET']);
  });

  it('fails at once on another error, and after the start time on dropouts', async () => {
    let tries = 0;
    await expect(
      startAgainOnDropout(
        async () => {
          tries += 1;
          throw new Error('listen EADDRINUSE');
        },
        { withinMs: 5_000, pauseMs: 1 },
      ),
    ).rejects.toThrow('EADDRINUSE');
    expect(tries).toBe(1);
    const started = Date.now();
    await expect(
      startAgainOnDropout(
        async () => {
          throw new Error('The client is offline');
        },
        { withinMs: 50, pauseMs: 10 },
      ),
    ).rejects.toThrow('offline');
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
