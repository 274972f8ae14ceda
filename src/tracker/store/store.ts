/**
 * Where the tracker keeps its orders and guards. Key layout (prefix `p`, default `rampchat:`):
 *
 * - `<p>order:<id>`   hash, one compact record per order (./store-fields.ts), every value small so
 *                      Redis keeps it as a listpack (values up to 64 bytes):
 *                      - the order: `side`, `user.channel`, `user.id`, `network`, `walletAddress`,
 *                        `token.symbol`, `token.address`, `token.decimals`, `amountKes`, `paidKes`,
 *                        `tokenAmount`, `phone`, `createdAt` (always there), `txHash` (the id is
 *                        the key's);
 *                      - its tracking state: `stage`, `status`, `polls`, `errorStreak`, `lastError`,
 *                        `nextDueAt`, `receipt`, `reconcileAttempts`, `outcome` (the decided final
 *                        outcome, JSON); counters at 0 and absent values are left out;
 *                      - `rev` (the state's revision, bumped by every save; absent = 0), `posted`
 *                        (last status posted to the user), `final` (`posting|<token>|<ms>` then
 *                        `done`: the final message guard);
 *                      - the timeline: `ev:<n>` (OrderEvent JSON, n counting up, the newest 50
 *                        kept) and `events` (the last n).
 * - `<p>deposit:<id>` string: the deposit guard (DepositMarker JSON), written SET NX before the call.
 * - `<p>due`          sorted set (the sweep scheduler, ../schedule/sweep-scheduler.ts): the pending orders by
 *                      when their poll is due (or a taking process's lease ends). A new order is
 *                      listed here only; `start()` resumes, and the tracking gauge counts, the orders
 *                      of this set and of the tracking set together.
 * - `<p>tracking`     set, written by versions that scheduled with BullMQ: ids of their orders not yet
 *                      final, still read by `start()` (which queues them in the due set) and left as
 *                      each of those orders ends. Their BullMQ jobs (`<p>bull:tracker:…`) are moved
 *                      into the due set and deleted at the first sweep (../schedule/legacy-bull.ts).
 * - `<p>user-orders:<channel>:<id>` sorted set: the ids of the orders a chat user made (scored by
 *                      creation), so history and tickets answer for the owner's orders only.
 *
 * Orders stored by the previous layout are still read and saved in their own form until they end:
 * their hash has `order` and `state` (JSON) instead of the fields above, and their timeline is the
 * list `<p>order:<id>:events` (new entries go to the hash; the list is read first and expires with
 * the order).
 *
 * The keys of a finished order expire after the retention period; the deposit marker outlives
 * any retry, so a re-tracked order can never be released twice.
 */

export { StoredStateError } from './store-codec.js';
export { createMemoryTrackerStore } from './store-memory.js';
export { createRedisTrackerStore } from './store-redis.js';
export type { StoredOrder, TrackerStore } from './store-types.js';
