/**
 * Redis Sentinel (a `redis+sentinel://` REDIS_URL): how many of the Sentinels answer and which
 * primary they name. One answering is enough to connect; fewer than a majority cannot fail over.
 */
import type { SentinelTarget } from '../config/redis-url.js';
import { primaryNamedBy } from '../store/connection/sentinel-resp.js';
import { type CheckResult, fail, ok } from './types.js';

export async function checkSentinels(target: SentinelTarget, timeoutMs: number): Promise<CheckResult[]> {
  const named = new Set<string>();
  const down: string[] = [];
  await Promise.all(
    target.sentinels.map(async (s) => {
      try {
        const p = await primaryNamedBy(s, target, timeoutMs);
        named.add(`${p.host}:${p.port}`);
      } catch (err) {
        const why = (err as Error).message.startsWith('does not know') ? (err as Error).message : 'no answer';
        down.push(`${s.host}:${s.port} (${why})`);
      }
    }),
  );
  const answering = target.sentinels.length - down.length;
  const summary = `${answering} of ${target.sentinels.length} Sentinels name primary "${target.name}" as ${[...named].join(' / ') || '?'}`;
  if (answering === 0) return [fail('redis sentinel', `no Sentinel answers: ${down.join(', ')}`)];
  if (named.size > 1) return [fail('redis sentinel', `${summary}: they disagree`)];
  if (answering <= target.sentinels.length / 2)
    return [
      fail('redis sentinel', `${summary}; not answering: ${down.join(', ')} (no majority: no failover)`),
    ];
  return [ok('redis sentinel', down.length ? `${summary}; not answering: ${down.join(', ')}` : summary)];
}
