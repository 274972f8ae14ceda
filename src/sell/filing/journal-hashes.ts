/**
 * Which reported hashes go to the order journal (outside Redis), so a sale Redis loses while its
 * deposit waits for confirmations is verified and filed by recovery (./journaled.ts). Bounded per
 * sale: the first few hashes reported are noted before the reporter is answered (a deposit the node
 * does not know yet included); later ones only once the chain shows them as this sale's deposit. Junk
 * posted to a link therefore adds at most a few lines, and a deposit nobody's hash reached the
 * journal for is still found by the escrow or note search.
 */

import { hashFits } from '../chain/verify.js';
import type { SellContext } from '../context.js';

/** Hashes noted before the chain was asked, per sale. */
export const JOURNALED_BEFORE_CHECK = 3;
/** Hashes noted in all, per sale. */
export const JOURNALED_PER_SALE = 10;

/**
 * Notes a reported hash once: `before` the check (within the first few of the sale), or once the
 * chain shows it (`known`). A text that cannot be a hash of the sale's chain is never noted.
 */
export async function journalReport(
  ctx: SellContext,
  intentId: string,
  raw: string,
  phase: 'before' | 'known',
): Promise<void> {
  const journal = ctx.deps.journal;
  if (!journal) return;
  const intent = await ctx.intents.get(intentId);
  const hash = intent && hashFits(intent, raw);
  if (!intent || !hash || intent.hash === hash || intent.refused.includes(hash)) return;
  if (phase === 'before' && intent.pending.some((p) => p.hash === hash)) return;
  const budget = phase === 'before' ? JOURNALED_BEFORE_CHECK : JOURNALED_PER_SALE;
  let noted = false;
  await ctx.intents.update(intentId, (i) => {
    const seen = i.journaled ?? [];
    noted = !seen.includes(hash) && seen.length < budget;
    return noted ? { ...i, journaled: [...seen, hash] } : undefined;
  });
  if (noted) await journal.saleHash(intentId, hash);
}
