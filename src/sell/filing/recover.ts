/**
 * Crash recovery. The filing slot records when it was claimed, and a watcher job is queued before
 * it is claimed, so a process that dies anywhere between claiming the slot and recording the order
 * leaves something the watcher finds: a slot (or a `filing` status) older than `filingStaleMs` with
 * no order. Such a filing is re-filed with the same hash, which is safe for off-ramp orders, unlike
 * STK pushes: the ramp accepts a transaction hash once and answers it again with a Duplicate that
 * carries the existing order id, which maps to that order. So whether the dead process never sent
 * the POST, sent it without hearing back, or heard back without recording it, re-filing ends in the
 * one order. The wait (minutes, well past the ramp client's timeout) makes sure the first POST has
 * finished at the ramp before the same hash is sent again; a POST that timed out in a live process
 * is different (the ramp may still be working on it) and stays `filing-unknown` for support. The
 * order is tracked before `filed` is recorded, so a crash between the two re-files into a duplicate
 * and tracks again (a no-op) rather than leaving a filed order nobody follows. Before the same hash
 * is posted again, the ramp's history of the sender is asked (file.ts): a POST that timed out while
 * Redis was down left `filing` behind in a live process, and the order it may have created is found
 * there and mapped, not posted for a second time.
 */
import type { SellUpdate } from '../../flows/types.js';
import { verifyOrLater } from '../chain/verify.js';
import { escalate, intentLog, type SellContext, tell } from '../context.js';
import { userRefusal } from '../flow/reasons.js';
import { filingClaim, filingSlot, readFilingSlot, type SellIntent } from '../intents/intents.js';
import { markLostFiling, refuse } from '../intents/lifecycle.js';
import { file } from './file.js';

/** The watcher's next step for an intent: look again after `next` ms, or stop. */
export type PollResult = { next: number } | { done: true };

/**
 * The watcher's pass over an intent whose filing slot is held or whose status is `filing`: waits
 * while the filing may still be in progress, then recovers it. Undefined when no filing is held.
 * `t`: when the pass began.
 */
export async function pollHeldFiling(
  ctx: SellContext,
  intent: SellIntent,
  t: number,
): Promise<PollResult | undefined> {
  // A filing slot with no recorded order: a filing in progress, or one a dead process left.
  const slot = await ctx.intents.claimedBy(filingClaim(intent.id));
  if (intent.status !== 'filing' && slot === undefined) return undefined;
  const held = slot === undefined ? undefined : readFilingSlot(slot);
  const since = intent.status === 'filing' ? intent.updatedAt : held?.since;
  if (!staleSince(ctx, since, intent)) return { next: ctx.pollMs };
  const left = slot ?? (intent.hash ? filingSlot(intent.hash, intent.updatedAt) : undefined);
  if (left === undefined) {
    await markLostFiling(ctx, intent, t);
    await escalate(ctx, { reason: 'filing_unknown', intent });
    await tell(ctx, intent, { status: 'uncertain', hash: '' });
    return { done: true };
  }
  const update = await recoverFiling(ctx, intent, left);
  if (update.status !== 'checking') await tell(ctx, intent, update);
  return update.status === 'checking' ? { next: ctx.pollMs } : { done: true };
}

/** When a held filing slot (or a `filing` status) counts as left behind by a dead process. */
const staleSince = (ctx: SellContext, since: number | undefined, intent: SellIntent) =>
  ctx.now() - (since ?? intent.updatedAt) >= ctx.filingStaleMs;

/**
 * Re-files a filing a dead process left without an outcome (see the module comment): takes the
 * slot over (release-if-unchanged, then claim, so only one taker files), finds the sender (recorded
 * with `filing`, else read again from the chain) and files the same hash.
 */
async function recoverFiling(ctx: SellContext, intent: SellIntent, slot: string): Promise<SellUpdate> {
  const { intents } = ctx;
  const { hash } = readFilingSlot(slot);
  await intents.release(filingClaim(intent.id), slot);
  const mine = filingSlot(hash, ctx.now());
  if ((await intents.claim(filingClaim(intent.id), mine)) !== undefined) return { status: 'checking', hash };
  ctx.log.warn(
    { ...intentLog(intent), hash, status: intent.status },
    'a filing was left without an outcome (the process died); filing the same hash again',
  );
  let sender = intent.status === 'filing' && intent.hash === hash ? intent.sender : undefined;
  if (!sender) {
    const verdict = await verifyOrLater(ctx, intent, hash);
    if (!verdict || (!verdict.ok && verdict.retry)) return { status: 'checking', hash };
    if (!verdict.ok) {
      await intents.release(filingClaim(intent.id), mine);
      return refuse(ctx, intent, hash, userRefusal(verdict.reason), verdict.detail, verdict.ours);
    }
    sender = verdict.sender;
  }
  return file(ctx, intent, hash, sender, mine, true);
}
