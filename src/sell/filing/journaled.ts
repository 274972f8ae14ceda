/**
 * Sales Redis lost before they were filed. A sale is journaled outside Redis when its signing link is
 * issued (`sale`: the intent as bound) and again when a hash is first reported for it (`salehash`),
 * before anyone is answered (src/recovery/journal.ts). When Redis comes back empty, the recovery pass
 * hands the journal to `recoverSales`:
 * - a sale with a reported hash is put back into Redis as it was bound (same id, tag or note, window)
 *   with the hash pending, and the hash goes through the ordinary check (verify on chain, claim, file,
 *   track; still shallow: the watcher waits for it; unverifiable past the horizon: support);
 * - a sale without a hash whose link is still alive is put back, so its link works again;
 * - a sale without a hash past its link's expiry: the chain is asked for a deposit matching it (EVM:
 *   the escrow's deposits of the exact total tagged for the sale, ../chain/search.ts; Algorand: the indexer
 *   search by the sale's note). One found is put back and checked like a
 *   reported hash; otherwise the user is told in their chat that the link died and to bring their
 *   hash to support.
 * Idempotent: a sale Redis holds again is left to the sell path, one ended (filed, told, handed to
 * support) is journaled as such (`final` of `saleDoneKey`), and filing goes through the hash claim and
 * the filing slot as always (the ramp files a hash once besides).
 *
 * A sale whose filing POST lost its answer (`doubt`) is put back to look its order up (./doubted.ts).
 *
 * A hash pasted in chat for a sale Redis lost (`findLostSale`) is matched to the user's journaled
 * sale the same way and put back before it is checked.
 */
import type { UserRef } from '../../chat/types.js';
import type { JournalEntry } from '../../recovery/journal.js';
import { saleDoneKey, unfiledKey } from '../../recovery/unfiled-sells.js';
import { checkHash } from '../chain/check.js';
import { aboutOwnDeposit } from '../chain/report.js';
import { findAlgorandDeposit, findEscrowDeposits } from '../chain/search.js';
import { hashFits } from '../chain/verify.js';
import { intentLog, type SellContext, tell } from '../context.js';
import { type SellIntent, sellIntentSchema } from '../intents/intents.js';
import { doubtedFilings, resumeDoubted } from './doubted.js';

/** A sale as journaled, with the hashes reported for it (oldest first). */
export interface JournaledSale {
  at: number;
  intent: SellIntent;
  hashes: Array<{ hash: string; at: number }>;
  /** When it was journaled as ended (filed, told, handed to support), if it was. */
  doneAt?: number;
}

/** What became of the journaled sales in one pass. */
export interface SaleRecoveryOutcome {
  /** Put back into Redis (their hash checked, or their link alive again), or a deposit found and checked. */
  resumed: number;
  /** Told that their link died with Redis (nothing found on chain). */
  told: number;
  /** The chain could not be asked: a later pass tries again. */
  failed: number;
  /** Hashes (lower case) of filings in doubt the sell path has (./doubted.ts): their orders are its own. */
  doubted?: string[];
}

const DONE_PREFIX = saleDoneKey('');

/** The journaled sales, by intent id. */
export function journaledSales(entries: readonly JournalEntry[]): Map<string, JournaledSale> {
  const sales = new Map<string, JournaledSale>();
  for (const e of entries) {
    if (e.kind === 'sale') {
      const parsed = sellIntentSchema.safeParse(e.intent);
      if (parsed.success) sales.set(parsed.data.id, { at: e.at, intent: parsed.data, hashes: [] });
    } else if (e.kind === 'salehash') {
      const sale = sales.get(e.intentId);
      if (sale && !sale.hashes.some((h) => h.hash === e.hash)) sale.hashes.push({ hash: e.hash, at: e.at });
    } else if (e.kind === 'final' && e.orderId.startsWith(DONE_PREFIX)) {
      const sale = sales.get(e.orderId.slice(DONE_PREFIX.length));
      if (sale) sale.doneAt = e.at;
    }
  }
  return sales;
}

/**
 * Hashes (lower case) that reached the filing step or support: journaled off-ramp intents and orders
 * carrying them, and sales journaled as handed to support. Those are the filing path's, the tracker's
 * or support's to finish; recovering the sale again could pay twice.
 */
function handledHashes(entries: readonly JournalEntry[]): Set<string> {
  const out = filingHashes(entries);
  for (const e of entries)
    if (e.kind === 'final' && e.orderId.startsWith(unfiledKey('')))
      out.add(e.orderId.slice(unfiledKey('').length));
  return out;
}

