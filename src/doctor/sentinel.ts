/**
 * Redis Sentinel (a `redis+sentinel://` REDIS_URL): how many of the Sentinels answer and which
 * primary they name. One answering is enough to connect; fewer than a majority cannot fail over.
 */
import type { SentinelTarget } from '../config/redis-url.js';
import { command, converse } from '../store/sentinel-resp.js';
import { type CheckResult, fail, ok } from './types.js';

export async function checkSentinels(target: SentinelTarget, timeoutMs: number): Promise<CheckResult[]> {
  const named = new Set<string>();
  const down: string[] = [];
  await Promise.all(
    target.sentinels.map(async (s) => {
      try {
        const cmds = [
          ...(target.sentinelPassword ? [command('AUTH', target.sentinelPassword)] : []),
          command('SENTINEL', 'get-master-addr-by-name', target.name),
        ];
        const { socket, replies } = await converse(s.host, s.port, cmds, timeoutMs);
        socket.destroy();
        const r = replies.at(-1);
        if (Array.isArray(r) && typeof r[0] === 'string') named.add(`${r[0]}:${String(r[1])}`);
        else down.push(`${s.host}:${s.port} (does not know "${target.name}")`);
      } catch {
        down.push(`${s.host}:${s.port} (no answer)`);
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
