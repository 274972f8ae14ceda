/**
 * Diagnostics for the conversation benchmark's measured stretch, each off unless asked for:
 * where promises are made (BENCH_SITES: stack frames of each promise's birth, counted) and what is
 * allocated where (BENCH_HEAP_PROF: V8's sampling heap profiler, collected objects included, as a
 * `.heapprofile` for Chrome DevTools). Both slow the process they watch: their runs' CPU figures
 * are not comparable with other runs.
 */
import { createHook } from 'node:async_hooks';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

/** Counts promises by the first `depth` frames (ours and libraries', Node's internals left out) where each is made. */
export function promiseSites(depth: number): { stop(updates: number): string } {
  const sites = new Map<string, number>();
  // Enough frames for `depth` of ours and the libraries' once Node's internals are left out.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = depth + 20;
  const hook = createHook({
    init(_id, type) {
      if (type !== 'PROMISE') return;
      const frames = (new Error().stack ?? '')
        .split('\n')
        .slice(2)
        .filter((l) => !l.includes('node:internal') && !l.includes('async_hooks'))
        .slice(0, depth)
        .map((l) => l.trim().replace(/\(.*\/(src|node_modules|bench)\//, '($1/'));
      const key = frames.join(' < ');
      sites.set(key, (sites.get(key) ?? 0) + 1);
    },
  }).enable();
  return {
    stop(updates) {
      hook.disable();
      Error.stackTraceLimit = limit;
      return [...sites]
        .sort((a, b) => b[1] - a[1])
        .map(([site, n]) => `${(n / Math.max(1, updates)).toFixed(2)}  ${site}`)
        .join('\n');
    },
  };
}

/** Samples allocations (every 512 bytes on average), collected objects included. */
export async function heapSampling(): Promise<{ stop(dir: string, name: string): Promise<string> }> {
  const session = new Session();
  session.connect();
  const post = <T>(method: string, params: object = {}) =>
    new Promise<T>((resolve, reject) =>
      session.post(method, params, (err, res) => (err ? reject(err) : resolve(res as T))),
    );
  await post('HeapProfiler.startSampling', {
    samplingInterval: 512,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return {
    async stop(dir, name) {
      const { profile } = await post<{ profile: unknown }>('HeapProfiler.stopSampling');
      session.disconnect();
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `${name}.heapprofile`);
      writeFileSync(file, JSON.stringify(profile));
      return file;
    },
  };
}
