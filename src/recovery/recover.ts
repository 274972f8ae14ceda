/**
 * Recovery after Redis came back empty: the journal (outside Redis) names the wallets rampchat served
 * lately; their recent orders in the ramp's history that the tracker no longer knows are tracked again
 * (each then ends in its final chat message), and those that cannot be rebuilt go to support with what
 * is known. An order is over only when the journal says its final message went out (or it went to
 * support): one the ramp lists as finished (tokens sent, payout receipt) whose user was never told,
 * because Redis was lost between the release and the message, is tracked again too, and the tracker
 * finds the release and posts the message without releasing twice. Orders the history shows finished
 * are otherwise left alone (journaled by an older version, which did not note finals, or only as an
 * intent). What cannot be recovered: conversations in progress,
 * saved phones and wallets, and orders older than the horizon or for wallets the journal never saw.
 *
 * Sales Redis lost before they were filed (journaled from their signing link on) are handed to the
 * sell path (`sales`, src/sell/filing/journaled.ts) first: checked and filed, their link put back, or their
 * user told. A sale whose filing POST lost its answer (`doubt`) is put back there to look its order
 * up; its order is then the sell path's, and the wallets' pass leaves it alone. A sale's order the
 * journal never recorded (its answer lost, its process dead) is never taken for finished by its
 * history alone: nothing tracked it, so its seller was not told.
 *
 * A pass is safe to run again: orders tracked again are known to the tracker by then, and orders
 * handed to support are journaled as over.
 */
import { type HistoryRecord, NETWORKS, type Network } from '../domain/types.js';
import type { TrackedOrder } from '../flows/types.js';
import type { Logger } from '../log/logger.js';
import { RampNotFoundError } from '../ramp/errors.js';
import type { RampClient } from '../ramp/types.js';
import type { EscalationCase, OrderTracker } from '../tracker/types.js';
import type { IntendedOrder, JournalEntry, OrderJournal } from './journal.js';
import type { StandingReport } from './standing.js';
import { fileUnfiledSells } from './unfiled-sells.js';

export interface RecoveryDeps {
  journal: OrderJournal;
  ramp: RampClient;
  tracker: Pick<OrderTracker, 'track' | 'ownerOf'>;
  logger: Logger;
  /** How far back to look (default 48 h). */
  horizonMs?: number;
  /** An order the history lists that cannot be rebuilt: support gets it with what is known. */
  onEscalate?: (c: EscalationCase) => Promise<void>;
  /** Our project name at the ramp: with it, sales Redis lost before their filing are filed again. */
  project?: string;
  now?: () => number;
  /**
   * Sales Redis lost before they were filed (journaled from their signing link on): set by the sell
   * wiring (src/sell/filing/journaled.ts). `filed`: hashes of journaled orders.
   */
  sales?: SaleRecovery;
  /** Aborted when the pass must stop (its lease was lost): it stops before the next wallet or order. */
  signal?: AbortSignal;
}

/** What recovers the journaled sales (the sell service's `recoverSales`). */
export interface SaleRecoverySink {
  recover?: SaleRecovery;
}
export type SaleRecovery = (
  entries: readonly JournalEntry[],
  known: { filed: ReadonlySet<string> },
) => Promise<{ resumed: number; told: number; failed: number; doubted?: string[] }>;

export interface RecoveryReport {
  wallets: number;
  /** Orders tracked again. */
  resumed: number;
  /** Already known to the tracker (Redis kept them). */
  known: number;
  /** Finished per the history: nothing to do. */
  finished: number;
  escalated: number;
  /** Wallets whose history could not be read. */
  unreadable: number;
  /** Orders whose tracking or escalation failed (tried again by the next pass). */
  failed: number;
  /** Orders that could not be rebuilt and had no one to escalate to (or sales the ramp refused to file again). */
  unmatched: number;
  /** Sales journaled too recently to tell whether their filing is over: a later pass looks again. */
  waiting: number;
  /** Sales whose link died with Redis, with nothing found on chain: their users were told. */
  told: number;
  /** Alerts and standing-buy plans put back (or their users told), set by the app's pass. */
  standing?: StandingReport;
}

type Served = {
  side: 'onramp' | 'offramp';
  wallet: string;
  intents: Array<{ at: number; order: IntendedOrder }>;
};

