/** Reading a receipt picture back: the PNG decoded (pngjs) and its QR code's text (jsQR), if any. */
import jsqrModule from 'jsqr';
import { PNG } from 'pngjs';

type Reader = typeof jsqrModule.default;
// jsQR is CommonJS with an `exports.default`: under Node's ESM loading the function is one level down.
const jsQR: Reader =
  (jsqrModule as unknown as { default?: Reader }).default ?? (jsqrModule as unknown as Reader);

export function readQr(bytes: Uint8Array): { width: number; height: number; qr?: string } {
  const img = PNG.sync.read(Buffer.from(bytes));
  const code = jsQR(new Uint8ClampedArray(img.data), img.width, img.height);
  return { width: img.width, height: img.height, ...(code ? { qr: code.data } : {}) };
}