/** Hashes (lower case) of journaled off-ramp intents and orders (`filing`: intents with no order yet). */
function filingHashes(entries: readonly JournalEntry[], only?: 'filing'): Set<string> {
  const out = new Set<string>();
  for (const e of entries)
    if ((e.kind === 'intent' || e.kind === 'order') && e.order.side === 'offramp' && e.order.txHash)
      out.add(e.order.txHash.toLowerCase());
  if (only)
    for (const e of entries)
      if (e.kind === 'order' && e.order.side === 'offramp' && e.order.txHash)
        out.delete(e.order.txHash.toLowerCase());
  return out;
}

/**
 * One recovery pass over the journaled sales. `filed`: hashes of journaled orders (lower case).
 * A sale journaled as ended is left alone unless a hash was reported for it after (a payment made
 * after a cancel or an expiry: only those hashes come back), and so is one whose hash a journaled
 * order carries; hashes that reached the filing step or support are never taken up again here.
 */
export async function recoverSales(
  ctx: SellContext,
  entries: readonly JournalEntry[],
  known: { filed: ReadonlySet<string> },
): Promise<SaleRecoveryOutcome> {
  const out: SaleRecoveryOutcome = { resumed: 0, told: 0, failed: 0 };
  const handled = handledHashes(entries);
  const doubts = doubtedFilings(entries);
  const doubted: string[] = [];
  for (const sale of journaledSales(entries).values()) {
    const { doneAt } = sale;
    // A filing whose answer was lost: put back to look its order up, before anything else.
    const doubt = doubts.get(sale.intent.id);
    if (doubt && !known.filed.has(doubt.hash.toLowerCase())) {
      try {
        if ((await resumeDoubted(ctx, sale.intent, doubt)) === 'resumed') out.resumed += 1;
        doubted.push(doubt.hash.toLowerCase());
      } catch (err) {
        out.failed += 1;
        ctx.log.error(
          { ...intentLog(sale.intent), err: (err as Error).message },
          'recovery: a sale whose filing is in doubt could not be put back; next pass',
        );
      }
      continue;
    }
    if (sale.hashes.some((h) => known.filed.has(h.hash.toLowerCase()))) continue;
    // Only hashes reported after the sale ended (a payment after a cancel or an expiry), and none the
    // filing path or support already has.
    const hashes = sale.hashes.filter(
      (h) => (doneAt === undefined || h.at > doneAt) && !handled.has(h.hash.toLowerCase()),
    );
    if (hashes.length === 0 && (doneAt !== undefined || sale.hashes.length > 0)) continue;
    try {
      const outcome = await recoverSale(ctx, { ...sale, hashes });
      if (outcome) out[outcome] += 1;
    } catch (err) {
      out.failed += 1;
      ctx.log.error(
        { ...intentLog(sale.intent), err: (err as Error).message },
        'recovery: a journaled sale failed; next pass',
      );
    }
  }
  return doubted.length > 0 ? { ...out, doubted } : out;
}

async function recoverSale(
  ctx: SellContext,
  sale: JournaledSale,
): Promise<'resumed' | 'told' | 'failed' | undefined> {
  const { intent } = sale;
  // Redis holds it (never lost, or put back by an earlier pass or a pasted hash): the sell path has it.
  if (await ctx.intents.get(intent.id)) return undefined;
  const t = ctx.now();
  if (sale.hashes.length > 0) {
    const restored = await restore(ctx, sale);
    if (!restored) return undefined;
    ctx.log.warn({ ...intentLog(intent) }, 'recovery: a sale Redis lost with its hash reported; checking it');
    for (const { hash } of sale.hashes) {
      const update = await checkHash(ctx, intent.id, hash);
      // Only the sale's own deposit is told: other refusals were answered when the hash was
      // reported (junk a link holder posted included), not again after Redis came back.
      if (update.status !== 'checking' && aboutOwnDeposit(update)) await tell(ctx, restored, update);
      if (update.status === 'filed' || update.status === 'uncertain') break;
    }
    return 'resumed';
  }
  if (t <= intent.expiresAt) {
    if (!(await restore(ctx, sale))) return undefined;
    ctx.log.warn({ ...intentLog(intent) }, 'recovery: a sale Redis lost put back; its link works again');
    return 'resumed';
  }
  const found = await findDeposits(ctx, intent);
  if (found === 'unreachable') return 'failed';
  for (const hash of found) {
    const restored = await restore(ctx, { ...sale, hashes: [{ hash, at: t }] });
    if (!restored) return undefined;
    const update = await checkHash(ctx, intent.id, hash);
    if (update.status === 'checking') continue;
    if (aboutOwnDeposit(update)) await tell(ctx, restored, update);
    if (update.status === 'filed' || update.status === 'uncertain') {
      ctx.log.warn({ ...intentLog(intent), hash }, 'recovery: a deposit for a sale Redis lost was found');
      return 'resumed';
    }
  }
  if (found.length > 0) return 'resumed';
  // Ended before the user is told: a pass run again does not tell twice.
  await ctx.deps.journal?.final(saleDoneKey(intent.id));
  await tell(ctx, intent, { status: 'lost' });
  ctx.log.warn({ ...intentLog(intent) }, 'recovery: a sale link died with Redis; the user was told');
  return 'told';
}

