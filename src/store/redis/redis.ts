/**
 * Redis session store. Key layout (prefix defaults to `rampchat:`):
 *
 * - `<p>user:<channel>:<id>`   hash `{ rev, base, chat }`: revision, the long-lived part (version,
 *   locale, profile) and the channel's scratch for the chat. No TTL, so a saved phone and wallets
 *   outlive abandoned flows.
 * - `<p>flow:<channel>:<id>`   string: the flow part, `EX flowTtlSeconds`, restarted on every save.
 * - `<p>seen:<updateId>`       `pending` once taken, `done` once handled (`EX dedupeTtlSeconds`).
 * - `<p>chat-lock:<user>`      the per-chat lock, `PX` its lifetime, renewed while held.
 * - `<p>idem:<key>`            JSON claim/outcome of a `createOnrampOrder`, `SET NX EX`.
 * - `<p>idem-pending`          sorted set of claims with no outcome yet, scored by when each may be
 *   handed to a reconciler (the claim time, then the end of each lease); `<p>idem-pending-data` is
 *   the hash of their data (`{ claimedAt, data }` JSON). Listed and unlisted together with the claim.
 * - `<p>idem-order:<orderId>`  the key a created order was recorded under.
 * - `<p>once:<name>`           a short-lived mark (`SET NX PX`): a notice given once across processes.
 *
 * Both session keys change together in one Lua compare-and-set on `rev`, so two processes never
 * lose each other's writes. An update takes two round trips: `begin` (lock, de-duplicate, load in
 * one script) and `finish` (the compare-and-set save of a step of messages only, mark handled,
 * release, in one script); three when its step saves on its own before another effect.
 */
import type { RedisClientType } from 'redis';
import type { Logger } from '../../log/logger.js';
import { connectRedis } from '../connection/connect.js';
import {
  DEFAULT_DEDUPE_TTL_SECONDS,
  DEFAULT_IDEMPOTENCY_TTL_SECONDS,
  type SessionStore,
  type StoreTtls,
} from '../types.js';
import { claimOps } from './redis-claims.js';
import { type RedisStoreContext, sessionKeys } from './redis-context.js';
import { sessionOps } from './redis-sessions.js';
import { updateOps } from './redis-updates.js';

export interface RedisStoreOptions extends StoreTtls {
  /** A connected client the caller owns, or `url` to let the store connect (and close) its own. */
  client?: RedisClientType;
  url?: string;
  prefix?: string;
  /** Where a lost connection is reported (a store that connects its own client). */
  logger?: Logger;
  /** How long connecting its own client may take (default DEFAULT_CONNECT_TIMEOUT_MS). */
  connectTimeoutMs?: number;
}

/** Connects (when given a url) and returns a Redis-backed store. */
export async function createRedisStore(opts: RedisStoreOptions): Promise<SessionStore> {
  let client = opts.client;
  const owned = !client;
  if (!client) {
    if (!opts.url) throw new Error('createRedisStore needs a client or a url');
    client = await connectRedis({
      url: opts.url,
      name: 'sessions',
      logger: opts.logger,
      connectTimeoutMs: opts.connectTimeoutMs,
    });
  }
  const redis = client;
  const ctx: RedisStoreContext = {
    redis,
    keys: sessionKeys(opts.prefix ?? 'rampchat:'),
    flowTtlSeconds: opts.flowTtlSeconds,
    dedupeTtlSeconds: opts.dedupeTtlSeconds ?? DEFAULT_DEDUPE_TTL_SECONDS,
    idempotencyTtlSeconds: opts.idempotencyTtlSeconds ?? DEFAULT_IDEMPOTENCY_TTL_SECONDS,
  };
  return {
    kind: 'redis',
    ...sessionOps(ctx),
    ...updateOps(ctx),
    ...claimOps(ctx),
    async close(): Promise<void> {
      if (owned) await redis.quit();
    },
  };
}
