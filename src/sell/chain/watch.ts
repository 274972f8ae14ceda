/**
 * Watching an intent after its link went out, and cancelling it. One watcher pass (`poll`, run by
 * src/sell/chain/watcher.ts when due) looks, in this order, at a held filing (recover.ts), the pending
 * hashes, a deposit nobody reported (an Algorand payment by its note; an EVM escrow deposit by its
 * amount and tag, ./search.ts), and the link's expiry; then says when to look again. Whatever it
 * finds is told to the user's chat, since no effect of theirs is waiting for it. An open, expired or
 * cancelled sale is searched until its link's expiry plus grace, and once more just after: a deposit
 * whose page never reported it is filed, not stranded. Cancelling is ../intents/cancel.ts.
 */

import type { SellUpdate } from '../../flows/types.js';
import { saleDoneKey } from '../../recovery/index.js';
import { intentLog, type SellContext, tell } from '../context.js';
import { type PollResult, pollHeldFiling } from '../filing/recover.js';
import type { SellIntent } from '../intents/intents.js';
import { FILING_STATUSES, FINAL_STATUSES, markExpired } from '../intents/lifecycle.js';
import { checkHash } from './check.js';
import { aboutOwnDeposit } from './report.js';
import { findAlgorandDeposit, findEscrowDeposits } from './search.js';

/** An outcome after which the intent needs no more watching. */
const ends = (update: SellUpdate) => update.status === 'filed' || update.status === 'uncertain';

/** One watcher pass over an intent; returns when to look again, or done. */
export async function poll(ctx: SellContext, intentId: string): Promise<PollResult> {
  let intent = await ctx.intents.get(intentId);
  if (!intent || FINAL_STATUSES.has(intent.status)) return { done: true };
  const t = ctx.now();
  // A cancelled Algorand sale is still watched until its link's expiry plus grace: a payment
  // already on its way when the user cancelled must be found and filed, not stranded (a cancelled
  // EVM sale is searched by its own chain of passes, `search`).
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
  // At expiry, the escrow is asked once more before the user hears their link expired.
  if (t > intent.expiresAt && intent.status === 'open' && !intent.expiredNoticeSent) {
    if (await searchEvm(ctx, intent, t)) return { done: true };
    intent = (await ctx.intents.get(intentId))!;
    if (FINAL_STATUSES.has(intent.status)) return { done: true };
  }
  await noteExpiry(ctx, intent, t);
  const active =
    intent.pending.length > 0 || (intent.algorand !== undefined && t <= intent.expiresAt + ctx.graceMs);
  if (!active)
    return t > intent.expiresAt ? { done: true } : { next: Math.max(1000, intent.expiresAt - t + 1000) };
  return { next: ctx.pollMs };
}

/** One last search this long after expiry plus grace: a deposit mined at the very end is found too. */
const LAST_LOOK_MS = 60_000;

/**
 * One pass of an EVM sale's escrow search (its own chain of passes, beside the pending hashes'):
 * at the search cadence while the sale is open, expired or cancelled, until its link's expiry plus
 * grace and one last look after.
 */
export async function search(ctx: SellContext, intentId: string): Promise<PollResult> {
  const intent = await ctx.intents.get(intentId);
  if (!intent?.evm || FINAL_STATUSES.has(intent.status)) return { done: true };
  const t = ctx.now();
  const end = intent.expiresAt + ctx.graceMs + LAST_LOOK_MS;
  if (t > end) return { done: true };
  // A held filing is recover.ts's. Pending hashes do not stop the search: junk posted to the link
  // waits there as long as the real deposit's hash would, and must not hide it.
  if (!FILING_STATUSES.has(intent.status) && (await searchEvm(ctx, intent, t))) return { done: true };
  const marks = [intent.expiresAt + 1000, intent.expiresAt + ctx.graceMs + 1000].filter((m) => m > t);
  if (marks.length === 0) return { next: Math.max(1000, Math.min(ctx.searchMs, end - t)) };
  return { next: Math.max(1000, Math.min(ctx.searchMs, ...marks.map((m) => m - t))) };
}

/**
 * EVM: the escrow's deposits of the sale's total tagged for it; a candidate not already pending,
 * refused or filed is checked like a reported hash. True when one ended the intent.
 */
async function searchEvm(ctx: SellContext, intent: SellIntent, t: number): Promise<boolean> {
  const runtime = ctx.evmBy.get(intent.network);
  if (!intent.evm || !runtime) return false;
  if (t > intent.expiresAt + ctx.graceMs + LAST_LOOK_MS) return false;
  let found: string[];
  try {
    found = await findEscrowDeposits(runtime.client, intent);
  } catch (err) {
    ctx.log.warn(
      { ...intentLog(intent), err: (err as Error).message },
      'escrow search failed; will try again',
    );
    return false;
  }
  for (const hash of found) {
    if (intent.refused.includes(hash) || intent.hash === hash || intent.pending.some((p) => p.hash === hash))
      continue;
    ctx.log.info(
      { ...intentLog(intent), hash },
      'an unreported deposit for this sale was found in the escrow',
    );
    const update = await checkHash(ctx, intent.id, hash);
    // A candidate that does not match the sale (a worthless token tagged for it) is not the chat's.
    if (aboutOwnDeposit(update)) await tell(ctx, intent, update);
    if (ends(update) || update.status === 'checking') return ends(update);
  }
  return false;
}

/** Checks each pending hash again; true when one ended the intent. */
async function recheckPending(ctx: SellContext, intent: SellIntent): Promise<boolean> {
  for (const p of intent.pending) {
    const update = await checkHash(ctx, intent.id, p.hash);
    // A page's post is the chat's only when it is the sale's own deposit (the page was answered).
    if (update.status !== 'checking' && (!p.quiet || aboutOwnDeposit(update)))
      await tell(ctx, intent, update);
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
    const txId = await findAlgorandDeposit(algorand.clients.indexer, intent.algorand, intent.totalUnits);
    if (txId && !intent.refused.includes(txId) && !intent.pending.some((p) => p.hash === txId)) {
      const update = await checkHash(ctx, intent.id, txId);
      if (aboutOwnDeposit(update)) await tell(ctx, intent, update);
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

/** An open intent past its link's expiry becomes `expired`; the user is told once, unless a deposit is under way. */
async function noteExpiry(ctx: SellContext, intent: SellIntent, t: number): Promise<void> {
  if (t <= intent.expiresAt || intent.status !== 'open' || intent.expiredNoticeSent) return;
  const expired = await markExpired(ctx, intent, t);
  // Hashes the chain did not know (junk posted to the link) do not hold the notice back.
  if (expired?.status === 'expired' && intent.pending.every((p) => p.unseen)) {
    // Told: recovery after an empty Redis does not tell the link died a second time.
    await ctx.deps.journal?.final(saleDoneKey(intent.id));
    await tell(ctx, intent, { status: 'expired' });
  }
}
