/**
 * The month's orders and their totals. Orders come from the user's own history (the tracker's, as
 * `/history` shows it: never looked up by wallet), read page by page newest first until a page
 * reaches back before the month. Totals count completed orders only: failed, cancelled and pending
 * ones moved no money (or none yet). Shillings are summed in cents and tokens as decimal text, so
 * the totals are exactly the orders' figures added up.
 */
import type { OwnOrder, OwnOrdersPage, StatementRequest } from '../flows/types.js';
import { periodOf } from './month.js';

/** Orders read per page of history. */
export const GATHER_PAGE = 50;
/** At most this many pages are read (2,500 orders back). */
const MAX_PAGES = 50;

export type ReadPage = (page: number, limit: number) => Promise<OwnOrdersPage>;

/** The user's orders created in the month, oldest first. */
export async function gatherMonth(read: ReadPage, month: StatementRequest): Promise<OwnOrder[]> {
  const { start, end } = periodOf(month);
  const found: OwnOrder[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { orders, totalPages } = await read(page, GATHER_PAGE);
    for (const o of orders) if (o.createdAt >= start && o.createdAt < end) found.push(o);
    const oldest = orders.at(-1)?.createdAt;
    if (!orders.length || page >= totalPages || (oldest !== undefined && oldest < start)) break;
  }
  return found.sort((a, b) => a.createdAt - b.createdAt || a.orderId.localeCompare(b.orderId));
}

/** One order's money: shillings in cents, tokens as decimal text. */
export interface OrderFigures {
  /** Buy: KES paid, fee included. */
  paidCents?: number;
  /** Buy: the fee in KES, when the order recorded what was paid. */
  feeCents?: number;
  /** Sell: KES to the seller's M-Pesa. */
  receivedCents?: number;
  /** Tokens received (buy) or sent (sell). */
  tokens?: string;
  /** Sell: the fee in tokens, part of `tokens`, when the order recorded it. */
  feeTokens?: string;
}

const cents = (kes: number) => Math.round(kes * 100);

export function figuresOf(o: OwnOrder): OrderFigures {
  const tokens = o.tokenAmount ? { tokens: o.tokenAmount } : {};
  if (o.side === 'offramp')
    return { receivedCents: cents(o.amountKes), ...tokens, ...(o.feeToken ? { feeTokens: o.feeToken } : {}) };
  const paid = cents(o.paidKes ?? o.amountKes);
  const fee = o.paidKes === undefined ? undefined : Math.max(0, paid - cents(o.amountKes));
  return { paidCents: paid, ...(fee === undefined ? {} : { feeCents: fee }), ...tokens };
}

export interface SideTotals {
  orders: number;
  completed: number;
  /** Buy: paid; sell: received. */
  kesCents: number;
  feeCents: number;
  /** Tokens by "SYMBOL network". */
  tokens: Record<string, string>;
  /** Sell: fees in tokens by "SYMBOL network". */
  feeTokens: Record<string, string>;
}

export interface Totals {
  buy: SideTotals;
  sell: SideTotals;
}

const empty = (): SideTotals => ({
  orders: 0,
  completed: 0,
  kesCents: 0,
  feeCents: 0,
  tokens: {},
  feeTokens: {},
});

export function totalsOf(orders: OwnOrder[]): Totals {
  const totals: Totals = { buy: empty(), sell: empty() };
  for (const o of orders) {
    const side = o.side === 'offramp' ? totals.sell : totals.buy;
    side.orders += 1;
    if (o.outcome !== 'completed') continue;
    side.completed += 1;
    const f = figuresOf(o);
    side.kesCents += f.paidCents ?? f.receivedCents ?? 0;
    side.feeCents += f.feeCents ?? 0;
    const key = `${o.symbol} ${o.network}`;
    if (f.tokens) side.tokens[key] = addDecimal(side.tokens[key] ?? '0', f.tokens);
    if (f.feeTokens) side.feeTokens[key] = addDecimal(side.feeTokens[key] ?? '0', f.feeTokens);
  }
  return totals;
}

/** `12.50` KES from cents, as the files write amounts (no grouping: a spreadsheet reads it). */
export const kesText = (c: number): string =>
  `${c < 0 ? '-' : ''}${Math.floor(Math.abs(c) / 100)}.${String(Math.abs(c) % 100).padStart(2, '0')}`;

/** Adds two non-negative decimal texts exactly. */
export function addDecimal(a: string, b: string): string {
  const [ai = '0', af = ''] = a.split('.');
  const [bi = '0', bf = ''] = b.split('.');
  const places = Math.max(af.length, bf.length);
  const sum = BigInt(ai + af.padEnd(places, '0')) + BigInt(bi + bf.padEnd(places, '0'));
  if (!places) return sum.toString();
  const digits = sum.toString().padStart(places + 1, '0');
  const frac = digits.slice(-places).replace(/0+$/, '');
  return `${digits.slice(0, -places)}${frac ? `.${frac}` : ''}`;
}