/** Runs one recovery pass. */
export async function recoverLostOrders(deps: RecoveryDeps): Promise<RecoveryReport> {
  const now = deps.now ?? Date.now;
  const since = now() - (deps.horizonMs ?? 48 * 3600_000);
  const log = deps.logger.child({ component: 'recovery' });
  const entries = await deps.journal.read(since);
  const report: RecoveryReport = {
    wallets: 0,
    resumed: 0,
    known: 0,
    finished: 0,
    escalated: 0,
    unreadable: 0,
    failed: 0,
    unmatched: 0,
    waiting: 0,
    told: 0,
  };

  const journaled = new Map<string, TrackedOrder>();
  const over = new Set<string>();
  /** Orders whose journal would hold their `final`: the ones journaled by a version that writes it. */
  const finalsKept = new Set<string>();
  /** Sale hashes journaled with their order: filed. */
  const filed = new Set<string>();
  /**
   * Sale hashes whose filing never had its order recorded (its POST lost the answer, or the process
   * died mid-filing): nothing tracked them, so their seller was not told, whatever the history says.
   */
  const doubted = new Set<string>();
  const served = new Map<string, Served>();
  for (const e of entries) {
    if (e.kind === 'final') {
      over.add(e.orderId);
      continue;
    }
    if (e.kind === 'sale' || e.kind === 'salehash' || e.kind === 'doubt') continue;
    const o = e.order;
    const key = `${o.side}:${o.walletAddress.toLowerCase()}`;
    const s = served.get(key) ?? { side: o.side, wallet: o.walletAddress, intents: [] };
    s.intents.push({
      at: e.kind === 'order' ? e.order.createdAt : e.at,
      order: o,
    });
    served.set(key, s);
    if (e.kind === 'order') journaled.set(e.order.orderId, e.order as TrackedOrder);
    if (e.kind === 'order' && e.order.txHash) filed.add(e.order.txHash.toLowerCase());
    if (e.kind === 'intent' && o.side === 'offramp' && o.txHash) doubted.add(o.txHash.toLowerCase());
    if (e.kind === 'order' && e.v === 2) finalsKept.add(e.order.orderId);
  }

  for (const hash of filed) doubted.delete(hash);
  const ctx = { ...deps, logger: log };
  // The sales first: a filing in doubt they put back is theirs to finish (its order looked up in the
  // history, the seller told), so the wallets' pass leaves its order alone.
  const leftToSales = new Set<string>();
  if (deps.sales) {
    deps.signal?.throwIfAborted();
    const sales = await deps.sales(entries, { filed });
    report.resumed += sales.resumed;
    report.told += sales.told;
    report.failed += sales.failed;
    for (const hash of sales.doubted ?? []) leftToSales.add(hash);
  }
  const known = { journaled, over, finalsKept, filed, doubted, leftToSales };
  for (const s of served.values()) {
    deps.signal?.throwIfAborted();
    await recoverWallet(ctx, s, known, report, since, now);
  }
  log.info(report, 'recovery pass done');
  return report;
}

type Known = {
  journaled: ReadonlyMap<string, TrackedOrder>;
  over: ReadonlySet<string>;
  finalsKept: ReadonlySet<string>;
  filed: ReadonlySet<string>;
  doubted: ReadonlySet<string>;
  leftToSales: ReadonlySet<string>;
};

/** One served wallet: its history's orders, then (off-ramp) its sales Redis lost before filing. */
async function recoverWallet(
  deps: RecoveryDeps,
  s: Served,
  known: Known,
  report: RecoveryReport,
  since: number,
  now: () => number,
): Promise<void> {
  const log = deps.logger;
  report.wallets += 1;
  let records: HistoryRecord[] = [];
  try {
    records = (await deps.ramp.getHistory(s.side, s.wallet, { page: 1, limit: 50 })).records;
  } catch (err) {
    if (!(err instanceof RampNotFoundError)) {
      report.unreadable += 1;
      log.error({ side: s.side, err: (err as Error).message }, 'recovery: could not read a wallet history');
      return;
    }
  }
  const theirs = (hash: string | undefined) =>
    hash !== undefined && known.leftToSales.has(hash.toLowerCase());
  for (const r of records) {
    if (!r.orderId || theirs(r.txHash)) continue;
    deps.signal?.throwIfAborted();
    const createdAt = r.createdAt ? Date.parse(r.createdAt) : Number.NaN;
    if (Number.isFinite(createdAt) && createdAt < since) continue;
    // One order that cannot be handled (support unreachable, a record we cannot read) does not stop
    // the others: it is counted and logged, and the next pass tries it again.
    try {
      report[await recoverOne(deps, { ...r, orderId: r.orderId }, s, known, createdAt, now)] += 1;
    } catch (err) {
      report.failed += 1;
      log.error(
        { orderId: r.orderId, side: s.side, err: (err as Error).message },
        'recovery: an order failed',
      );
    }
  }
  if (s.side !== 'offramp' || !deps.project) return;
  const unfiled = await fileUnfiledSells(
    { ...deps, project: deps.project },
    s.intents.filter((i) => !theirs(i.order.txHash)),
    records,
    known,
    now(),
  );
  report.resumed += unfiled.resumed;
  report.waiting += unfiled.waiting;
  report.failed += unfiled.failed;
  report.unmatched += unfiled.refused;
}

