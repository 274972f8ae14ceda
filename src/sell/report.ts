/**
 * A hash reported for an intent (by the signing page, the chat or the dev wallet): checked
 * (check.ts), and counted against the user's limit on hashes sent in only once it failed
 * verification; a text that cannot be a hash of the sale's chain is refused with the format expected
 * and not counted. No limit ever refuses a deposit that verifies. `push` also delivers the outcome
 * to the user's chat.
 */
import type { SellUpdate } from '../flows/types.js';
import { checkHash } from './check.js';
import { intentLog, type SellContext } from './context.js';
import type { SellIntent } from './intents.js';
import { hashFits } from './verify.js';

/**
 * Notes a hash the first time it is reported for a sale, outside Redis and before the reporter is
 * answered: a sale Redis loses while it waits for confirmations is then verified and filed by
 * recovery (src/sell/journaled.ts). A text that cannot be a hash of the sale's chain is not noted.
 */
async function journalFirstReport(ctx: SellContext, intentId: string, raw: string): Promise<void> {
  if (!ctx.deps.journal) return;
  const intent = await ctx.intents.get(intentId);
  const hash = intent && hashFits(intent, raw);
  if (!intent || !hash) return;
  if (intent.hash === hash || intent.refused.includes(hash) || intent.pending.some((p) => p.hash === hash))
    return;
  await ctx.deps.journal.saleHash(intentId, hash);
}

/**
 * Checks a hash for an intent and files the order when it passes. `push` also delivers the
 * outcome to the user's chat (not from inside the engine's own effect handlers).
 */
export async function reportHash(
  ctx: SellContext,
  intentId: string,
  hash: string,
  opts: { push: boolean; source: string },
): Promise<SellUpdate> {
  await journalFirstReport(ctx, intentId, hash.trim());
  const fromPage = opts.source === 'page';
  const update = await checkHash(ctx, intentId, hash.trim(), {
    countFailure: (intent, fitted) => countFailure(ctx, intent, fitted),
    quiet: fromPage,
  });
  ctx.log.info({ intentId, source: opts.source, status: update.status }, 'sell hash checked');
  // A hash from the page that the chain does not know, or refused with nothing moved, is answered on
  // the page only: whoever holds the link cannot fill the seller's chat with junk.
  if (opts.push && !(fromPage && isNoise(update))) {
    const intent = await ctx.intents.get(intentId);
    if (intent) await ctx.deps.deliver(intent.user, { kind: 'sellUpdate', intentId, update });
  }
  return update;
}

/**
 * An outcome about a hash that is no transaction of the sale's chain at all (unknown to the chain,
 * over the junk limit, not a hash): it changes nothing for the seller. A real transaction refused
 * (reverted, another amount, another sale's) is still told, since the seller may have sent it.
 */
export const isNoise = (u: SellUpdate): boolean =>
  (u.status === 'checking' && u.unseen === true) ||
  (u.status === 'refused' &&
    !u.escalated &&
    (u.reason === 'not_found' || u.reason === 'too_many' || u.reason.startsWith('malformed_')));

/**
 * Counts a hash that failed verification against the intent's user (the same hash counts once);
 * false when the user already sent in too many failing hashes lately (each one the chain does not
 * know would be re-checked for up to the link's life plus grace).
 */
async function countFailure(ctx: SellContext, intent: SellIntent, hash: string): Promise<boolean> {
  if (!ctx.deps.limits) return true;
  const { limiter, hashesPerUser, hashesWindowMs } = ctx.deps.limits;
  const limit = {
    key: `sell-hashes:${intent.user.channel}:${intent.user.id}`,
    max: hashesPerUser,
    windowMs: hashesWindowMs,
  };
  const verdict = await limiter.take([limit], ctx.now(), `${intent.network}:${hash.toLowerCase()}`);
  if (!verdict.ok) ctx.log.warn({ ...intentLog(intent) }, 'failing sell hashes over the per-user limit');
  return verdict.ok;
}
