/**
 * Wake-ups between the replicas' outboxes. A replica that lets go of its chats (a stop) or puts a
 * message it will not send itself publishes on `<base>wake`, and every other replica's outbox looks
 * for chats to take at once instead of at its next regular look. One subscriber connection per
 * outbox, which looks once as soon as it listens (for wake-ups sent while it connected); while it
 * is down, the regular look (every couple of seconds) still finds everything.
 */
import type { RedisClientType } from 'redis';
import type { Logger } from '../log/logger.js';
import { watchRedisClient } from '../store/connection/connect.js';

const WAKE_GATHER_MS = 50;

/** Subscribes `onWake` to the channel on a connection of its own; the result closes it. */
export function subscribeWakes(
  redis: RedisClientType,
  channel: string,
  onWake: () => void,
  log?: Logger,
): () => Promise<void> {
  const sub = redis.duplicate();
  watchRedisClient(sub, 'outbox wake-ups', log);
  let closing = false;
  // A burst of wake-ups (a non-sending instance putting many messages) makes one look per 50 ms.
  let soon: NodeJS.Timeout | undefined;
  // None once closing: a look after the hand-over would take back chats this outbox let go of.
  const wake = () => {
    if (closing) return;
    soon ??= setTimeout(() => {
      soon = undefined;
      if (!closing) onWake();
    }, WAKE_GATHER_MS);
  };
  const subscribed = (async () => {
    await sub.connect();
    // A connect that a close overtook can still end connected: it is closed here then.
    if (closing) return sub.destroy();
    await sub.subscribe(channel, wake);
    // A wake-up published while this connected was missed: one look now finds what it announced.
    wake();
  })().catch((err: unknown) => {
    if (!closing)
      log?.warn(
        { err: (err as Error).message },
        'outbox: no wake-ups from other replicas; looking regularly',
      );
  });
  return async () => {
    closing = true;
    clearTimeout(soon);
    if (!sub.isReady) {
      sub.destroy();
      return;
    }
    await subscribed;
    await sub.close().catch(() => sub.destroy());
  };
}
