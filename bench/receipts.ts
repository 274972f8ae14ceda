/**
 * `npx tsx bench/receipts.ts`: how long a receipt takes to draw (lines, SVG with its QR code, PNG)
 * and how many bytes it weighs, for a buy on Polygon (a 66-character hash) and a sale on Algorand
 * (a 52-character id), in English and Kiswahili. Prints p50 and p95; nothing is asserted.
 */

import { renderPng } from '../src/charts/render.js';
import type { Locale } from '../src/chat/types.js';
import type { ReceiptView } from '../src/flows/types.js';
import { loadI18n } from '../src/i18n/index.js';
import { drawingOf } from '../src/receipts/service.js';
import { receiptSvg } from '../src/receipts/svg.js';

const RUNS = Number(process.env.BENCH_RECEIPT_RUNS ?? 50);
const i18n = loadI18n();
const AT = Date.parse('2026-11-28T09:41:00Z');

const buy: ReceiptView = {
  orderId: 'D-8f2c41a9e07b',
  side: 'onramp',
  network: 'polygon',
  symbol: 'USDT',
  // 18 decimals: the longest amount line a receipt can have.
  decimals: 18,
  kes: 10_150.5,
  tokens: '77.387401331063311234',
  fee: '150.50',
  mpesa: 'TKS4QX9B2M',
  txHash: `0x${'5aae12c4f9d1'.repeat(5)}91b0eaed`,
  explorerUrl: `https://polygonscan.com/tx/0x${'5aae12c4f9d1'.repeat(5)}91b0eaed`,
  at: AT,
};
const sale: ReceiptView = {
  orderId: 'F-2b7d90c4aa31',
  side: 'offramp',
  network: 'algorand',
  symbol: 'USDC',
  decimals: 6,
  kes: 25_000,
  tokens: '195.123456',
  fee: '1.2',
  mpesa: 'TKT7ZP1C8Q',
  txHash: 'QK4V6F3L2JZ7WQ3N5YH5S7C4XK2M6D8P1R9T0B3G7E5A2U4O6I8W',
  explorerUrl: 'https://allo.info/tx/QK4V6F3L2JZ7WQ3N5YH5S7C4XK2M6D8P1R9T0B3G7E5A2U4O6I8W',
  at: AT,
};

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)]!;

console.log(`Receipt render (lines, SVG with QR, resvg PNG), ${RUNS} runs each, after one warm-up:`);
console.log('| Receipt | Locale | Size | SVG bytes | PNG bytes | p50 ms | p95 ms |');
console.log('|---|---|---|---|---|---|---|');
for (const [name, view] of [
  ['buy, Polygon', buy],
  ['sale, Algorand', sale],
] as const) {
  for (const locale of ['en', 'sw'] as Locale[]) {
    const draw = () => renderPng(receiptSvg(drawingOf(i18n, locale, view)));
    draw();
    const ms: number[] = [];
    let out = draw();
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      out = draw();
      ms.push(performance.now() - t);
    }
    const svg = receiptSvg(drawingOf(i18n, locale, view));
    console.log(
      `| ${name} | ${locale} | ${out.width}×${out.height} | ${svg.length} | ${out.png.length} | ${pct(ms, 0.5).toFixed(1)} | ${pct(ms, 0.95).toFixed(1)} |`,
    );
  }
}
