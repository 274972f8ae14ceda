/**
 * A hash reported for an intent (by the signing page, the chat or the dev wallet): counted against
 * the user's limit on hashes sent in, then checked (check.ts); `push` also delivers the outcome to
 * the user's chat.
 */
import type { SellUpdate } from '../flows/types.js';
import { checkHash } from './check.js';
import { intentLog, type SellContext } from './context.js';

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
  const limited = await overHashLimit(ctx, intentId, hash);
  const update = limited ?? (await checkHash(ctx, intentId, hash));
  ctx.log.info({ intentId, source: opts.source, status: update.status }, 'sell hash checked');
  if (opts.push) {
    const intent = await ctx.intents.get(intentId);
    if (intent) await ctx.deps.deliver(intent.user, { kind: 'sellUpdate', intentId, update });
  }
  return update;
}

/**
 * A refusal when the intent's user has sent in too many distinct hashes lately (each one pending is
 * re-checked against the chain for up to the link's life plus grace); undefined when allowed.
 */
async function overHashLimit(
  ctx: SellContext,
  intentId: string,
  hash: string,
): Promise<SellUpdate | undefined> {
  if (!ctx.deps.limits) return undefined;
  const intent = await ctx.intents.get(intentId);
  if (!intent) return undefined;
  const { limiter, hashesPerUser, hashesWindowMs } = ctx.deps.limits;
  const limit = {
    key: `sell-hashes:${intent.user.channel}:${intent.user.id}`,
    max: hashesPerUser,
    windowMs: hashesWindowMs,
  };
  const verdict = await limiter.take([limit], ctx.now(), `${intent.network}:${hash.trim().toLowerCase()}`);
  if (verdict.ok) return undefined;
  ctx.log.warn({ ...intentLog(intent) }, 'sell hash refused by the per-user limit');
  return { status: 'refused', reason: 'too_many', hash, escalated: false };
}
