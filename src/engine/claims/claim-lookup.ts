/**
 * Looking a listed claim's order up in the ramp's on-ramp history of the wallet: the earliest order
 * created after the claim with the same phone, amount and token, not recorded under another key and
 * not just as well explained by another listed claim of the same wallet.
 */
import { normalizeKenyanPhone } from '../../domain/phone.js';
import type { HistoryRecord } from '../../domain/types.js';
import { type PendingStkClaim, pendingSchema } from './pending-claim.js';
import type { ReconcilerContext } from './reconciler-types.js';

const HISTORY_PAGE_SIZE = 50;
const HISTORY_MAX_PAGES = 4;

type Match = { orderId: string; createdAt: number; record: HistoryRecord };

/** What the lookup found: the order, or the id of one another listed claim could explain too. */
export interface Lookup {
  order?: Match;
  contested?: string;
}

/**
 * The earliest on-ramp order at the ramp that this claim can explain, if any. An order another
 * listed claim could explain just as well (a later buy of the same wallet, phone, amount and token
 * whose call may still be answered) is not taken: `contested` names it instead.
 */
export async function findOrder(
  rc: ReconcilerContext,
  key: string,
  claim: PendingStkClaim,
  claimedAt: number,
): Promise<Lookup> {
  const matches = await historyMatches(rc, claim, claimedAt - rc.clockSkewMs);
  if (!matches.length) return {};
  matches.sort((a, b) => a.createdAt - b.createdAt);
  // Listed before the holders are read: a rival that records its order meanwhile shows as the holder.
  const rivals = await rivalClaims(rc, key, claim);
  let contested: string | undefined;
  for (const m of matches) {
    const holder = await rc.store.keyOfOrder(m.orderId);
    if (holder === key) return { order: m };
    if (holder !== undefined) continue;
    if (rivals.some((rv) => fits(m.record, rv.claim, m.createdAt, rv.earliest))) {
      contested ??= m.orderId;
      continue;
    }
    return { order: m };
  }
  return { contested };
}

/** The wallet's on-ramp orders that fit the claim, reading pages back to `earliest`. */
async function historyMatches(
  rc: ReconcilerContext,
  claim: PendingStkClaim,
  earliest: number,
): Promise<Match[]> {
  const matches: Match[] = [];
  for (let page = 1; page <= HISTORY_MAX_PAGES; page++) {
    const found = await rc.ramp.getHistory('onramp', claim.request.userAddress, {
      page,
      limit: HISTORY_PAGE_SIZE,
    });
    let older = false;
    for (const r of found.records) {
      const createdAt = r.createdAt ? Date.parse(r.createdAt) : Number.NaN;
      if (Number.isFinite(createdAt) && createdAt < earliest) older = true;
      if (fits(r, claim, createdAt, earliest)) matches.push({ orderId: r.orderId!, createdAt, record: r });
    }
    if (older || found.records.length === 0 || page >= found.totalPages) break;
  }
  return matches;
}

/** The other listed claims of the same wallet, with the earliest time each could explain. */
async function rivalClaims(
  rc: ReconcilerContext,
  key: string,
  claim: PendingStkClaim,
): Promise<Array<{ claim: PendingStkClaim; earliest: number }>> {
  return (await rc.store.listPendingClaims()).flatMap((p) => {
    const parsed = p.key === key ? undefined : pendingSchema.safeParse(p.data);
    const sameWallet =
      parsed?.success &&
      parsed.data.request.userAddress.toLowerCase() === claim.request.userAddress.toLowerCase();
    return parsed?.success && sameWallet && Number.isFinite(p.claimedAt)
      ? [{ claim: parsed.data, earliest: p.claimedAt - rc.clockSkewMs }]
      : [];
  });
}

function fits(r: HistoryRecord, claim: PendingStkClaim, createdAt: number, earliest: number): boolean {
  const { request } = claim;
  if (!r.orderId || r.side !== 'onramp') return false;
  if (!Number.isFinite(createdAt) || createdAt < earliest) return false;
  if (r.kesAmount === undefined || Math.abs(r.kesAmount - request.amountKes) > 0.005) return false;
  if (r.symbol && r.symbol.toLowerCase() !== claim.track.token.symbol.toLowerCase()) return false;
  return r.phone === undefined || normalizeKenyanPhone(String(r.phone)) === request.phone;
}
