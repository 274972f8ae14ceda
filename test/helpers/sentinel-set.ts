/**
 * A primary, a replica and three Sentinels of a test's (or the chaos run's) own, on free ports (or
 * given ones): the primary can be SIGKILLed and the Sentinels promote the replica within seconds
 * (down-after 1 s). `url` is the app's REDIS_URL for them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { freePort } from './redis-server.js';

export const SENTINEL_NAME = 'mymaster';

export interface SentinelSet {
  url: string;
  ports: { primary: number; replica: number; sentinels: number[] };
  /** The data node the Sentinels name as primary now. */
  primaryPort(): Promise<number | undefined>;
  /** SIGKILLs a data node (the primary, usually). */
  kill(port: number): Promise<void>;
  /** Waits until the Sentinels name another primary than `port`; resolves with when they did (epoch ms). */
  promotedFrom(port: number, timeoutMs?: number): Promise<number>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Asks one Sentinel; undefined when it does not answer. */
async function askSentinel(port: number, ...args: string[]): Promise<unknown> {
  const c = createClient({ socket: { port, host: '127.0.0.1', reconnectStrategy: false } });
  c.on('error', () => {});
  try {
    await c.connect();
    return await c.sendCommand(['SENTINEL', ...args]);
  } catch {
    return undefined;
  } finally {
    if (c.isOpen) c.destroy();
  }
}

/** The replica's link to its primary is up (its first sync done). */
async function replicaInSync(port: number): Promise<boolean> {
  const c = createClient({ socket: { port, host: '127.0.0.1', reconnectStrategy: false } });
  c.on('error', () => {});
  try {
    await c.connect();
    return /master_link_status:up/.test(await c.info('replication'));
  } catch {
    return false;
  } finally {
    if (c.isOpen) c.destroy();
  }
}

export async function startSentinelSet(
  ports: { primary?: number; replica?: number; sentinels?: number[] } = {},
): Promise<SentinelSet> {
  const dir = mkdtempSync(join(tmpdir(), 'rampchat-sentinel-set-'));
  const primary = ports.primary ?? (await freePort());
  const replica = ports.replica ?? (await freePort());
  const sentinels = ports.sentinels ?? [await freePort(), await freePort(), await freePort()];
  const children = new Map<number, ChildProcess>();
  const run = (port: number, args: string[]) => {
    const child = spawn('redis-server', args, { stdio: 'ignore' });
    children.set(port, child);
  };
  const node = (port: number, extra: string[] = []) =>
    run(port, [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      ...extra,
    ]);
  node(primary);
  node(replica, ['--replicaof', '127.0.0.1', String(primary)]);
  for (const port of sentinels) {
    const conf = join(dir, `sentinel-${port}.conf`);
    writeFileSync(
      conf,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor ${SENTINEL_NAME} 127.0.0.1 ${primary} 2`,
        `sentinel down-after-milliseconds ${SENTINEL_NAME} 1000`,
        `sentinel failover-timeout ${SENTINEL_NAME} 5000`,
        `sentinel parallel-syncs ${SENTINEL_NAME} 1`,
        '',
      ].join('\n'),
    );
    run(port, [conf, '--sentinel']);
  }
  const set: SentinelSet = {
    url: `redis+sentinel://${sentinels.map((p) => `127.0.0.1:${p}`).join(',')}/${SENTINEL_NAME}`,
    ports: { primary, replica, sentinels },
    async primaryPort() {
      for (const port of sentinels) {
        const r = await askSentinel(port, 'get-master-addr-by-name', SENTINEL_NAME);
        if (Array.isArray(r) && r[1]) return Number(r[1]);
      }
      return undefined;
    },
    async kill(port) {
      const c = children.get(port);
      children.delete(port);
      if (!c || c.exitCode !== null) return;
      const exited = new Promise((resolve) => c.once('exit', resolve));
      c.kill('SIGKILL');
      await exited;
    },
    async promotedFrom(port, timeoutMs = 30_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const now = await set.primaryPort();
        if (now !== undefined && now !== port) return Date.now();
        if (Date.now() > end)
          throw new Error(`the Sentinels did not promote a replica within ${timeoutMs} ms`);
        await sleep(100);
      }
    },
    async stop() {
      for (const port of [...children.keys()]) await set.kill(port);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  // Ready: every Sentinel knows the replica and the two other Sentinels (a quorum can act).
  const end = Date.now() + 20_000;
  for (;;) {
    const checks = await Promise.all(
      sentinels.map(async (p) => {
        const reps = await askSentinel(p, 'replicas', SENTINEL_NAME);
        const peers = await askSentinel(p, 'sentinels', SENTINEL_NAME);
        return Array.isArray(reps) && reps.length === 1 && Array.isArray(peers) && peers.length === 2;
      }),
    );
    if (checks.every(Boolean) && (await replicaInSync(replica))) break;
    if (Date.now() > end) {
      await set.stop();
      throw new Error('the Sentinel set did not come up within 20 s');
    }
    await sleep(200);
  }
  return set;
}
