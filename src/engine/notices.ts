/** Messages sent outside a flow step: "the store is down" and the tracker's or reconciler's notices. */
import type { Locale, OutMessage, UserRef } from '../chat/types.js';
import { userKey } from '../chat/types.js';
import type { SessionBase } from '../flows/types.js';
import { decodeSession } from '../store/session-codec.js';
import { deliver } from './channels.js';
import { chatScratch, type TrackedScratch } from './chat-scratch.js';
import type { EngineCore } from './core.js';
import { errSummary, loggableUser } from './loggable.js';
import { ENGINE_TEXTS, textMessage } from './types.js';

/** "Try again in a moment", at most once a minute per user (a webhook redelivers several times). */
export async function tellStoreDown<S extends SessionBase>(
  core: EngineCore<S>,
  user: UserRef,
  locale: Locale,
): Promise<void> {
  const key = userKey(user);
  const t = core.now();
  if ((core.storeDownToldAt.get(key) ?? 0) > t - 60_000) return;
  core.storeDownToldAt.set(key, t);
  if (core.storeDownToldAt.size > 10_000) core.storeDownToldAt.clear();
  await deliver(core, user, textMessage(ENGINE_TEXTS.storeDown), locale);
}

/**
 * Sends a notice in the user's language (English when the session cannot be read), then saves the
 * chat's scratch if the channel changed it. A notice that could not be delivered is thrown: its
 * sender (the tracker, the desk) keeps it.
 */
export async function notify<S extends SessionBase>(
  core: EngineCore<S>,
  user: UserRef,
  message: OutMessage,
): Promise<void> {
  const { store, flow } = core.deps;
  let locale: Locale = 'en';
  let scratch: TrackedScratch | undefined;
  try {
    const stored = await store.load(userKey(user));
    scratch = chatScratch(stored.chat);
    locale = decodeSession(flow, stored).session.locale;
  } catch (err) {
    core.log.warn({ user: loggableUser(user), err: errSummary(err) }, 'could not read the locale; using en');
  }
  await deliver(core, user, { ...message, notice: true }, locale, scratch, { rethrow: true });
  const changed = scratch?.changed();
  if (changed !== undefined)
    await store.saveChat(userKey(user), changed).catch((err: unknown) => {
      core.log.warn({ user: loggableUser(user), err: errSummary(err) }, 'could not save the chat scratch');
    });
}
