/**
 * The receipt picture read back: its words in the user's language (the SVG's text), the figures as
 * the order stored them, the time in Nairobi's, the QR code decoded to the explorer link of the
 * hash, and the PNG within 150 KB; a receipt without a hash has no QR code.
 */
import { describe, expect, it } from 'vitest';
import { renderPng } from '../../src/charts/render.js';
import type { ReceiptView } from '../../src/flows/types.js';
import { loadI18n } from '../../src/i18n/index.js';
import { receiptRows, shortHash } from '../../src/receipts/lines.js';
import { drawingOf } from '../../src/receipts/service.js';
import { receiptLayout, receiptSvg, WIDTH } from '../../src/receipts/svg.js';
import { readQr } from './qr.js';

const i18n = loadI18n();
const HASH = `0x${'5aae12c4f9d1'.repeat(5)}91b0eaed`;
const buy: ReceiptView = {
  orderId: 'D-f5h5u-4X',
  side: 'onramp',
  network: 'polygon',
  symbol: 'USDT',
  decimals: 6,
  kes: 10_150.5,
  tokens: '77.387401331063311234',
  fee: '150.50',
  mpesa: 'UKS7LKMVMZ',
  txHash: HASH,
  explorerUrl: `https://polygonscan.com/tx/${HASH}`,
  // 21:41 UTC is 00:41 the next day in Nairobi.
  at: Date.parse('2026-11-28T21:41:00Z'),
};

describe('the receipt picture', () => {
  it('says every figure as stored, in Kiswahili for a Kiswahili user, with the time in Nairobi', () => {
    const svg = receiptSvg(drawingOf(i18n, 'sw', buy));
    for (const words of [
      'Risiti · kripto imenunuliwa kwa M-Pesa',
      'Ulilipa',
      'Ulipokea',
      'Ada (imejumuishwa)',
    ])
      expect(svg).toContain(words);
    for (const words of ['Msimbo wa M-Pesa', 'Muamala', 'Oda', 'Tarehe', 'saa za Nairobi (EAT, UTC+3)'])
      expect(svg).toContain(words);
    expect(svg).not.toContain('You paid');
    // Tokens to the token's decimals (6), the finest unit that moves on chain, and no coarser.
    for (const value of ['KSh 10,150.50', '77.387401 USDT', 'KSh 150.50', 'UKS7LKMVMZ', 'D-f5h5u-4X'])
      expect(svg).toContain(value);
    expect(svg).toContain('2026-11-29 00:41 EAT');
    expect(svg).toContain(shortHash(HASH));
    expect(shortHash(HASH)).toBe('0x5aae12c4…91b0eaed');
    expect(receiptSvg(drawingOf(i18n, 'en', buy))).toContain('You paid');
    expect(receiptRows('en', { ...buy, decimals: 18 })[1]!.value).toBe('77.387401331063311234 USDT');
  });

  it('a sale lists the tokens sent first and the KES received after', () => {
    const rows = receiptRows('en', { ...buy, side: 'offramp', kes: 1290, tokens: '10.05', fee: '0.05' });
    expect(rows.slice(0, 4)).toEqual([
      { key: 'sent', value: '10.05 USDT' },
      { key: 'received', value: 'KES 1,290.00' },
      { key: 'network', value: 'Polygon' },
      { key: 'fee', value: '0.05 USDT' },
    ]);
  });

  it('its QR code reads the explorer link of the hash, and the PNG stays within 150 KB', () => {
    for (const view of [
      buy,
      {
        ...buy,
        network: 'algorand' as const,
        txHash: 'QK4V6F3L2JZ7WQ3N5YH5S7C4XK2M6D8P1R9T0B3G7E5A2U4O6I8W',
        explorerUrl: 'https://allo.info/tx/QK4V6F3L2JZ7WQ3N5YH5S7C4XK2M6D8P1R9T0B3G7E5A2U4O6I8W',
      },
    ]) {
      const drawing = drawingOf(i18n, 'en', view);
      const { png, width, height } = renderPng(receiptSvg(drawing));
      expect(png.length).toBeLessThan(150 * 1024);
      expect([width, height]).toEqual([WIDTH, receiptLayout(drawing).height]);
      expect(readQr(png).qr).toBe(view.explorerUrl);
    }
  });

  it('a receipt without a hash has no QR code', () => {
    const { txHash: _h, explorerUrl: _u, ...noHash } = buy;
    const drawing = drawingOf(i18n, 'en', noHash);
    expect(receiptLayout(drawing).qr).toBeUndefined();
    expect(readQr(renderPng(receiptSvg(drawing)).png).qr).toBeUndefined();
  });
});
