/**
 * The app's per-task values share one AsyncLocalStorage (src/log/context.ts): on Node 20 each storage
 * adds its own hook work to every promise, which the per-update CPU figure pays (about 60 µs an
 * update with ten of them). Slots keep their values across awaits and nest without touching others.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contextSlot } from '../../src/log/context.js';

const SRC = join(import.meta.dirname, '..', '..', 'src');

describe('the context', () => {
  it('is the only AsyncLocalStorage in src', () => {
    const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const own = files.filter((f) => /new AsyncLocalStorage\b/.test(readFileSync(join(SRC, f), 'utf8')));
    expect(own).toEqual(['log/context.ts']);
  });

  it('keeps each slot across awaits, nested runs keep the other slots, and runs side by side do not mix', async () => {
    const cls = contextSlot<string>('cls');
    const turn = contextSlot<boolean>('turn');
    expect(cls.getStore()).toBeUndefined();
    const seen: string[] = [];
    const task = (name: string, ms: number) =>
      cls.run(name, async () => {
        await new Promise((r) => setTimeout(r, ms));
        await turn.run(true, async () => {
          await Promise.resolve();
          seen.push(`${cls.getStore()}:${turn.getStore()}`);
        });
        seen.push(`${cls.getStore()}:${String(turn.getStore())}`);
      });
    await Promise.all([task('a', 20), task('b', 5)]);
    expect(seen).toEqual(['b:true', 'b:undefined', 'a:true', 'a:undefined']);
    expect(cls.getStore()).toBeUndefined();
  });

  it('lets a nested run of the same slot shadow the outer value until it ends', async () => {
    const cls = contextSlot<string | undefined>('cls');
    const other = contextSlot<number>('other');
    const seen: unknown[] = [];
    await cls.run('outer', () =>
      other.run(1, async () => {
        await cls.run('inner', async () => {
          await Promise.resolve();
          seen.push(cls.getStore(), other.getStore());
          await cls.run(undefined, async () => seen.push(cls.getStore()));
        });
        seen.push(cls.getStore(), other.getStore());
      }),
    );
    expect(seen).toEqual(['inner', 1, undefined, 'outer', 1]);
  });
});
