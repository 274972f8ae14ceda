/**
 * Watching an intent after its link went out, and cancelling it. One watcher pass (`poll`, run by
 * src/sell/watcher.ts when due) looks, in this order, at a held filing (recover.ts), the pending
 * hashes, an Algorand payment found by its note, and the link's expiry; then says when to look
 * again. Whatever it finds is told to the user's chat, since no effect of theirs is waiting for it.
 */

import { findPayment } from '../chains/algorand/index.js';
import type { SellUpdate } from '../flows/types.js';
import { saleDoneKey } from '../recovery/index.js';
import { checkHash } from './check.js';
import { intentLog, type SellContext, tell } from './context.js';
import { filingClaim, type SellIntent } from './intents.js';
import { FILING_STATUSES, FINAL_STATUSES, markCancelled, markExpired } from './lifecycle.js';
import { type PollResult, pollHeldFiling } from './recover.js';

/** An outcome after which the intent needs no more watching. */
const ends = (update: SellUpdate) => update.status === 'filed' || update.status === 'uncertain';

/** One watcher pass over an intent; returns when to look again, or done. */
export async function poll(ctx: SellContext, intentId: string): Promise<PollResult> {
  let intent = await ctx.intents.get(intentId);
  if (!intent || FINAL_STATUSES.has(intent.status)) return { done: true };
  const t = ctx.now();
  // A cancelled Algorand sale is still watched until its link's expiry plus grace: a payment
  // already on its way when the user cancelled must be found and filed, not stranded.
  const stillWatched = intent.algorand !== undefined && t <= intent.expiresAt + ctx.graceMs;
  if (intent.status === 'cancelled' && intent.pending.length === 0 && !stillWatched) return { done: true };
  const filing = await pollHeldFiling(ctx, intent, t);
  if (filing) return filing;
  if (await recheckPending(ctx, intent)) return { done: true };
  intent = (await ctx.intents.get(intentId))!;
  if (FINAL_STATUSES.has(intent.status)) return { done: true };
  if (await searchAlgorand(ctx, intent, t)) return { done: true };
  intent = (await ctx.intents.get(intentId))!;
  if (FINAL_STATUSES.has(intent.status)) return { done: true };
  await noteExpiry(ctx, intent, t);
  const active =
    intent.pending.length > 0 || (intent.algorand !== undefined && t <= intent.expiresAt + ctx.graceMs);
  if (!active)
    return t > intent.expiresAt ? { done: true } : { next: Math.max(1000, intent.expiresAt - t + 1000) };
  return { next: ctx.pollMs };
}

/** Checks each pending hash again; true when one ended the intent. */
async function recheckPending(ctx: SellContext, intent: SellIntent): Promise<boolean> {
  for (const p of intent.pending) {
    const update = await checkHash(ctx, intent.id, p.hash);
    if (update.status !== 'checking') await tell(ctx, intent, update);
    if (ends(update)) return true;
  }
  return false;
}

/**
 * Algorand, until expiry plus grace: checks a payment found by the intent's note; true when it ended
 * the intent.
 */
async function searchAlgorand(ctx: SellContext, intent: SellIntent, t: number): Promise<boolean> {
  const algorand = ctx.deps.algorand;
  if (!intent.algorand || !algorand || t > intent.expiresAt + ctx.graceMs) return false;
  try {
    const txId = await findPayment(algorand.clients.indexer, {
      receiver: intent.algorand.receiver,
      assetId: BigInt(intent.algorand.assetId),
      note: intent.algorand.note,
      minRound: BigInt(intent.algorand.minRound),
      amount: BigInt(intent.totalUnits),
    });
    if (txId && !intent.refused.includes(txId) && !intent.pending.some((p) => p.hash === txId)) {
      const update = await checkHash(ctx, intent.id, txId);
      await tell(ctx, intent, update);
      if (ends(update)) return true;
    }
  } catch (err) {
    ctx.log.warn(
      { ...intentLog(intent), err: (err as Error).message },
      'indexer search failed; will try again',
    );
  }
  return false;
}

/** An open intent past its link's expiry becomes `expired`; the user is told once, if nothing is pending. */
async function noteExpiry(ctx: SellContext, intent: SellIntent, t: number): Promise<void> {
  if (t <= intent.expiresAt || intent.status !== 'open' || intent.expiredNoticeSent) return;
  const expired = await markExpired(ctx, intent, t);
  if (expired?.status === 'expired' && intent.pending.length === 0) {
    // Told: recovery after an empty Redis does not tell the link died a second time.
    await ctx.deps.journal?.final(saleDoneKey(intent.id));
    await tell(ctx, intent, { status: 'expired' });
  }
}

/** Kills the link of an intent nothing was reported for. */
export async function cancel(ctx: SellContext, intentId: string): Promise<SellUpdate | undefined> {
  // A held filing slot means a hash was verified and is being (or was being) filed.
  if ((await ctx.intents.claimedBy(filingClaim(intentId))) !== undefined)
    return { status: 'cancel-too-late' };
  const after = await markCancelled(ctx, intentId);
  if (after?.status === 'cancelled') {
    await ctx.deps.journal?.final(saleDoneKey(intentId));
    return { status: 'cancelled' };
  }
  if (after && FILING_STATUSES.has(after.status)) return { status: 'cancel-too-late' };
  return undefined;
}
