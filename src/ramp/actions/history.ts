import type { Direction, HistoryPage, HistoryRecord } from '../../domain/types.js';
import { RampNotFoundError } from '../errors.js';
import { findReceipt, historyBody, historyRecord } from '../schemas.js';
import { type RampContext, read } from './context.js';

/**
 * GET deposit-transactions / withdrawal-transactions (current generation only, also used by a
 * legacy client). The service's "No transactions found…" answer is an empty page, not an error.
 */
export async function getHistory(
  ctx: RampContext,
  side: Direction,
  userAddress: string,
  page: { page?: number; limit?: number } = {},
): Promise<HistoryPage> {
  const pageNo = page.page ?? 1;
  const limit = page.limit ?? 10;
  let body: unknown;
  try {
    body = await ctx.send({
      method: 'GET',
      path: side === 'onramp' ? ctx.paths.onrampHistory(userAddress) : ctx.paths.offrampHistory(userAddress),
      query: { page: pageNo, limit },
      endpoint: 'history',
      retry: 'idempotent',
    });
  } catch (e) {
    if (e instanceof RampNotFoundError && /no (b2c )?transactions found/i.test(e.serviceMessage ?? '')) {
      return { records: [], page: pageNo, limit, totalPages: 0, totalCount: 0 };
    }
    throw e;
  }
  const d = read(historyBody, body, 'history');
  const records: HistoryRecord[] = [];
  for (const raw of d.data) {
    const r = historyRecord.safeParse(raw);
    if (!r.success) continue;
    const x = r.data;
    const completed = (raw as Record<string, unknown>).TransactionCompletedDateTime;
    records.push({
      id: x.id ?? x._id ?? x.orderID ?? '',
      orderId: x.orderID,
      side,
      kesAmount: x.amount ?? x.transactionAmount ?? x.transactionSize,
      cryptoAmount: x.cryptoAmount,
      symbol: x.symbol,
      chain: x.chain,
      receipt: findReceipt(raw),
      txHash: x.transactionID || undefined,
      phone: x.phoneNumber,
      createdAt: x.createdAt ?? x.transactionDate ?? (typeof completed === 'string' ? completed : undefined),
      resultDescription: x.resultDescription,
    });
  }
  const p = d.pagination;
  return {
    records,
    page: p?.currentPage ?? pageNo,
    limit: p?.limit ?? limit,
    totalPages: p?.totalPages ?? (records.length ? 1 : 0),
    totalCount: p?.totalCount ?? records.length,
  };
}
