/** Messages sent outside a flow step: "the store is down" and the tracker's or reconciler's notices. */

import type { Locale, OutMessage, UserRef } from '../../chat/types.js';
import { userKey } from '../../chat/types.js';
import type { SessionBase } from '../../flows/types.js';
import { NO_SCOPE, noteDelivery, type SendScope } from '../../outbound/index.js';
import { decodeSession } from '../../store/session-codec.js';
import { deliver } from '../channels.js';
import type { EngineCore } from '../core.js';
import { errSummary, loggableUser } from '../loggable.js';
import { ENGINE_TEXTS, textMessage } from '../types.js';
import { chatScratch, type TrackedScratch } from './chat-scratch.js';

/** An update whose message is at most this old is taken for its first delivery (see tellStoreDown). */
export const FIRST_DELIVERY_MS = 5_000;

/** Rejects when `p` takes longer than `ms` (a Redis that hangs instead of refusing). */
const within = <T>(p: Promise<T>, ms: number): Promise<T> =>
  Promise.race([
    p,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer')), ms).unref()),
  ]);

/**
 * "Try again in a moment", at most once a minute per user, although a webhook update refused while
 * Redis is down is redelivered several times, to any replica. Each process keeps its own minute per
 * user; across processes a mark in Redis (`SET NX PX 60000`) decides, when Redis answers. When it
 * does not, no replica can learn what another did, and there is no sound rule that needs no shared
 * state: the best one is to tell only on an update's first delivery, recognised by the age of the
 * message (`sentAt`: Telegram's `date`), which a first delivery brings within a second or two while
 * a redelivery comes after the refused attempt. A redelivery inside FIRST_DELIVERY_MS may still
 * tell twice, and an update without a date (a button tap) falls back to the process's own minute.
 * Resolves true when the user was told (the update may then be let go).
 */
export async function tellStoreDown<S extends SessionBase>(
  core: EngineCore<S>,
  user: UserRef,
  locale: Locale,
  sentAt?: number,
  scope?: SendScope,
): Promise<boolean> {
  const key = userKey(user);
  const t = core.now();
  if ((core.storeDownToldAt.get(key) ?? 0) > t - 60_000) return false;
  core.storeDownToldAt.set(key, t);
  if (core.storeDownToldAt.size > 10_000) core.storeDownToldAt.clear();
  const ours = await within(core.deps.store.markOnce(`store-down:${key}`, 60_000), 1000).catch(
    // Redis cannot answer: the first delivery tells.
    () => sentAt === undefined || t - sentAt <= FIRST_DELIVERY_MS,
  );
  if (ours) await deliver(core, user, textMessage(ENGINE_TEXTS.storeDown), locale, undefined, { scope });
  return ours;
}

/**
 * Sends a notice in the user's language (English when the session cannot be read), then saves the
 * chat's scratch if the channel changed it. A notice that could not be delivered is thrown: its
 * sender (the tracker, the desk) keeps it. `scope`: what the sender's work says of its sends.
 */
export async function notify<S extends SessionBase>(
  core: EngineCore<S>,
  user: UserRef,
  message: OutMessage,
  scope: SendScope = NO_SCOPE,
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
  noteDelivery(scope, { locale });
  await deliver(core, user, { ...message, notice: true }, locale, scratch, { rethrow: true, scope });
  const changed = scratch?.changed();
  if (changed !== undefined)
    await store.saveChat(userKey(user), changed).catch((err: unknown) => {
      core.log.warn({ user: loggableUser(user), err: errSummary(err) }, 'could not save the chat scratch');
    });
}
