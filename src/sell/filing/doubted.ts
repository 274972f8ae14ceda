/**
 * Filings in doubt after an emptied Redis. A filing POST whose answer was lost (a 502 after the ramp
 * acted, a timeout) may have made the order; the sell path waits until the filing is stale and then
 * looks it up in the ramp's history of the sender (./recover.ts, ./file.ts). That wait lives in
 * Redis, so the filing is also journaled as in doubt (`doubt`: the sale, the hash, the sender). When
 * Redis comes back empty, the recovery pass puts such a sale back as it was (`filing` that hash, the
 * POSTs counted, the filing slot held since the doubt) and queues the watcher, which goes on as if
 * Redis had never been lost: the order the history lists is taken and tracked (the seller hears
 * "filed", then the tracker's receipt), else the same hash is filed again (the ramp files a hash
 * once), and after MAX_FILING_ATTEMPTS lost answers support has it and the seller is told.
 */
import type { JournalEntry } from '../../recovery/journal.js';
import { saleDoneKey, unfiledKey } from '../../recovery/unfiled-sells.js';
import { intentLog, type SellContext } from '../context.js';
import { filingClaim, filingSlot, hashClaim, type SellIntent } from '../intents/intents.js';

/** A sale's filing in doubt, as journaled. */
export interface DoubtedFiling {
  hash: string;
  sender: string;
  /** When the last answer was lost. */
  at: number;
  /** Filing POSTs of this hash whose answer was lost. */
  posts: number;
}

/**
 * Filings still in doubt, by intent id: none once an order carrying the hash is journaled, support
 * has the hash, or the sale was journaled as ended after the doubt (filed, handed to support).
 */
export function doubtedFilings(entries: readonly JournalEntry[]): Map<string, DoubtedFiling> {
  const doubts = new Map<string, DoubtedFiling>();
  for (const e of entries)
    if (e.kind === 'doubt') {
      const seen = doubts.get(e.intentId);
      const same = seen?.hash.toLowerCase() === e.hash.toLowerCase();
      doubts.set(e.intentId, { hash: e.hash, sender: e.sender, at: e.at, posts: same ? seen!.posts + 1 : 1 });
    }
  for (const e of entries) {
    const settled = (id: string, d: DoubtedFiling) =>
      (e.kind === 'order' && e.order.txHash?.toLowerCase() === d.hash.toLowerCase()) ||
      (e.kind === 'final' && e.orderId === unfiledKey(d.hash)) ||
      (e.kind === 'final' && e.orderId === saleDoneKey(id) && e.at >= d.at);
    for (const [id, d] of doubts) if (settled(id, d)) doubts.delete(id);
  }
  return doubts;
}

/**
 * Puts a sale whose filing is in doubt back into Redis as it was, and queues the watcher to look the
 * order up once the filing is stale. `held` when Redis already has the sale (the sell path has it).
 */
export async function resumeDoubted(
  ctx: SellContext,
  intent: SellIntent,
  doubt: DoubtedFiling,
): Promise<'resumed' | 'held'> {
  if (await ctx.intents.get(intent.id)) return 'held';
  const t = ctx.now();
  // Queued first: a pass that dies after putting the sale back still leaves the lookup to do.
  await ctx.deps.schedule(intent.id, Math.max(0, doubt.at + ctx.filingStaleMs - t) + ctx.pollMs, 'poll');
  const back: SellIntent = {
    ...intent,
    status: 'filing',
    hash: doubt.hash,
    sender: doubt.sender,
    filingAttempts: doubt.posts,
    pending: [],
    refused: [],
    recovered: true,
    ...(t > intent.expiresAt ? { expiredNoticeSent: true } : {}),
    updatedAt: doubt.at,
  };
  const { created } = await ctx.intents.createOnce(back.key, () => back);
  if (!created) return 'held';
  await ctx.intents.claim(hashClaim(back.network, doubt.hash), back.id);
  await ctx.intents.claim(filingClaim(back.id), filingSlot(doubt.hash, doubt.at));
  ctx.log.warn(
    { ...intentLog(back), hash: doubt.hash, posts: doubt.posts },
    'recovery: a sale whose filing answer was lost is put back; the ramp history is asked for its order',
  );
  return 'resumed';
}
