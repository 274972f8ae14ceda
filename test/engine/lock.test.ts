/** The engine's per-user mutex: one task at a time per key, in arrival order; keys side by side. */
import { describe, expect, it } from 'vitest';
import { KeyedMutex } from '../../src/engine/lock.js';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('KeyedMutex', () => {
  it('runs one key in arrival order, other keys meanwhile, past a failing task, and forgets idle keys', async () => {
    const mutex = new KeyedMutex();
    const seen: string[] = [];
    const task =
      (name: string, ms: number, fail = false) =>
      async () => {
        seen.push(`${name}+`);
        await tick(ms);
        seen.push(`${name}-`);
        if (fail) throw new Error(name);
        return name;
      };
    const a1 = mutex.run('a', task('a1', 30, true));
    const a2 = mutex.run('a', task('a2', 5));
    const b1 = mutex.run('b', task('b1', 5));
    const a3 = mutex.run('a', task('a3', 1));
    expect(mutex.size).toBe(2);
    await expect(a1).rejects.toThrow('a1');
    expect(await Promise.all([a2, b1, a3])).toEqual(['a2', 'b1', 'a3']);
    // a's tasks never overlap and keep their order; b ran while a1 was still going.
    expect(seen.filter((s) => s.startsWith('a'))).toEqual(['a1+', 'a1-', 'a2+', 'a2-', 'a3+', 'a3-']);
    expect(seen.indexOf('b1-')).toBeLessThan(seen.indexOf('a1-'));
    expect(mutex.size).toBe(0);
  });
});
