/** The channel registry: messages go out through the adapter named by the user's channel. */
import type { ChannelAdapter, ChatScratch } from '../channels/types.js';
import { HandedOverError, type Locale, type OutMessage, type UserRef } from '../chat/types.js';
import type { SessionBase } from '../flows/types.js';
import type { SendScope } from '../outbound/index.js';
import type { EngineCore } from './core.js';
import { errSummary, loggableUser } from './loggable.js';

/** Adds or replaces the adapter for `adapter.name`. */
export function registerChannel<S extends SessionBase>(core: EngineCore<S>, adapter: ChannelAdapter): void {
  core.channels.set(adapter.name, adapter);
}

/**
 * Sends through the user's channel for the work of `scope`; a missing adapter or a failed send is
 * logged (and what the platform said noted in the scope's `refused`), and thrown too with `rethrow`
 * (a notice's sender keeps what could not be delivered, and tries again).
 */
export async function deliver<S extends SessionBase>(
  core: EngineCore<S>,
  user: UserRef,
  message: OutMessage,
  locale: Locale,
  scratch?: ChatScratch,
  opts: { rethrow?: boolean; scope?: SendScope | undefined } = {},
): Promise<void> {
  const channel = core.channels.get(user.channel);
  if (!channel) {
    core.log.error({ user: loggableUser(user) }, `no channel adapter registered for ${user.channel}`);
    if (opts.rethrow) throw new Error(`no channel adapter registered for ${user.channel}`);
    return;
  }
  try {
    await channel.send(user.id, message, locale, scratch, opts.scope);
  } catch (err) {
    // Left in the outbox at a stop: another replica sends it, so it was taken all the same.
    if (err instanceof HandedOverError) return;
    core.log.error({ user: loggableUser(user), err: errSummary(err) }, 'sending a message failed');
    opts.scope?.refused?.push(errSummary(err).message);
    if (opts.rethrow) throw err;
  }
}
