import { createRequire } from 'node:module';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import {
  buildPaymentRequest,
  DEFAULT_SERVICE_WALLET,
  isSellNote,
  newSellNote,
  paymentQr,
  USDC_ASSET_ID,
} from '../../../src/chains/algorand/index.js';

// pngjs comes with qrcode; it has no bundled types, so it is loaded untyped.
const { PNG } = createRequire(import.meta.url)('pngjs') as {
  PNG: { sync: { read(b: Buffer): { width: number; height: number; data: Buffer } } };
};

const receiver = DEFAULT_SERVICE_WALLET;

describe('newSellNote', () => {
  it('is rampchat: and 16 hex characters, the same for the same order and different across orders', () => {
    const a = newSellNote('order-1');
    expect(a).toMatch(/^rampchat:[0-9a-f]{16}$/);
    expect(isSellNote(a)).toBe(true);
    expect(newSellNote('order-1')).toBe(a);
    const many = new Set(Array.from({ length: 500 }, (_, i) => newSellNote(`order-${i}`)));
    expect(many.size).toBe(500);
  });

  it('refuses an empty order reference', () => {
    expect(() => newSellNote('')).toThrow(TypeError);
  });

  it('isSellNote rejects other shapes', () => {
    expect(isSellNote('rampchat:0123456789abcdeF')).toBe(false);
    expect(isSellNote('rampchat:0123456789abcde')).toBe(false);
    expect(isSellNote('other:0123456789abcdef')).toBe(false);
  });
});

describe('buildPaymentRequest', () => {
  it('builds the ARC-26 URI with base-unit amount, asset id and a locked note', () => {
    const note = newSellNote('o-42');
    const req = buildPaymentRequest({ receiver, assetId: USDC_ASSET_ID, amountBaseUnits: 12_345_678n, note });
    expect(req.uri).toBe(
      `algorand://${receiver}?amount=12345678&asset=31566704&xnote=${note.replace(':', '%3A')}`,
    );
    expect(req.assetId).toBe(31566704n);
    expect(req.amountBaseUnits).toBe(12_345_678n);
  });

  it('gives the same request as a Pera Wallet universal link', () => {
    const note = newSellNote('o-43');
    const req = buildPaymentRequest({ receiver, assetId: 31566704, amountBaseUnits: 5_000_000n, note });
    expect(req.peraUrl).toBe(
      `https://perawallet.app/qr/perawallet/${receiver}?amount=5000000&asset=31566704&xnote=rampchat%3A${note.slice(9)}`,
    );
    const url = new URL(req.peraUrl);
    expect(url.host).toBe('perawallet.app');
    expect(url.pathname).toBe(`/qr/perawallet/${receiver}`);
    expect(url.searchParams.get('xnote')).toBe(note);
  });

  it('percent-encodes the note as UTF-8 (space as %20, reserved characters escaped) and round-trips', () => {
    const note = "pay & go = ok? ü/'*";
    const req = buildPaymentRequest({
      receiver,
      assetId: 1n,
      amountBaseUnits: 1n,
      note,
      label: 'Rampchat sell',
    });
    const query = req.uri.split('?')[1]!;
    expect(query).toBe(
      'amount=1&asset=1&xnote=pay%20%26%20go%20%3D%20ok%3F%20%C3%BC%2F%27%2A&label=Rampchat%20sell',
    );
    expect(query).not.toContain('+');
    const params = new URL(req.uri).searchParams;
    expect(params.get('xnote')).toBe(note);
    expect(params.get('label')).toBe('Rampchat sell');
    expect(params.has('note')).toBe(false);
  });

  it('refuses bad input', () => {
    const ok = { receiver, assetId: 31566704n, amountBaseUnits: 1n, note: 'n' };
    expect(() => buildPaymentRequest({ ...ok, receiver: `${receiver.slice(0, -1)}A` })).toThrow(/address/);
    expect(() => buildPaymentRequest({ ...ok, amountBaseUnits: 0n })).toThrow(/amount/);
    expect(() => buildPaymentRequest({ ...ok, assetId: 0n })).toThrow(/asset/);
    expect(() => buildPaymentRequest({ ...ok, note: '' })).toThrow(/note/);
    expect(() => buildPaymentRequest({ ...ok, note: 'x'.repeat(1025) })).toThrow(/note/);
  });
});

describe('paymentQr', () => {
  const uri = buildPaymentRequest({
    receiver,
    assetId: USDC_ASSET_ID,
    amountBaseUnits: 25_500_000n,
    note: newSellNote('qr'),
  }).uri;
  const expected = QRCode.create(uri, { errorCorrectionLevel: 'M' }).modules;
  const margin = 2;

  it('draws a PNG whose modules are exactly the QR code of the URI', async () => {
    const qr = await paymentQr(uri);
    expect(qr.png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(qr.pngDataUrl).toBe(`data:image/png;base64,${qr.png.toString('base64')}`);

    const image = PNG.sync.read(qr.png);
    expect(image.width).toBe(image.height);
    const scale = image.width / (expected.size + margin * 2);
    let mismatches = 0;
    let dark = 0;
    for (let r = 0; r < expected.size; r++) {
      for (let c = 0; c < expected.size; c++) {
        const x = Math.floor((c + margin + 0.5) * scale);
        const y = Math.floor((r + margin + 0.5) * scale);
        const isDark = image.data[(y * image.width + x) * 4] === 0;
        if (isDark) dark++;
        if (isDark !== Boolean(expected.get(r, c))) mismatches++;
      }
    }
    expect(dark).toBeGreaterThan(expected.size);
    expect(mismatches).toBe(0);
  });

  it('draws an SVG of the same size with one dark run per module of the QR code', async () => {
    const { svg } = await paymentQr(uri);
    const side = expected.size + margin * 2;
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain(`viewBox="0 0 ${side} ${side}"`);
    const path = /<path stroke="#000000" d="([^"]+)"/.exec(svg)?.[1] ?? '';
    const drawn = [...path.matchAll(/h(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
    const darkModules = Array.from(expected.data).filter(Boolean).length;
    expect(drawn).toBe(darkModules);
  });
});
