/**
 * Sells whose filing Redis took with it. The sell path journals a sale's payout intent (with the
 * verified escrow hash) right before it asks the ramp to file the order; if the process died just
 * then and Redis came back empty, the ramp has no order and nothing in Redis remembers the sale,
 * while the seller's tokens sit in escrow. Such an intent, old enough that its own filing is surely
 * over, is filed again here: the ramp files a hash once (a second filing answers with the existing
 * order), and the order is tracked to its final message. An intent still young is left for a later
 * pass.
 */
import type { HistoryRecord } from '../domain/types.js';
import type { TrackedOrder } from '../flows/types.js';
import type { Logger } from '../log/logger.js';
import { RampDuplicateError, RampValidationError } from '../ramp/errors.js';
import type { RampClient } from '../ramp/types.js';
import type { OrderTracker } from '../tracker/types.js';
import type { IntendedOrder, OrderJournal } from './journal.js';

/** What filing a sale again needs. */
export interface UnfiledDeps {
  journal: Pick<OrderJournal, 'final'>;
  ramp: Pick<RampClient, 'createOfframpOrder'>;
  tracker: Pick<OrderTracker, 'track'>;
  logger: Logger;
  /** Our project name at the ramp. */
  project: string;
}

/**
 * How long after its intent a filing is surely over (answered, or its process gone): well past the
 * ramp client's timeout, and the same wait the sell path gives a filing left without an outcome
 * (SELL_FILING_STALE_MS), so a seller whose filing Redis took waits minutes, not ten.
 */
export const UNFILED_AFTER_MS = 2 * 60_000;

/** What became of the unfiled sells of one wallet. */
export interface UnfiledOutcome {
  /** Filed again (or found filed) and tracked. */
  resumed: number;
  /** Too young to tell: a later pass looks again. */
  waiting: number;
  /** Filing or tracking failed: a later pass tries again. */
  failed: number;
  /** The ramp refused the filing: logged for the operator. */
  refused: number;
}

/** The journal key that marks a sell intent (by its hash) as dealt with. */
export const unfiledKey = (hash: string) => `sell:${hash.toLowerCase()}`;

/** The journal key that marks a journaled sale (by its intent id) as ended: recovery leaves it alone. */
export const saleDoneKey = (intentId: string) => `saleintent:${intentId}`;

/**
 * Files again the journaled sell intents of one wallet that no history record and no journaled
 * order carries. `records`: the wallet's off-ramp history; `filed`: hashes of journaled orders.
 */
export async function fileUnfiledSells(
  deps: UnfiledDeps,
  intents: ReadonlyArray<{ at: number; order: IntendedOrder }>,
  records: readonly HistoryRecord[],
  known: { filed: ReadonlySet<string>; over: ReadonlySet<string> },
  now: number,
): Promise<UnfiledOutcome> {
  const out: UnfiledOutcome = { resumed: 0, waiting: 0, failed: 0, refused: 0 };
  const inHistory = new Set(records.map((r) => r.txHash?.toLowerCase()).filter(Boolean));
  for (const { at, order } of intents) {
    const hash = order.side === 'offramp' ? order.txHash?.toLowerCase() : undefined;
    if (!hash || inHistory.has(hash) || known.filed.has(hash) || known.over.has(unfiledKey(hash))) continue;
    if (now - at < UNFILED_AFTER_MS) {
      out.waiting += 1;
      continue;
    }
    out[await fileAgain(deps, order, hash, now)] += 1;
  }
  return out;
}

async function fileAgain(
  deps: UnfiledDeps,
  intent: IntendedOrder,
  hash: string,
  now: number,
): Promise<'resumed' | 'failed' | 'refused'> {
  const log = deps.logger;
  let orderId: string;
  try {
    orderId = (
      await deps.ramp.createOfframpOrder({
        chain: intent.network,
        hash: intent.txHash as string,
        phone: intent.phone,
        tokenAddress: intent.token.address,
        userAddress: intent.walletAddress,
        project: deps.project,
      })
    ).orderId;
  } catch (err) {
    if (err instanceof RampDuplicateError) orderId = err.existingOrderId;
    else if (err instanceof RampValidationError) {
      log.error(
        { hash, network: intent.network, err: err.message },
        'recovery: the ramp refused a sale filed again from the journal; its tokens are in escrow, see to it by hand',
      );
      await deps.journal.final(unfiledKey(hash));
      return 'refused';
    } else {
      log.error({ hash, err: (err as Error).message }, 'recovery: could not file a sale again; next pass');
      return 'failed';
    }
  }
  try {
    const order: TrackedOrder = { ...intent, orderId, createdAt: now };
    await deps.tracker.track(order);
  } catch (err) {
    log.error(
      { hash, orderId, err: (err as Error).message },
      'recovery: a sale filed again could not be tracked',
    );
    return 'failed';
  }
  log.warn({ hash, orderId }, 'recovery: a sale Redis lost before its filing was filed again and is tracked');
  return 'resumed';
}
