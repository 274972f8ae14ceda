/**
 * One channel update, begun and finished. Per user, updates are handled one at a time in arrival
 * order: the in-process mutex keeps their order here, the store's chat lock (taken by `begin`) keeps
 * replicas from working on one chat at once. An update id handled to the end before is dropped; one
 * whose first taker died mid-way is handled again. `finish` marks it done only when it was handled,
 * so a failed one is redelivered. A step of messages only is saved by `finish` itself (./apply.ts).
 */
import type { Conversation } from '../../channels/types.js';
import type { UserRef } from '../../chat/types.js';
import { userKey } from '../../chat/types.js';
import type { Input, SessionBase } from '../../flows/types.js';
import { ChatBusyError, isStoreUnavailable, StoreUnavailableError } from '../../store/errors.js';
import type { BegunUpdate, DeferredSave } from '../../store/types.js';
import type { EngineCore } from '../core.js';
import { errSummary, loggableUser } from '../loggable.js';
import type { SaveAtFinish } from './apply.js';
import { chatScratch, type TrackedScratch } from './chat-scratch.js';
import { tellStoreDown } from './notices.js';
import { runInput } from './run-input.js';

type HandleOptions = Parameters<Conversation['handle']>[2];

/** `Conversation.handle`: the update, tracked in `pending` until it is fully handled. */
export async function handleUpdate<S extends SessionBase>(
  core: EngineCore<S>,
  user: UserRef,
  input: Input,
  opts?: HandleOptions,
): Promise<void> {
  const work = takeUpdate(core, user, input, opts);
  core.pending.add(work);
  try {
    await work;
  } finally {
    core.pending.delete(work);
  }
}

async function takeUpdate<S extends SessionBase>(
  core: EngineCore<S>,
  user: UserRef,
  input: Input,
  opts?: HandleOptions,
): Promise<void> {
  const updateKey = opts?.updateId ? `${user.channel}:${opts.updateId}` : undefined;
  try {
    await core.mutex.run(userKey(user), () => handleLocked(core, user, input, updateKey, opts));
  } catch (err) {
    // Nothing of the update was done: the user is asked to try again and the channel leaves it
    // unacknowledged, so a webhook delivery is redelivered once Redis is back.
    if (err instanceof StoreUnavailableError && updateKey) {
      core.log.warn({ user: loggableUser(user), err: errSummary(err) }, 'Redis is down; update not taken');
      err.told = await tellStoreDown(
        core,
        user,
        opts?.hints?.locale ?? 'en',
        opts?.hints?.sentAt,
        opts?.scope,
      );
      throw err;
    }
    // Another replica is still on this chat: nothing was done, the channel hands the update back.
    if (err instanceof ChatBusyError) {
      core.log.warn(
        { user: loggableUser(user) },
        'chat busy elsewhere past the lock wait; update handed back',
      );
      throw err;
    }
    core.log.error({ user: loggableUser(user), err: errSummary(err) }, 'input not handled');
  }
}

/** Under the user's mutex: begin the update, run it unless it was done before, finish it. */
async function handleLocked<S extends SessionBase>(
  core: EngineCore<S>,
  user: UserRef,
  input: Input,
  updateKey: string | undefined,
  opts?: HandleOptions,
): Promise<void> {
  const begun = await beginUpdate(core, user, updateKey, opts?.refuseWhenBusy);
  // Seen before: ignored if it was handled to the end; handled again if its first taker
  // died mid-way (this process now holds the chat's lock, so no one else is on it).
  if (begun.status === 'done') {
    core.log.debug({ user: loggableUser(user), updateId: opts?.updateId }, 'redelivered update ignored');
    return;
  }
  if (begun.status === 'unfinished')
    core.log.warn(
      { user: loggableUser(user), updateId: opts?.updateId },
      'an update whose first taker never finished it is handled again',
    );
  const scratch = chatScratch(begun.session.chat);
  // Under the lock, a step of messages only is saved by `finish` (see ./apply.ts).
  const atFinish: SaveAtFinish | undefined = begun.locked
    ? { redelivered: updateKey !== undefined }
    : undefined;
  let handled = false;
  let finished = false;
  try {
    if (!opts?.accept || (await opts.accept(scratch))) {
      await runInput(core, user, input, opts?.hints, begun.session, scratch, atFinish, opts?.scope);
      if (atFinish?.save) {
        finished = true;
        if (!(await finishWithSave(core, user, begun, scratch, atFinish.save))) {
          finished = false;
          core.log.warn(
            { user: loggableUser(user) },
            'the session changed under the chat lock before finish; the input is redone',
          );
          await runInput(core, user, input, opts?.hints, undefined, scratch, undefined, opts?.scope);
        }
      }
    }
    handled = true;
  } finally {
    if (!finished)
      await begun.finish({ done: handled, chat: scratch.changed() }).catch((err: unknown) => {
        core.log.warn({ user: loggableUser(user), err: errSummary(err) }, 'could not finish the update');
      });
  }
}

/**
 * Saves the step and finishes the update in one script: true when done, false when the session was
 * saved by someone else first (nothing done, the lock still held). When Redis fails here the update
 * is left unfinished, as by a kill: its redelivery redoes the step from the state before it.
 */
async function finishWithSave<S extends SessionBase>(
  core: EngineCore<S>,
  user: UserRef,
  begun: BegunUpdate,
  scratch: TrackedScratch,
  save: DeferredSave,
): Promise<boolean> {
  try {
    return await begun.finish({ done: true, chat: scratch.changed(), save });
  } catch (err) {
    core.log.warn(
      { user: loggableUser(user), err: errSummary(err) },
      'could not save and finish the update; a redelivery redoes it',
    );
    return true;
  }
}

/**
 * One round trip: the chat's lock (across replicas: one chat's updates one at a time; the
 * in-process mutex keeps their order here), the update's de-duplication, and the session.
 */
async function beginUpdate<S extends SessionBase>(
  core: EngineCore<S>,
  user: UserRef,
  updateKey: string | undefined,
  refuseWhenBusy = false,
): Promise<BegunUpdate> {
  try {
    return await core.deps.store.begin(userKey(user), {
      ...(updateKey ? { updateId: updateKey } : {}),
      refuseWhenBusy,
      onTimeout: () =>
        refuseWhenBusy ||
        core.log.warn({ user: loggableUser(user) }, 'chat lock not acquired in time; going on'),
    });
  } catch (err) {
    // Redis went down between taking the update and starting on it: nothing was done yet.
    if (isStoreUnavailable(err)) throw new StoreUnavailableError(err);
    throw err;
  }
}
