/**
 * Recovery after Redis came back empty: the journal (outside Redis) names the wallets rampchat served
 * lately; their recent orders in the ramp's history that the tracker no longer knows are tracked again
 * (each then ends in its final chat message), and those that cannot be rebuilt go to support with what
 * is known. Orders the history shows finished (tokens sent, payout receipt) are left alone: their chat
 * messages were already posted. What cannot be recovered: conversations in progress, saved phones and
 * wallets, and orders older than the horizon or for wallets the journal never saw.
 */
import type { HistoryRecord, Network } from '../domain/types.js';
import type { TrackedOrder, UserRef } from '../flows/types.js';
import type { Logger } from '../log/logger.js';
import { RampNotFoundError } from '../ramp/errors.js';
import type { RampClient } from '../ramp/types.js';
import type { EscalationCase, OrderTracker } from '../tracker/types.js';
import type { IntendedOrder, JournalEntry, OrderJournal } from './journal.js';

export interface RecoveryDeps {
  journal: OrderJournal;
  ramp: RampClient;
  tracker: Pick<OrderTracker, 'track' | 'ownerOf'>;
  logger: Logger;
  /** How far back to look (default 48 h). */
  horizonMs?: number;
  /** An order the history lists that cannot be rebuilt: support gets it with what is known. */
  onEscalate?: (c: EscalationCase) => Promise<void>;
  now?: () => number;
}

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
  };

  const journaled = new Map<string, TrackedOrder>();
  const served = new Map<string, Served>();
  for (const e of entries) {
    const o = e.order;
    const key = `${o.side}:${o.walletAddress.toLowerCase()}`;
    const s = served.get(key) ?? { side: o.side, wallet: o.walletAddress, intents: [] };
    s.intents.push({
      at: e.kind === 'order' ? (e as Extract<JournalEntry, { kind: 'order' }>).order.createdAt : e.at,
      order: o,
    });
    served.set(key, s);
    if (e.kind === 'order') journaled.set(e.order.orderId, e.order as TrackedOrder);
  }

  for (const s of served.values()) {
    report.wallets += 1;
    let records: HistoryRecord[];
    try {
      records = (await deps.ramp.getHistory(s.side, s.wallet, { page: 1, limit: 50 })).records;
    } catch (err) {
      if (err instanceof RampNotFoundError) continue;
      report.unreadable += 1;
      log.error({ side: s.side, err: (err as Error).message }, 'recovery: could not read a wallet history');
      continue;
    }
    for (const r of records) {
      if (!r.orderId) continue;
      const createdAt = r.createdAt ? Date.parse(r.createdAt) : Number.NaN;
      if (Number.isFinite(createdAt) && createdAt < since) continue;
      if (await deps.tracker.ownerOf(r.orderId)) {
        report.known += 1;
        continue;
      }
      const done = s.side === 'onramp' ? Boolean(r.txHash) : Boolean(r.receipt);
      if (done) {
        report.finished += 1;
        continue;
      }
      const order = journaled.get(r.orderId) ?? rebuild(r, s, createdAt);
      if (order) {
        await deps.tracker.track(order);
        report.resumed += 1;
        log.warn({ orderId: r.orderId, side: s.side }, 'recovery: order tracked again after Redis lost it');
        continue;
      }
      const user: UserRef | undefined = s.intents.at(-1)?.order.user;
      if (user && deps.onEscalate) {
        await deps.onEscalate({
          reason: 'horizon',
          order: {
            orderId: r.orderId,
            side: s.side,
            user,
            network: (r.chain?.toLowerCase() as Network) ?? s.intents.at(-1)!.order.network,
            walletAddress: s.wallet,
            token: { symbol: r.symbol ?? '?', address: '', decimals: 0 },
            amountKes: r.kesAmount ?? 0,
            phone: r.phone ?? '',
            createdAt: Number.isFinite(createdAt) ? createdAt : now(),
          },
          lastError:
            'found in the ramp history after Redis came back empty; its details could not be rebuilt',
          polls: 0,
          at: now(),
        } as EscalationCase);
        report.escalated += 1;
      }
      log.error(
        { orderId: r.orderId, side: s.side },
        'recovery: an order the ramp lists could not be rebuilt',
      );
    }
  }
  log.info(report, 'recovery pass done');
  return report;
}

/** A tracked order from a history record and the intent journaled for it (same chain and amount). */
function rebuild(r: HistoryRecord, s: Served, createdAt: number): TrackedOrder | undefined {
  const chain = r.chain?.toLowerCase();
  const candidates = s.intents.filter((i) => !chain || i.order.network === chain);
  // The amount must agree when the history gives one; a lone intent stands in only when it does not.
  const match =
    r.kesAmount !== undefined
      ? candidates.find((i) => i.order.amountKes === r.kesAmount)
      : candidates.length === 1
        ? candidates[0]
        : undefined;
  if (!match || !r.orderId) return undefined;
  return {
    ...match.order,
    orderId: r.orderId,
    createdAt: Number.isFinite(createdAt) ? createdAt : match.at,
    ...(r.txHash && s.side === 'offramp' ? { txHash: r.txHash } : {}),
  };
}
