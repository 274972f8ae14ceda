/**
 * Redis connections that survive a Redis restart. A node-redis client with no 'error' listener
 * crashes the process when its socket closes; these log the outage once (and its end), reconnect
 * with a capped backoff, and fail commands at once while disconnected instead of queueing them, so
 * an update that arrives during an outage is answered "try again" rather than left hanging.
 */
import { createRequire } from 'node:module';
import type { RESP_TYPES } from '@redis/client';
import type { RedisClientType } from 'redis';
import { isSentinelUrl, parseSentinelUrl, redisUrlWhere } from '../../config/redis-url.js';
import type { Logger } from '../../log/logger.js';
import { waitFor } from '../../log/waiting.js';
import { forwarderFor } from './sentinel.js';

/**
 * RESP's bulk-string type (node-redis's `RESP_TYPES.BLOB_STRING`), for clients that read bytes as
 * Buffers; a constant here so that a start without Redis does not load node-redis to learn it.
 */
export const BLOB_STRING = 36 as typeof RESP_TYPES.BLOB_STRING;

/** How long a first connection may take by default before the start gives up (ms). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;

type NewClient = (options: Parameters<typeof import('redis').createClient>[0]) => RedisClientType;
/** The client module alone: the package's index also loads its cluster, pool and sentinel (~30 ms). */
const CLIENT_MODULE = '@redis/client/dist/lib/client/index.js';
type ClientModule = typeof import('@redis/client/dist/lib/client/index.js');
let clientClass: ClientModule['default'] | undefined;
let newClient: NewClient | undefined;

/**
 * node-redis's client alone (not the `redis` bundle of modules we do not use: JSON, search, time
 * series, bloom; nor its cluster and sentinel clients), loaded by the first `connectRedis`, so a
 * start without Redis never loads it. An import rather than a require so the build bundles it (a
 * require from node_modules reads some hundred files). Its class (every command on one prototype,
 * about 25 ms to build) is built once: `createClient` builds it again for each client whose options
 * differ, and the app opens five.
 */
export async function loadRedisClient(): Promise<void> {
  if (clientClass) return;
  const loaded = (await import('@redis/client/dist/lib/client/index.js')) as ClientModule & {
    default: ClientModule | ClientModule['default'];
  };
  // A CommonJS module: its exports object is the namespace's default (the bundle offers no other).
  const exported = loaded.default;
  clientClass = 'default' in exported ? exported.default : exported;
}

function requireRedis(): NewClient {
  if (!newClient) {
    // A client made before any connectRedis (some tests) loads the module synchronously.
    clientClass ??= (createRequire(import.meta.url)(CLIENT_MODULE) as ClientModule).default;
    newClient = clientClass.factory({}) as unknown as NewClient;
  }
  return newClient;
}

export interface RedisConnectOptions {
  url: string;
  logger?: Logger;
  /** Named in the logs (e.g. "sessions", "tracker"). */
  name: string;
  /** Queue commands while disconnected instead of failing them (the tracker's, which may wait). */
  queueWhileDown?: boolean;
  /** `connectRedis`: how long the first connection may take (default DEFAULT_CONNECT_TIMEOUT_MS). */
  connectTimeoutMs?: number;
}

/** Where a Redis URL points, without its password (for log lines and errors). */
export const redisWhere = (url: string): string => redisUrlWhere(url);

/** Creates a client with error handling and reconnection; call `connect()` on it (or use `connectRedis`). */
export function createResilientClient(opts: RedisConnectOptions): RedisClientType {
  const reconnectStrategy = (retries: number) => Math.min(100 * 2 ** Math.min(retries, 5), 3_000);
  const { socket, ...target } = redisTarget(opts.url, opts.logger);
  const client = requireRedis()({
    disableOfflineQueue: !opts.queueWhileDown,
    // node-redis times a command only until it is written (a written command to a hung Redis waits
    // on regardless), at the price of a timer and an abort signal per command. A client that fails
    // commands while down writes them at once (unless the socket's buffer is full), so the timer
    // buys next to nothing; a queueing client keeps it, so that a command queued through a long
    // outage fails instead of waiting for ever.
    ...(opts.queueWhileDown ? {} : { commandOptions: { timeout: 0 } }),
    ...target,
    socket: { reconnectStrategy, ...socket },
  }) as RedisClientType;
  watchRedisClient(client, opts.name, opts.logger);
  return client;
}

/**
 * What a client of REDIS_URL is created with: the URL itself, or for a `redis+sentinel://` URL the
 * client connects to this process's forwarder (./sentinel.ts), which
 * joins each connection to the primary the Sentinels name; the credentials and database are the
 * data nodes'.
 */
export function redisTarget(
  url: string,
  logger?: Logger,
): { url?: string; database?: number; username?: string; password?: string; socket: { path?: string } } {
  if (!isSentinelUrl(url)) return { url, socket: {} };
  const target = parseSentinelUrl(url);
  if (target instanceof Error) throw new Error(`REDIS_URL: ${target.message}`);
  return {
    database: target.db,
    ...(target.username ? { username: target.username } : {}),
    ...(target.password ? { password: target.password } : {}),
    socket: { path: forwarderFor(url, target, logger).path },
  };
}

/** Adds the listeners that keep an outage from crashing the process; logs once per outage. */
export function watchRedisClient(client: RedisClientType, name: string, logger?: Logger): void {
  let down = false;
  client.on('error', (err: Error) => {
    if (down) return;
    down = true;
    logger?.warn({ redis: name, err: err.message }, 'Redis connection lost; reconnecting');
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    logger?.warn({ redis: name }, 'Redis connection back');
  });
}

/**
 * Connects a resilient client, saying what it waits for; a Redis that does not answer within the
 * connect timeout fails the call (node-redis alone would retry in silence for ever).
 */
export async function connectRedis(opts: RedisConnectOptions): Promise<RedisClientType> {
  await loadRedisClient();
  const client = createResilientClient(opts);
  await waitFor(
    {
      what: `Redis (${opts.name}) at ${redisWhere(opts.url)}`,
      timeoutMs: opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      logger: opts.logger,
      hint: 'check REDIS_URL and that Redis is running',
      onTimeout: () => client.destroy(),
    },
    () => client.connect(),
  );
  return client;
}

/**
 * How a lazily connected client is used: the first call connects it (once, however many callers
 * wait), later calls get it at once.
 */
export function connectOnFirstUse(client: RedisClientType): () => Promise<RedisClientType> {
  let connecting: Promise<unknown> | undefined;
  return async () => {
    if (!client.isOpen) {
      connecting ??= client.connect();
      await connecting;
    }
    return client;
  };
}