/**
 * Puts a journaled sale back into Redis as it was bound, its hashes pending; undefined when another
 * process put it back first (the sell path has it then). Past its expiry it comes back `expired`
 * (already told), so the watcher does not announce the expiry again.
 */
async function restore(ctx: SellContext, sale: JournaledSale): Promise<SellIntent | undefined> {
  const t = ctx.now();
  // A sale that ended (filed, cancelled, told) comes back with its link dead all the same.
  const past = t > sale.intent.expiresAt || sale.doneAt !== undefined;
  const back: SellIntent = {
    ...sale.intent,
    status: past ? 'expired' : 'open',
    ...(past ? { expiredNoticeSent: true } : {}),
    pending: sale.hashes.map((h) => ({ hash: h.hash, since: h.at })),
    refused: [],
    recovered: true,
    updatedAt: t,
  };
  const { intent, created } = await ctx.intents.createOnce(back.key, () => back);
  if (!created) return undefined;
  if (intent.pending.length > 0 || intent.algorand) await ctx.deps.schedule(intent.id, ctx.pollMs, 'poll');
  if (intent.evm) await ctx.deps.schedule(intent.id, ctx.searchMs, 'search');
  if (!past) await ctx.deps.schedule(intent.id, intent.expiresAt - t, 'expiry');
  return intent;
}

/**
 * Deposits the chain shows for a sale nobody reported a hash for, when it can be asked cheaply:
 * candidates only (each is verified as a reported hash is); `unreachable` when the chain did not answer.
 */
async function findDeposits(ctx: SellContext, intent: SellIntent): Promise<string[] | 'unreachable'> {
  try {
    if (intent.algorand) {
      const algorand = ctx.deps.algorand;
      if (!algorand) return [];
      const txId = await findAlgorandDeposit(algorand.clients.indexer, intent.algorand, intent.totalUnits);
      return txId ? [txId] : [];
    }
    const runtime = ctx.evmBy.get(intent.network);
    if (!intent.evm || !runtime) return [];
    return await findEscrowDeposits(runtime.client, intent);
  } catch (err) {
    ctx.log.warn(
      { ...intentLog(intent), err: (err as Error).message },
      'recovery: could not search the chain for a lost sale; next pass',
    );
    return 'unreachable';
  }
}

/**
 * A hash pasted in chat with no sale in Redis: the user's journaled sale it can belong to (one the
 * hash was reported for, else the latest of that chain still open), put back into Redis; `filing`
 * when the hash is already filed or with support. Undefined when none.
 */
export async function findLostSale(
  ctx: SellContext,
  user: UserRef,
  raw: string,
  entries: readonly JournalEntry[],
): Promise<SellIntent | { filing: SellIntent; hash: string } | undefined> {
  const mine = [...journaledSales(entries).values()].filter(
    (s) => s.intent.user.channel === user.channel && s.intent.user.id === user.id,
  );
  const fitting = mine.filter((s) => hashFits(s.intent, raw));
  // A hash already filed or with support is not the chat's to file again. One being filed (a
  // recovery pass may be filing it right now) is on its way: its final word comes from there.
  const handled = handledHashes(entries);
  const filingNow = filingHashes(entries, 'filing');
  const hashOf = (s: JournaledSale) => String(hashFits(s.intent, raw)).toLowerCase();
  const filing = fitting.find((s) => filingNow.has(hashOf(s)));
  if (filing) return { filing: filing.intent, hash: hashOf(filing) };
  if (fitting.some((s) => handled.has(hashOf(s)))) return undefined;
  // The sale this hash was reported for, else the latest one still open; never one that ended.
  const sale =
    fitting.find((s) => s.doneAt === undefined && s.hashes.some((h) => h.hash === hashFits(s.intent, raw))) ??
    fitting.filter((s) => s.doneAt === undefined).at(-1);
  if (!sale) return undefined;
  const held = await ctx.intents.get(sale.intent.id);
  if (held) return held;
  await restore(ctx, sale);
  ctx.log.warn(
    { ...intentLog(sale.intent) },
    'a hash was pasted for a sale Redis lost; put back to check it',
  );
  return ctx.intents.get(sale.intent.id);
}
