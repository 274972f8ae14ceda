/** The channel registry: messages go out through the adapter named by the user's channel. */
import type { ChannelAdapter, ChatScratch } from '../channels/types.js';
import type { Locale, OutMessage, UserRef } from '../chat/types.js';
import type { SessionBase } from '../flows/types.js';
import type { EngineCore } from './core.js';
import { errSummary, loggableUser } from './loggable.js';

/** Adds or replaces the adapter for `adapter.name`. */
export function registerChannel<S extends SessionBase>(core: EngineCore<S>, adapter: ChannelAdapter): void {
  core.channels.set(adapter.name, adapter);
}

/**
 * Sends through the user's channel; a missing adapter or a failed send is logged, and thrown too
 * with `rethrow` (a notice's sender keeps what could not be delivered, and tries again).
 */
export async function deliver<S extends SessionBase>(
  core: EngineCore<S>,
  user: UserRef,
  message: OutMessage,
  locale: Locale,
  scratch?: ChatScratch,
  opts: { rethrow?: boolean } = {},
): Promise<void> {
  const channel = core.channels.get(user.channel);
  if (!channel) {
    core.log.error({ user: loggableUser(user) }, `no channel adapter registered for ${user.channel}`);
    if (opts.rethrow) throw new Error(`no channel adapter registered for ${user.channel}`);
    return;
  }
  try {
    await channel.send(user.id, message, locale, scratch);
  } catch (err) {
    core.log.error({ user: loggableUser(user), err: errSummary(err) }, 'sending a message failed');
    if (opts.rethrow) throw err;
  }
}
