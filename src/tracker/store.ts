/**
 * Where the tracker keeps its orders and guards. Key layout (prefix `p`, default `rampchat:`):
 *
 * - `<p>order:<id>`   hash: `order` (TrackedOrder JSON), `state` (TrackingState JSON), `rev` (the
 *                      state's revision, bumped by every save; absent = 0), `posted`
 *                      (last status posted to the user), `final` (`posting|<token>|<ms>` then `done`:
 *                      the final message guard).
 * - `<p>order:<id>:events` list: the order's timeline (OrderEvent JSON, oldest first, capped).
 * - `<p>deposit:<id>` string: the deposit guard (DepositMarker JSON), written SET NX before the call.
 * - `<p>tracking`     set: ids of orders not yet final (resumed by `start()`).
 * - `<p>user-orders:<channel>:<id>` sorted set: the ids of the orders a chat user made (scored by
 *                      creation), so history and tickets answer for the owner's orders only.
 *
 * The keys of a finished order expire after the retention period; the deposit marker outlives
 * any retry, so a re-tracked order can never be released twice.
 *
 * The Redis variant is in ./store-redis.ts, the memory one in ./store-memory.ts; key names, codecs
 * and the deposit guard they share in ./store-codec.ts.
 */

export { StoredStateError } from './store-codec.js';
export { createMemoryTrackerStore } from './store-memory.js';
export { createRedisTrackerStore } from './store-redis.js';
export type { FinalClaim, StoredOrder, TrackerStore } from './store-types.js';
