/**
 * The seller cancels a sale from the chat. It is always possible unless the chain shows the sale's
 * deposit under way: a verified hash being filed (the filing slot), or a pending hash the chain knows
 * (deep enough or not). A hash the chain does not know (junk posted to the link, a typo) never blocks
 * it: it is dropped, and a deposit sent after all is still found by the escrow or note search and
 * filed, the seller told it came after the cancel.
 */
import type { SellUpdate } from '../../flows/types.js';
import { saleDoneKey } from '../../recovery/index.js';
import { verifyOrLater } from '../chain/verify.js';
import type { SellContext } from '../context.js';
import { filingClaim, type SellIntent } from './intents.js';
import { FILING_STATUSES, markCancelled } from './lifecycle.js';

/** Ends the sale's link; `checking` when its deposit is under way, undefined when it was over already. */
export async function cancel(ctx: SellContext, intentId: string, tries = 3): Promise<SellUpdate | undefined> {
  // A held filing slot means a hash was verified and is being (or was being) filed.
  if ((await ctx.intents.claimedBy(filingClaim(intentId))) !== undefined)
    return { status: 'cancel-too-late' };
  const intent = await ctx.intents.get(intentId);
  if (!intent) return undefined;
  const { underWay, checked } = await pendingOnChain(ctx, intent);
  if (underWay) return { status: 'checking', hash: underWay };
  const after = await markCancelled(ctx, intentId, checked);
  if (after?.status === 'cancelled') {
    await ctx.deps.journal?.final(saleDoneKey(intentId));
    return { status: 'cancelled' };
  }
  if (after && FILING_STATUSES.has(after.status)) return { status: 'cancel-too-late' };
  // A hash was reported meanwhile: the chain is asked about it too.
  if (after?.status === 'open' && tries > 1) return cancel(ctx, intentId, tries - 1);
  return undefined;
}

/**
 * The first pending hash the chain shows as this sale's deposit (mined or not, deep enough or not);
 * `checked`: the pending hashes it does not. A chain that cannot be asked leaves a hash it knew
 * before under way.
 */
async function pendingOnChain(
  ctx: SellContext,
  intent: SellIntent,
): Promise<{ underWay?: string; checked: Set<string> }> {
  const checked = new Set<string>();
  for (const p of intent.pending) {
    const verdict = await verifyOrLater(ctx, intent, p.hash);
    const known = verdict ? verdict.ok || (verdict.retry && verdict.exists) : !p.unseen;
    if (known) return { underWay: p.hash, checked };
    checked.add(p.hash);
  }
  return { checked };
}
