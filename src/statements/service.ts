/**
 * The `statement` effect: gathers the user's orders of the month from their history, builds the
 * PDF and the CSV in their language and keeps both in the media store, where the channels read
 * them at their turn (the outbox holds only the references).
 */
import { randomUUID } from 'node:crypto';
import type { Locale, Text, UserRef } from '../chat/types.js';
import type { Engine } from '../engine/index.js';
import type { Effect, Input, StatementRequest, StatementView } from '../flows/types.js';
import type { MediaStore } from '../store/media.js';
import type { OrderTracker } from '../tracker/types.js';
import { contentOf } from './content.js';
import { renderCsv } from './csv.js';
import { gatherMonth } from './gather.js';
import { monthKey } from './month.js';

/** Past the outbox's 15-minute give-up. */
const FILE_TTL_MS = 3600_000;

export interface StatementServiceOptions {
  media: MediaStore;
  i18n: { t(locale: Locale, text: Text): string };
  /** Told each statement built: its time and the files' sizes. */
  onBuilt?: (ms: number, pdfBytes: number, csvBytes: number) => void;
}

export class StatementService {
  constructor(private readonly o: StatementServiceOptions) {}

  async build(
    tracker: Pick<OrderTracker, 'ordersOf'> | undefined,
    user: UserRef,
    locale: Locale,
    month: StatementRequest,
  ): Promise<StatementView> {
    const started = performance.now();
    const orders = tracker
      ? await gatherMonth((page, limit) => tracker.ordersOf(user, page, limit), month)
      : [];
    if (!orders.length) return { ...month, orders: 0 };
    const say = (id: string, args?: Text['args']) => this.o.i18n.t(locale, { id, ...(args ? { args } : {}) });
    const content = contentOf(month, orders, locale, say);
    // pdfkit (and its fonts) load on the first statement, not at start.
    const { renderPdf } = await import('./pdf.js');
    const [pdf, csv] = [await renderPdf(content), renderCsv(content)];
    const base = `${say('statements-file')}-${monthKey(month)}`;
    const id = randomUUID();
    await this.o.media.put(`statement:${id}:pdf`, pdf, FILE_TTL_MS);
    await this.o.media.put(`statement:${id}:csv`, csv, FILE_TTL_MS);
    this.o.onBuilt?.(performance.now() - started, pdf.length, csv.length);
    return {
      ...month,
      orders: orders.length,
      pdf: { ref: `statement:${id}:pdf`, filename: `${base}.pdf` },
      csv: { ref: `statement:${id}:csv`, filename: `${base}.csv` },
    };
  }
}

type StatementEffect = Extract<Effect, { type: 'statement' }>;

export function registerStatementEffects(
  engine: Pick<Engine, 'registerEffect'>,
  service: StatementService,
): void {
  engine.registerEffect<StatementEffect>('statement', async (e, ctx): Promise<Input> => {
    return {
      kind: 'statement',
      statement: await service.build(ctx.tracker, ctx.user, ctx.session.locale, e.request),
    };
  });
}
