/**
 * A receipt drawn as an SVG document: a header naming the order's kind, one line per figure (label
 * left, value right), the explorer link of the transaction as a QR code, and the footer saying the
 * time is Nairobi's. Pure (no I/O), so a test checks the picture against the layout drawn.
 */
import QRCode from 'qrcode';
import type { ReceiptRow } from './lines.js';

export const WIDTH = 640;
const PAD = 40;
const HEADER = 96;
const ROW = 46;
/** Pixels per QR module: a phone camera reads it off a screen, and jsQR off the PNG. */
const MODULE = 5;
/** The quiet zone the QR standard asks for around the code, in modules. */
const QUIET = 4;
export const COLOURS = {
  brand: '#0a8f3c',
  text: '#1d232b',
  label: '#5b6470',
  rule: '#e3e6ea',
  bg: '#ffffff',
};

/** The words in the picture, in the user's language. */
export interface ReceiptLabels {
  title: string;
  /** One label per row, in the rows' order. */
  rows: string[];
  scan: string;
  footer: string;
}

export interface ReceiptDrawing {
  rows: ReceiptRow[];
  labels: ReceiptLabels;
  /** Encoded in the QR code (the explorer's page of the hash); none without a hash. */
  url?: string;
}

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The QR code's dark modules as one path, runs of a row joined, from (x, y). */
function qrPath(url: string, x: number, y: number): { d: string; size: number } {
  const { modules } = QRCode.create(url, { errorCorrectionLevel: 'M' });
  const n = modules.size;
  let d = '';
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; ) {
      if (!modules.get(r, c)) {
        c++;
        continue;
      }
      let end = c;
      while (end < n && modules.get(r, end)) end++;
      d += `M${x + c * MODULE} ${y + r * MODULE}h${(end - c) * MODULE}v${MODULE}h${-(end - c) * MODULE}z`;
      c = end;
    }
  }
  return { d, size: (n + 2 * QUIET) * MODULE };
}

/** Where the QR code sits and how tall the picture is, for the drawing and for tests. */
export function receiptLayout(d: ReceiptDrawing): {
  qr?: { x: number; y: number; size: number };
  height: number;
} {
  const rowsEnd = HEADER + 24 + d.rows.length * ROW;
  if (!d.url) return { height: rowsEnd + 70 };
  const { size } = qrPath(d.url, 0, 0);
  const qr = { x: Math.round((WIDTH - size) / 2), y: rowsEnd + 16, size };
  return { qr, height: qr.y + size + 84 };
}

export function receiptSvg(d: ReceiptDrawing): string {
  const { qr, height } = receiptLayout(d);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="DejaVu Sans">`,
    `<rect width="${WIDTH}" height="${height}" fill="${COLOURS.bg}"/>`,
    `<rect width="${WIDTH}" height="${HEADER}" fill="${COLOURS.brand}"/>`,
    `<text x="${PAD}" y="42" font-size="26" font-weight="bold" fill="#ffffff">rampchat</text>`,
    `<text x="${PAD}" y="74" font-size="17" fill="#ffffff">${esc(d.labels.title)}</text>`,
  ];
  d.rows.forEach((row, i) => {
    const y = HEADER + 24 + i * ROW;
    out.push(
      `<text x="${PAD}" y="${y + 28}" font-size="15" fill="${COLOURS.label}">${esc(d.labels.rows[i] ?? '')}</text>`,
      `<text x="${WIDTH - PAD}" y="${y + 28}" font-size="17" font-weight="bold" fill="${COLOURS.text}" text-anchor="end">${esc(row.value)}</text>`,
      `<rect x="${PAD}" y="${y + ROW - 1}" width="${WIDTH - 2 * PAD}" height="1" fill="${COLOURS.rule}"/>`,
    );
  });
  let footerY = height - 28;
  if (qr && d.url) {
    const inner = QUIET * MODULE;
    out.push(`<path d="${qrPath(d.url, qr.x + inner, qr.y + inner).d}" fill="#000000"/>`);
    out.push(
      `<text x="${WIDTH / 2}" y="${qr.y + qr.size + 14}" font-size="14" fill="${COLOURS.label}" text-anchor="middle">${esc(d.labels.scan)}</text>`,
    );
    footerY = qr.y + qr.size + 60;
  }
  out.push(
    `<text x="${WIDTH / 2}" y="${footerY}" font-size="13" fill="${COLOURS.label}" text-anchor="middle">${esc(d.labels.footer)}</text>`,
    '</svg>',
  );
  return out.join('\n');
}
