/**
 * Redis behind Sentinel, for clients that stay plain node-redis clients (`RedisClientType`).
 *
 * Why this shape: node-redis 6 has a Sentinel client (`createSentinel`), but it is another type
 * (`RedisSentinelType`: no `quit`, `duplicate`, `scanIterator` as the app uses them, pools instead of
 * one connection, its own events), and the app passes `RedisClientType` through every part. A plain
 * client cannot be pointed elsewhere either: its socket options (host, port) are fixed when it is
 * created and reused on every reconnect. So each process runs one small forwarder on a private Unix
 * socket, and every client of a `redis+sentinel://` REDIS_URL connects to that socket. For each
 * connection the forwarder asks the Sentinels which node is the primary (the first one that answers;
 * it is tried first next time), connects to it, checks that it really is the primary (`ROLE`, after
 * `AUTH` when there is a password), and only then joins the two connections byte for byte: what the
 * client sends (its own AUTH, SELECT, commands, scripts, MULTI) reaches the primary unchanged.
 *
 * When the primary changes, the connections to the old one are cut so their clients reconnect (with
 * their usual backoff) and are joined to the new one: a primary that died closes them by itself; one
 * that was demoted is found by asking the Sentinels every `pollMs` while connections are open, and by
 * a `-READONLY` reply passing through (a write that reached a replica). A command in flight when its
 * connection is cut fails like any during a Redis outage; the writes the old primary had not yet
 * replicated are lost, as Redis's asynchronous replication loses them.
 *
 * Not covered: TLS to the data nodes (a `rediss` primary would need the ROLE check inside TLS).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SentinelTarget } from '../../config/redis-url.js';
import type { Logger } from '../../log/logger.js';
import { command, converse, primaryNamedBy, type Resp } from './sentinel-resp.js';

export interface SentinelForwarder {
  /** The Unix socket clients connect to. */
  readonly path: string;
  /** The primary connections were last joined to (host:port), if any. */
  primary(): string | undefined;
  close(): void;
}

export interface ForwarderOptions {
  /** How often the Sentinels are asked again while connections are open (default 1000 ms). */
  pollMs?: number;
  /** How long a Sentinel or a node may take to answer (default 1000 ms). */
  askTimeoutMs?: number;
  logger?: Logger;
}

type Addr = { host: string; port: number };
const key = (a: Addr) => `${a.host}:${a.port}`;

/** Starts a forwarder for `target` (listening at once: a client may connect right away). */
export function createSentinelForwarder(
  target: SentinelTarget,
  opts: ForwarderOptions = {},
): SentinelForwarder {
  const timeoutMs = opts.askTimeoutMs ?? 1000;
  const dir = mkdtempSync(join(tmpdir(), 'rampchat-sentinel-'));
  const path = join(dir, 'primary.sock');
  const sentinels = [...target.sentinels];
  const joined = new Set<{ to: string; cut: () => void }>();
  let last: string | undefined;

  /** The primary's address as the first Sentinel that answers names it; that Sentinel goes first next time. */
  const askSentinels = async (): Promise<Addr> => {
    const errors: string[] = [];
    for (const s of [...sentinels]) {
      try {
        const primary = await primaryNamedBy(s, target, timeoutMs);
        sentinels.splice(sentinels.indexOf(s), 1);
        sentinels.unshift(s);
        return primary;
      } catch (err) {
        errors.push(`${key(s)}: ${(err as Error).message}`);
      }
    }
    throw new Error(`no Sentinel named the primary (${errors.join('; ')})`);
  };

  /** A connection to the primary, checked to be one (ROLE master). */
  const connectPrimary = async (): Promise<{ socket: net.Socket; at: string }> => {
    const addr = await askSentinels();
    const auth = target.password
      ? [command('AUTH', ...(target.username ? [target.username] : []), target.password)]
      : [];
    const { socket, replies } = await converse(addr.host, addr.port, [...auth, command('ROLE')], timeoutMs);
    const role = replies.at(-1) as Resp;
    const authErr = auth.length ? replies[0] : undefined;
    if (authErr instanceof Error || !Array.isArray(role) || role[0] !== 'master') {
      socket.destroy();
      throw new Error(
        `${key(addr)} is not the primary (${authErr instanceof Error ? authErr.message : `role ${Array.isArray(role) ? String(role[0]) : '?'}`})`,
      );
    }
    return { socket, at: key(addr) };
  };

  const server = net.createServer((client) => {
    client.pause();
    client.on('error', () => {});
    connectPrimary().then(
      ({ socket: up, at }) => {
        if (client.destroyed) return void up.destroy();
        if (last !== at) opts.logger?.warn({ primary: at }, 'Redis Sentinel: connections go to this primary');
        last = at;
        const entry = {
          to: at,
          cut: () => {
            client.destroy();
            up.destroy();
          },
        };
        joined.add(entry);
        const end = () => {
          joined.delete(entry);
          entry.cut();
        };
        up.on('error', end).on('close', end);
        client.on('close', end);
        up.on('data', (chunk: Buffer) => {
          client.write(chunk);
          // A write answered by a replica: this connection's primary was demoted.
          if (chunk.includes('-READONLY ')) setImmediate(end);
        });
        client.pipe(up);
        up.resume();
      },
      (err: unknown) => {
        opts.logger?.warn({ err: (err as Error).message }, 'Redis Sentinel: no primary to connect to yet');
        client.destroy();
      },
    );
  });
  server.on('error', (err) => opts.logger?.error({ err: err.message }, 'Redis Sentinel forwarder failed'));
  server.listen(path);
  server.unref();

  const poll = setInterval(() => {
    if (joined.size === 0) return;
    void askSentinels().then(
      (addr) => {
        const now = key(addr);
        for (const j of joined) if (j.to !== now) j.cut();
      },
      () => {},
    );
  }, opts.pollMs ?? 1000);
  poll.unref();

  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', cleanup);
  return {
    path,
    primary: () => last,
    close() {
      clearInterval(poll);
      for (const j of joined) j.cut();
      server.close();
      cleanup();
      process.off('exit', cleanup);
    },
  };
}

const forwarders = new Map<string, SentinelForwarder>();

/** The process's forwarder for a Sentinel URL (one per URL, made on first use). */
export function forwarderFor(url: string, target: SentinelTarget, logger?: Logger): SentinelForwarder {
  let f = forwarders.get(url);
  if (!f) {
    f = createSentinelForwarder(target, logger ? { logger } : {});
    forwarders.set(url, f);
  }
  return f;
}
