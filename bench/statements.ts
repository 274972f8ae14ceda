/**
 * `npx tsx bench/statements.ts`: how long a monthly statement of 200 orders takes to build (the
 * orders read from 4 pages of history, totals, the PDF with pdfkit and the CSV) and how big its
 * files are, in both languages, after one warm-up. The target is at most 1 s. Nothing is asserted.
 */
import { loadI18n } from '../src/i18n/index.js';
import { contentOf } from '../src/statements/content.js';
import { monthOf } from '../src/statements/month.js';
import { renderPdf } from '../src/statements/pdf.js';
import { StatementService } from '../src/statements/service.js';
import { memoryMediaStore } from '../src/store/media.js';
import { syntheticOrders } from '../test/statements/orders.js';

const RUNS = Number(process.env.BENCH_STATEMENT_RUNS ?? 20);
const NOW = Date.parse('2026-11-28T09:00:00Z');
const month = monthOf(NOW);
const orders = syntheticOrders(200, month);
const tracker = {
  async ordersOf(_user: unknown, page: number, limit: number) {
    const newest = [...orders].reverse();
    return {
      orders: newest.slice((page - 1) * limit, page * limit),
      page,
      totalPages: Math.ceil(newest.length / limit),
    };
  },
};
const i18n = loadI18n();
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)]!;

console.log(`Statement of ${orders.length} orders (pdfkit PDF + CSV), ${RUNS} runs each, after one warm-up:`);
console.log('| Language | PDF bytes | PDF pages | CSV bytes | p50 ms | p95 ms | max ms |');
console.log('|---|---|---|---|---|---|---|');
for (const locale of ['en', 'sw'] as const) {
  let sizes = { pdf: 0, csv: 0 };
  const service = new StatementService({
    media: memoryMediaStore(),
    i18n,
    onBuilt: (_ms, pdf, csv) => (sizes = { pdf, csv }),
  });
  const user = { channel: 'telegram' as const, id: '1' };
  await service.build(tracker, user, locale, month);
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await service.build(tracker, user, locale, month);
    ms.push(performance.now() - t);
  }
  const say = (id: string, args?: Record<string, string | number>) =>
    i18n.t(locale, { id, ...(args ? { args } : {}) });
  const pdf = await renderPdf(contentOf(month, orders, locale, say));
  const pages = pdf.toString('latin1').match(/\/Type \/Page\b(?!s)/g)?.length ?? 0;
  console.log(
    `| ${locale} | ${sizes.pdf} | ${pages} | ${sizes.csv} | ${pct(ms, 0.5).toFixed(1)} | ${pct(ms, 0.95).toFixed(1)} | ${Math.max(...ms).toFixed(1)} |`,
  );
}
