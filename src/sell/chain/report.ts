/**
 * A hash reported for an intent (by the signing page, the chat or the dev wallet): checked
 * (check.ts); a text that cannot be a hash of the sale's chain is refused with the format expected
 * and not counted. No limit ever refuses a deposit that verifies when it is pasted in the chat or
 * found by the escrow search.
 *
 * What a link holder posts costs them, not the seller: a page's posts are limited per link and per
 * address (not against the seller's own limit), answered on the page only, and the seller's chat
 * hears only about the sale's own deposit. Hashes typed in the chat count against the seller's limit
 * once they failed verification, as before.
 */
import type { Hex } from 'viem';
import { splitSellTag } from '../../chains/evm/index.js';
import type { SellUpdate } from '../../flows/types.js';
import { intentLog, type SellContext } from '../context.js';
import { journalReport } from '../filing/journal-hashes.js';
import type { SellIntent } from '../intents/intents.js';
import { checkHash } from './check.js';
import { hashFits } from './verify.js';

export interface ReportOptions {
  /** Also deliver the outcome to the seller's chat (only about the sale's own deposit from the page). */
  push: boolean;
  source: string;
  /** The page's client address, for its per-address limit. */
  address?: string;
}

/** Checks a hash for an intent and files the order when it passes. */
export async function reportHash(
  ctx: SellContext,
  intentId: string,
  raw: string,
  opts: ReportOptions,
): Promise<SellUpdate> {
  const hash = raw.trim();
  const fromPage = opts.source === 'page';
  if (fromPage) {
    const limited = await pageLimit(ctx, intentId, hash, opts.address);
    if (limited) return limited;
  }
  await journalReport(ctx, intentId, hash, 'before');
  const update = await checkHash(
    ctx,
    intentId,
    hash,
    fromPage ? { quiet: true } : { countFailure: (intent, fitted) => countFailure(ctx, intent, fitted) },
  );
  if (update.status === 'checking' && !update.unseen) await journalReport(ctx, intentId, hash, 'known');
  ctx.log.info({ intentId, source: opts.source, status: update.status }, 'sell hash checked');
  // The page is answered with every outcome; the chat hears only about the sale's own deposit.
  if (opts.push && (!fromPage || aboutOwnDeposit(update))) {
    const intent = await ctx.intents.get(intentId);
    if (intent) await ctx.deps.deliver(intent.user, { kind: 'sellUpdate', intentId, update });
  }
  return update;
}

/** Refusals about a transaction the chain shows is this sale's deposit (exact token, amount, tag). */
const OWN_REFUSALS = new Set(['too_old', 'intent_used', 'ramp_refused']);

/**
 * True for an outcome about the sale's own deposit, the only kind the seller's chat is told of when
 * it comes from the page or a search: filed, uncertain, under way (the chain knows it), or refused
 * though it matches the sale (outside its window, a second payment, the ramp's refusal). Junk, other
 * transactions and deposits that do not match the sale (a worthless token tagged for it) are not.
 */
export const aboutOwnDeposit = (u: SellUpdate): boolean =>
  u.status === 'filed' ||
  u.status === 'uncertain' ||
  (u.status === 'checking' && u.unseen !== true) ||
  (u.status === 'refused' && OWN_REFUSALS.has(u.reason));

/**
 * The page's limits: distinct hashes per link and per client address in the hash window (a repeat is
 * not counted, nor a text that is no hash of the sale's chain, nor one the sale already knows). Over
 * either, the post is refused unless one read of the transaction shows it going into the escrow with
 * the sale's tag (a deposit is also found by the escrow search, and can be pasted in the chat).
 */
async function pageLimit(
  ctx: SellContext,
  intentId: string,
  hash: string,
  address: string | undefined,
): Promise<SellUpdate | undefined> {
  const limits = ctx.deps.limits;
  const intent = await ctx.intents.get(intentId);
  const fitted = intent && hashFits(intent, hash);
  if (!limits?.page || !intent || !fitted || knownTo(intent, fitted)) return undefined;
  const { perLink, perAddress, windowMs } = limits.page;
  const verdict = await limits.limiter.take(
    [
      { key: `sell-page-link:${intent.id}`, max: perLink, windowMs },
      ...(address ? [{ key: `sell-page-addr:${address}`, max: perAddress, windowMs }] : []),
    ],
    ctx.now(),
    `${intent.network}:${fitted.toLowerCase()}`,
  );
  // Over the limit, only a transaction into the escrow tagged for this sale is still checked.
  if (verdict.ok || (await taggedForSale(ctx, intent, fitted))) return undefined;
  ctx.log.warn({ ...intentLog(intent), limit: verdict.key.split(':')[0] }, 'page hash posts over the limit');
  return { status: 'refused', reason: 'too_many_page', hash: fitted, escalated: false };
}

/** One read of the transaction: sent to the sale's escrow with its tag (EVM; false when unreadable). */
async function taggedForSale(ctx: SellContext, intent: SellIntent, hash: string): Promise<boolean> {
  const client = ctx.evmBy.get(intent.network)?.client;
  if (!intent.evm || !client) return false;
  const tx = await client.getTransaction({ hash: hash as Hex }).catch(() => undefined);
  if (!tx?.to || tx.to.toLowerCase() !== intent.evm.escrow.toLowerCase()) return false;
  return splitSellTag(tx.input).tag === intent.evm.tag;
}

const knownTo = (intent: SellIntent, hash: string): boolean =>
  intent.hash === hash || intent.refused.includes(hash) || intent.pending.some((p) => p.hash === hash);

/**
 * Counts a hash typed in the chat that failed verification against the intent's user (the same hash
 * counts once); false when the user already sent in too many failing hashes lately (each one the
 * chain does not know would be re-checked for up to the link's life plus grace).
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
