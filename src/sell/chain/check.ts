/**
 * Checking one reported hash, from the page, the chat, the Algorand watcher or the dev wallet. A
 * reported hash is only a hint. Order of operations for one hash:
 * 1. the intent must exist and not already have filed another hash; the hash must be of the
 *    intent's chain and not claimed by another intent;
 * 2. on-chain verification against what the intent bound (verify.ts). Too few confirmations -> the
 *    hash waits in `pending` and the watcher retries;
 * 3. the hash is claimed (SET NX `sellhash:<chain>:<hash>`), then the intent's one filing slot
 *    (SET NX `sellfiling:<id>`);
 * 4. the order is filed (file.ts).
 *
 * `countFailure` (reports from the page and the chat) counts a hash that failed verification against
 * the user's limit, and answers false once the limit is reached: a hash the chain does not know is
 * then not kept in view. A hash that verifies is never counted nor refused by a limit.
 */
import type { SellUpdate } from '../../flows/types.js';
import { escalate, intentLog, type SellContext } from '../context.js';
import { file } from '../filing/file.js';
import { userRefusal } from '../flow/reasons.js';
import { filingClaim, filingSlot, hashClaim, readFilingSlot, type SellIntent } from '../intents/intents.js';
import { addPending, markRefused, refuse } from '../intents/lifecycle.js';
import { hashFits, type Verdict, verifyOrLater } from './verify.js';

export interface CheckOptions {
  /** Counts a failed hash; false when the user's limit was already reached (nothing counted). */
  countFailure?: (intent: SellIntent, hash: string) => Promise<boolean>;
  /** Posted to the signing page: a hash the chain does not know is later refused without a word in chat. */
  quiet?: boolean;
}

/** Checks a hash for an intent and files the order when it passes; the outcome for this hash. */
export async function checkHash(
  ctx: SellContext,
  intentId: string,
  rawHash: string,
  opts: CheckOptions = {},
): Promise<SellUpdate> {
  const intent = await ctx.intents.get(intentId);
  if (!intent) return { status: 'refused', reason: 'unknown', escalated: false };
  const hash = hashFits(intent, rawHash);
  if (!hash) return malformed(intent);
  const known = alreadyKnown(intent, hash);
  if (known) return known;
  const holder = await ctx.intents.claimedBy(hashClaim(intent.network, hash));
  if (holder && holder !== intent.id)
    return refuse(ctx, intent, hash, 'reused', `hash claimed by intent ${holder}`, false);

  const verdict = await verifyOrLater(ctx, intent, hash);
  if (!verdict) {
    await addPending(ctx, intent, hash);
    return { status: 'checking', hash };
  }
  if (!verdict.ok && verdict.retry) return notYet(ctx, intent, hash, verdict, opts);
  if (!verdict.ok) {
    const refused = await refuse(
      ctx,
      intent,
      hash,
      userRefusal(verdict.reason),
      verdict.detail,
      verdict.ours,
    );
    // Counted once it failed; the user hears the real reason all the same.
    await opts.countFailure?.(intent, hash);
    return refused;
  }
  return claimAndFile(ctx, intent, hash, verdict.sender);
}

/** A text that cannot be a transaction of the intent's chain: refused with the format expected. */
export function malformed(intent: Pick<SellIntent, 'evm'>): SellUpdate {
  return {
    status: 'refused',
    reason: intent.evm ? 'malformed_evm' : 'malformed_algorand',
    escalated: false,
  };
}

/** The answer for a hash this intent already files (or filed), without asking the chain again. */
function alreadyKnown(intent: SellIntent, hash: string): SellUpdate | undefined {
  if (intent.hash !== hash) return undefined;
  if (intent.status === 'filed') return { status: 'filed', hash, orderId: intent.orderId!, existing: false };
  if (intent.status === 'filing-unknown') return { status: 'uncertain', hash };
  if (intent.status === 'filing') return { status: 'checking', hash };
  return undefined;
}

/**
 * Not (deep enough) on chain: waits in `pending`, until the link's expiry plus grace. Past that, a
 * transaction the chain knows goes to support (`horizon`); one it does not is refused.
 */
async function notYet(
  ctx: SellContext,
  intent: SellIntent,
  hash: string,
  verdict: Extract<Verdict, { retry: true }>,
  opts: CheckOptions,
): Promise<SellUpdate> {
  const seen = intent.pending.find((p) => p.hash === hash);
  if (ctx.now() > intent.expiresAt + ctx.graceMs && seen) {
    if (verdict.exists) {
      await markRefused(ctx, intent, hash, true, 'unknown');
      await escalate(ctx, { reason: 'horizon', intent, hash, refusal: verdict.detail });
      return { status: 'uncertain', hash };
    }
    return refuse(ctx, intent, hash, 'not_found', verdict.detail, false);
  }
  // Unknown to the chain: a failure as far as the limit goes (a typo, or junk); past the limit it is
  // not kept in view. A transaction the chain knows is waited for whatever the limit says.
  if (!verdict.exists && !seen && opts.countFailure && !(await opts.countFailure(intent, hash))) {
    ctx.log.warn({ ...intentLog(intent), hash }, 'unseen sell hash not kept: per-user limit reached');
    return { status: 'refused', reason: 'too_many', hash, escalated: false };
  }
  await addPending(ctx, intent, hash, !verdict.exists, !verdict.exists && opts.quiet === true);
  // Not on the chain (yet): said plainly, not "on its way"; it is still looked for a while.
  return verdict.exists
    ? { status: 'checking', hash }
    : { status: 'checking', hash, unseen: true, network: intent.network };
}

/** A verified hash: claims it, then the intent's one filing slot, then files. */
async function claimAndFile(
  ctx: SellContext,
  intent: SellIntent,
  hash: string,
  sender: string,
): Promise<SellUpdate> {
  const { intents } = ctx;
  if (intent.status === 'filed' || intent.status === 'filing-unknown' || intent.status === 'filing') {
    return refuse(ctx, intent, hash, 'intent_used', `intent already has ${intent.hash}`, true);
  }
  const other = await intents.claim(hashClaim(intent.network, hash), intent.id);
  if (other && other !== intent.id)
    return refuse(ctx, intent, hash, 'reused', `hash claimed by intent ${other}`, false);
  // Queued before the slot is claimed, so a process dying while it holds the slot leaves a job
  // that finds the stale slot (see recover.ts).
  await ctx.deps.schedule(intent.id, ctx.filingStaleMs + ctx.pollMs, 'poll');
  const mine = filingSlot(hash, ctx.now());
  const slot = await intents.claim(filingClaim(intent.id), mine);
  const held = slot === undefined ? undefined : readFilingSlot(slot);
  if (held && held.hash !== hash) {
    return refuse(ctx, intent, hash, 'intent_used', `intent already filing ${held.hash}`, true);
  }
  if (slot !== undefined) {
    // Another report of the same hash holds the slot: it files, this one only reports.
    const fresh = await intents.get(intent.id);
    if (fresh?.status === 'filed') return { status: 'filed', hash, orderId: fresh.orderId!, existing: false };
    return { status: 'checking', hash };
  }
  return file(ctx, intent, hash, sender, mine);
}
