/**
 * What both files of a statement say, in the user's language: the rows of orders and the totals
 * as words and figures. The PDF and the CSV lay the same content out; neither formats on its own.
 */
import type { Locale, Text } from '../chat/types.js';
import { NETWORK_INFO } from '../domain/networks.js';
import type { OwnOrder, StatementRequest } from '../flows/types.js';
import { figuresOf, kesText, type Totals, totalsOf } from './gather.js';
import { nairobiTime, periodDays } from './month.js';

export type Say = (id: string, args?: Text['args']) => string;

export interface StatementContent {
  month: StatementRequest;
  locale: Locale;
  say: Say;
  orders: OwnOrder[];
  totals: Totals;
  /** The period's first and last day, YYYY-MM-DD (Nairobi). */
  first: string;
  last: string;
}

export function contentOf(
  month: StatementRequest,
  orders: OwnOrder[],
  locale: Locale,
  say: Say,
): StatementContent {
  return { month, locale, say, orders, totals: totalsOf(orders), ...periodDays(month) };
}

/** The columns, in order: their ids name both the CSV header and the PDF's. */
export const COLUMNS = [
  'date',
  'order',
  'side',
  'state',
  'network',
  'token',
  'tokens',
  'amount',
  'fee',
  'feeTokens',
  'paid',
  'received',
  'receipt',
  'hash',
] as const;
export type Column = (typeof COLUMNS)[number];

/** One order as the row's cells. */
export function rowOf(c: StatementContent, o: OwnOrder): Record<Column, string> {
  const f = figuresOf(o);
  return {
    date: nairobiTime(o.createdAt),
    order: o.orderId,
    side: c.say(`statements-side-${o.side === 'offramp' ? 'sell' : 'buy'}`),
    state: c.say(`statements-state-${o.outcome}`),
    network: NETWORK_INFO[o.network].displayName,
    token: o.symbol,
    tokens: o.tokenAmount ?? '',
    amount: kesText(Math.round(o.amountKes * 100)),
    fee: f.feeCents === undefined ? '' : kesText(f.feeCents),
    feeTokens: f.feeTokens ?? '',
    paid: f.paidCents === undefined ? '' : kesText(f.paidCents),
    received: f.receivedCents === undefined ? '' : kesText(f.receivedCents),
    receipt: o.receipt ?? '',
    hash: o.txHash ?? '',
  };
}

/** The totals as labelled rows (label, then the cells they fill). */
export function totalRows(
  c: StatementContent,
): Array<{ label: string; cells: Partial<Record<Column, string>> }> {
  const { buy, sell } = c.totals;
  const rows: Array<{ label: string; cells: Partial<Record<Column, string>> }> = [
    {
      label: c.say('statements-total-buy', { count: buy.completed, orders: buy.orders }),
      cells: { paid: kesText(buy.kesCents), fee: kesText(buy.feeCents) },
    },
    {
      label: c.say('statements-total-sell', { count: sell.completed, orders: sell.orders }),
      cells: { received: kesText(sell.kesCents) },
    },
  ];
  for (const [label, amounts, column] of [
    ['in', buy.tokens, 'tokens'],
    ['out', sell.tokens, 'tokens'],
    ['fees', sell.feeTokens, 'feeTokens'],
  ] as const)
    for (const [key, amount] of Object.entries(amounts)) {
      const [token = '', network = ''] = key.split(' ');
      rows.push({
        label: c.say(`statements-total-tokens-${label}`),
        cells: {
          token,
          network: NETWORK_INFO[network as keyof typeof NETWORK_INFO]?.displayName ?? network,
          [column]: amount,
        },
      });
    }
  return rows;
}

/** The period as one line: "1 October 2026 to 31 October 2026, Nairobi time (UTC+3)". */
export const periodLine = (c: StatementContent): string =>
  c.say('statements-period', { first: c.first, last: c.last });

/** The statement's title: "Statement for October 2026". */
export const titleLine = (c: StatementContent): string =>
  c.say('statements-title', { month: c.month.month, year: String(c.month.year) });
