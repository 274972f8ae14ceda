/**
 * The `receipt` effect: looks the order up in the tracker, refuses one that is not the asker's or
 * not finished, and draws the receipt (or takes the one drawn before for the same order and
 * language from the media store). Figures are the order's own, never worked out from a rate.
 */

import type { Locale, Text, UserRef } from '../chat/types.js';
import { userKey } from '../chat/types.js';
import { explorerTxUrl } from '../domain/networks.js';
import type { Engine } from '../engine/index.js';
import type { Effect, Input, ReceiptOutcome, ReceiptView } from '../flows/types.js';
import type { MediaStore } from '../store/media.js';
import type { OrderRecordView } from '../tracker/index.js';
import { receiptRows, receiptTitle } from './lines.js';

/** How long a picture is kept: past the outbox's give-up; a second ask within it sends the same one. */
const PICTURE_TTL_MS = 3600_000;

export interface ReceiptServiceOptions {
  records: { recordOf(orderId: string): Promise<OrderRecordView | undefined> };
  media: MediaStore;
  i18n: { t(locale: Locale, text: Text): string };
  /** Told each picture drawn (not the ones taken from the store): its time and bytes. */
  onDrawn?: (ms: number, bytes: number) => void;
}

/** KES a − b in whole cents, so 512.3 − 500 is 12.30 and not 12.299999. */
const kesLess = (a: number, b: number) => ((Math.round(a * 100) - Math.round(b * 100)) / 100).toFixed(2);

/** The receipt of a finished order as its record holds it. */
export function receiptViewOf(rec: OrderRecordView): ReceiptView {
  const { order } = rec;
  const buy = order.side === 'onramp';
  // A buy names what the user paid, fee included; an order stored before that figure has its amount.
  const kes = buy ? (order.paidKes ?? order.amountKes) : order.amountKes;
  const fee = buy
    ? order.paidKes !== undefined
      ? kesLess(order.paidKes, order.amountKes)
      : undefined
    : order.fee;
  return {
    orderId: order.orderId,
    side: order.side,
    network: order.network,
    symbol: order.token.symbol,
    decimals: order.token.decimals,
    kes,
    ...(order.tokenAmount ? { tokens: order.tokenAmount } : {}),
    ...(fee !== undefined ? { fee } : {}),
    ...(rec.receipt ? { mpesa: rec.receipt } : {}),
    ...(rec.txHash ? { txHash: rec.txHash, explorerUrl: explorerTxUrl(order.network, rec.txHash) } : {}),
    at: rec.finishedAt ?? order.createdAt,
  };
}

/** The picture's words in `locale`. */
export function drawingOf(i18n: ReceiptServiceOptions['i18n'], locale: Locale, view: ReceiptView) {
  const rows = receiptRows(locale, view);
  const labels = {
    title: i18n.t(locale, receiptTitle(view)),
    rows: rows.map((r) => i18n.t(locale, { id: 'receipts-label', args: { key: r.key } })),
    scan: i18n.t(locale, { id: 'receipts-scan' }),
    footer: i18n.t(locale, { id: 'receipts-footer' }),
  };
  return { rows, labels, ...(view.explorerUrl ? { url: view.explorerUrl } : {}) };
}

export class ReceiptService {
  constructor(private readonly o: ReceiptServiceOptions) {}

  async receipt(user: UserRef, orderId: string, locale: Locale, picture: boolean): Promise<ReceiptOutcome> {
    const rec = await this.o.records.recordOf(orderId);
    // Someone else's order is answered as unknown: whether it exists is not the asker's to learn.
    if (!rec || userKey(rec.order.user) !== userKey(user))
      return { status: 'refused', orderId, reason: 'unknown' };
    if (rec.outcome === 'failed' || rec.outcome === 'cancelled')
      return { status: 'refused', orderId, reason: 'failed' };
    if (rec.outcome !== 'completed') return { status: 'refused', orderId, reason: 'unfinished' };
    const view = receiptViewOf(rec);
    if (!picture) return { status: 'ready', receipt: view };
    const ref = `receipt:${orderId}:${locale}`;
    if (!(await this.o.media.has(ref))) {
      const started = performance.now();
      // The rasteriser and the QR code load on the first receipt, not at start.
      const [{ renderPng }, { receiptSvg }] = await Promise.all([
        import('../charts/render.js'),
        import('./svg.js'),
      ]);
      const { png } = renderPng(receiptSvg(drawingOf(this.o.i18n, locale, view)));
      await this.o.media.put(ref, png, PICTURE_TTL_MS);
      this.o.onDrawn?.(performance.now() - started, png.length);
    }
    return { status: 'ready', receipt: { ...view, ref } };
  }
}

type ReceiptEffect = Extract<Effect, { type: 'receipt' }>;

export function registerReceiptEffects(
  engine: Pick<Engine, 'registerEffect'>,
  service: ReceiptService,
): void {
  engine.registerEffect<ReceiptEffect>('receipt', async (e, ctx): Promise<Input> => {
    return {
      kind: 'receipt',
      outcome: await service.receipt(ctx.user, e.orderId, ctx.session.locale, e.picture),
    };
  });
}
