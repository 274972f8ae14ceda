/**
 * A receipt's lines, the same for the picture and for the terminal (which prints them): the money
 * as it moved, in the user's language and number format. Pure, so the flow may use it.
 */
import type { Locale, Text } from '../chat/types.js';
import { NETWORK_INFO } from '../domain/networks.js';
import type { ReceiptView } from '../flows/types.js';
import { formatDateTime, formatKes, formatToken } from '../i18n/format.js';

/** What a line is; `receipts-label` selects its words on it. */
export type RowKey = 'paid' | 'received' | 'sent' | 'network' | 'fee' | 'mpesa' | 'hash' | 'order' | 'date';

export interface ReceiptRow {
  key: RowKey;
  value: string;
}

/**
 * Token amounts to the token's own decimals, the finest unit that moves on chain (a buy's stored
 * figure is the quote's, which may carry more); never rounded further, unlike the chat's messages.
 */
const places = (r: ReceiptView) => Math.min(Math.max(r.decimals, 0), 18);

/** `0x5aAe12c4…91b0eAed`: enough to match a hash by eye, short enough for one line. */
export function shortHash(hash: string): string {
  return hash.length > 22 ? `${hash.slice(0, 10)}…${hash.slice(-8)}` : hash;
}

export function receiptRows(locale: Locale, r: ReceiptView): ReceiptRow[] {
  const kes = formatKes(locale, r.kes);
  const tokens = r.tokens ? formatToken(locale, r.tokens, r.symbol, places(r)) : r.symbol;
  const rows: ReceiptRow[] =
    r.side === 'onramp'
      ? [
          { key: 'paid', value: kes },
          { key: 'received', value: tokens },
        ]
      : [
          { key: 'sent', value: tokens },
          { key: 'received', value: kes },
        ];
  rows.push({ key: 'network', value: NETWORK_INFO[r.network].displayName });
  if (r.fee !== undefined)
    rows.push({
      key: 'fee',
      value: r.side === 'onramp' ? formatKes(locale, r.fee) : formatToken(locale, r.fee, r.symbol, places(r)),
    });
  if (r.mpesa) rows.push({ key: 'mpesa', value: r.mpesa });
  if (r.txHash) rows.push({ key: 'hash', value: shortHash(r.txHash) });
  rows.push({ key: 'order', value: r.orderId });
  rows.push({ key: 'date', value: formatDateTime(locale, new Date(r.at).toISOString()) });
  return rows;
}

/** The title's text: what kind of order this was. */
export const receiptTitle = (r: Pick<ReceiptView, 'side'>): Text => ({
  id: 'receipts-title',
  args: { side: r.side === 'onramp' ? 'buy' : 'sell' },
});

/** The receipt as lines of text, for a channel that shows no picture (the terminal). */
export function receiptTexts(locale: Locale, r: ReceiptView): Text[] {
  return [
    receiptTitle(r),
    ...receiptRows(locale, r).map((row) => ({
      id: 'receipts-row',
      args: { key: row.key, value: row.value },
    })),
  ];
}
