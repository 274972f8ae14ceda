/**
 * Redis: reachable with REDIS_URL, its version, and persistence. AOF must be on: without it a Redis
 * restart loses conversations, idempotency keys and order tracking (RDB snapshots alone lose the
 * minutes since the last one).
 */
import { createClient } from '@redis/client';
import type { Config } from '../config/env.js';
import { isSentinelUrl, parseSentinelUrl } from '../config/redis-url.js';
import { redisTarget, redisWhere } from '../store/connection/connect.js';
import { checkSentinels } from './sentinel.js';
import { type CheckResult, type DoctorContext, fail, ok, reason, skipped } from './types.js';

const field = (info: string, name: string) => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();

export async function checkRedis(config: Config, ctx: DoctorContext): Promise<CheckResult[]> {
  const url = config.REDIS_URL;
  if (!url)
    return [
      config.NODE_ENV === 'production'
        ? fail('redis', 'REDIS_URL is not set (required in production)')
        : skipped('redis', 'REDIS_URL is not set: state in memory (local mode)'),
    ];
  const where = redisWhere(url);
  const sentinel = isSentinelUrl(url) ? parseSentinelUrl(url) : undefined;
  if (sentinel instanceof Error) return [fail('redis', `REDIS_URL: ${sentinel.message}`)];
  const sentinelRows = sentinel ? await checkSentinels(sentinel, ctx.timeoutMs) : [];
  const { socket, ...target } = redisTarget(url);
  const client = createClient({
    ...target,
    socket: { connectTimeout: ctx.timeoutMs, reconnectStrategy: false, ...socket },
    disableOfflineQueue: true,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    const server = await client.info('server');
    const persistence = await client.info('persistence');
    const version = field(server, 'redis_version') ?? '?';
    const rows = [...sentinelRows, ok('redis', `${where}: Redis ${version}`)];
    const aof = field(persistence, 'aof_enabled') === '1';
    const fsync = aof ? await appendfsync(client) : undefined;
    rows.push(
      aof
        ? ok('redis persistence', `AOF on${fsync ? ` (appendfsync ${fsync})` : ''}`)
        : fail(
            'redis persistence',
            'AOF is off: a Redis restart loses conversations and order tracking; run redis-server with --appendonly yes',
          ),
    );
    return rows;
  } catch (err) {
    return [...sentinelRows, fail('redis', `${where}: ${reason(err)}`)];
  } finally {
    if (client.isOpen) await client.quit().catch(() => {});
  }
}

/** CONFIG GET appendfsync, when the server allows CONFIG (managed Redis often does not). */
async function appendfsync(client: { configGet(p: string): Promise<Record<string, string>> }) {
  try {
    return (await client.configGet('appendfsync')).appendfsync;
  } catch {
    return undefined;
  }
}