/** What becomes of one order the history lists: which report counter it adds to. */
async function recoverOne(
  deps: RecoveryDeps,
  r: HistoryRecord & { orderId: string },
  s: Served,
  known: Known,
  createdAt: number,
  now: () => number,
): Promise<'known' | 'finished' | 'resumed' | 'escalated' | 'unmatched'> {
  const log = deps.logger;
  if (known.over.has(r.orderId)) return 'finished';
  if (await deps.tracker.ownerOf(r.orderId)) return 'known';
  // Finished at the ramp: tracked again only when the journal can say its user was not told (its
  // `final` would be there); else nothing is left to release or pay, and it is left alone.
  const finishedAtRamp = s.side === 'onramp' ? r.txHash : r.receipt;
  const doubted = r.txHash !== undefined && known.doubted.has(r.txHash.toLowerCase());
  if (finishedAtRamp && !known.finalsKept.has(r.orderId) && !doubted) return 'finished';
  const order = known.journaled.get(r.orderId) ?? rebuild(r, s, createdAt);
  if (order) {
    await deps.tracker.track(order);
    log.warn({ orderId: r.orderId, side: s.side }, 'recovery: order tracked again after Redis lost it');
    return 'resumed';
  }
  log.error({ orderId: r.orderId, side: s.side }, 'recovery: an order the ramp lists could not be rebuilt');
  const last = s.intents.at(-1)?.order;
  if (!last || !deps.onEscalate) return 'unmatched';
  const chain = r.chain?.toLowerCase();
  await deps.onEscalate({
    reason: 'horizon',
    order: {
      orderId: r.orderId,
      side: s.side,
      user: last.user,
      network: (NETWORKS as readonly string[]).includes(chain ?? '') ? (chain as Network) : last.network,
      walletAddress: s.wallet,
      token: { symbol: r.symbol ?? '?', address: '', decimals: 0 },
      amountKes: r.kesAmount ?? 0,
      phone: r.phone ?? '',
      createdAt: Number.isFinite(createdAt) ? createdAt : now(),
    },
    lastError: 'found in the ramp history after Redis came back empty; its details could not be rebuilt',
    polls: 0,
    at: now(),
  });
  await deps.journal.final(r.orderId);
  return 'escalated';
}

/** A tracked order from a history record and the intent journaled for it (same chain and amount). */
function rebuild(r: HistoryRecord, s: Served, createdAt: number): TrackedOrder | undefined {
  const chain = r.chain?.toLowerCase();
  const candidates = s.intents.filter((i) => !chain || i.order.network === chain);
  const hash = s.side === 'offramp' ? r.txHash?.toLowerCase() : undefined;
  // A sale's intent carries its hash; else the amount must agree when the history gives one, and a
  // lone intent stands in only when it does not.
  const match =
    (hash ? candidates.find((i) => i.order.txHash?.toLowerCase() === hash) : undefined) ??
    (r.kesAmount !== undefined
      ? candidates.find((i) => i.order.amountKes === r.kesAmount)
      : candidates.length === 1
        ? candidates[0]
        : undefined);
  if (!match || !r.orderId) return undefined;
  return {
    ...match.order,
    orderId: r.orderId,
    createdAt: Number.isFinite(createdAt) ? createdAt : match.at,
    ...(r.txHash && s.side === 'offramp' ? { txHash: r.txHash } : {}),
  };
}
