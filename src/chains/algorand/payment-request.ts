/**
 * What a seller is asked to send: an ARC-26 payment URI, the same request as a Pera Wallet
 * universal link, a QR image of it, and the unique note that ties the transfer to one order.
 */
import { createHash } from 'node:crypto';
import algosdk from 'algosdk';
import QRCode from 'qrcode';

/** Every note this app asks for starts with this. */
export const SELL_NOTE_PREFIX = 'rampchat:';
const SELL_NOTE = /^rampchat:[0-9a-f]{16}$/;
/** Algorand's limit on a transaction note. */
const MAX_NOTE_BYTES = 1024;

/**
 * The note for a sell order: `rampchat:` and 16 hex characters derived from the order reference,
 * so repeating a step for the same order always asks for the same note. Pass a reference that is
 * unique per order (e.g. a UUID made when the order starts).
 */
export function newSellNote(orderRef: string): string {
  if (!orderRef) throw new TypeError('newSellNote needs a non-empty order reference');
  const digest = createHash('sha256').update(`rampchat-sell:${orderRef}`).digest('hex');
  return `${SELL_NOTE_PREFIX}${digest.slice(0, 16)}`;
}

/** True when the text has the exact shape of a note from newSellNote. */
export function isSellNote(text: string): boolean {
  return SELL_NOTE.test(text);
}

export interface PaymentRequestInput {
  receiver: string;
  assetId: bigint | number;
  /** In the asset's base units (USDC: 1 = 1,000,000). */
  amountBaseUnits: bigint;
  /** Sent as `xnote`: wallets show it but must not let the user change it. */
  note: string;
  /** Optional ARC-26 label shown for the receiver. */
  label?: string;
}

export interface PaymentRequest {
  /** ARC-26: `algorand://<receiver>?amount=<base units>&asset=<id>&xnote=<note>`. */
  uri: string;
  /**
   * Pera Wallet universal link: `https://perawallet.app/qr/perawallet/<receiver>?…` with the same
   * query. Opens Pera on a phone where it is installed (Pera maps it to `perawallet://<receiver>?…`,
   * which reads `xnote` as a locked note); elsewhere it opens Pera's web page.
   */
  peraUrl: string;
  receiver: string;
  assetId: bigint;
  amountBaseUnits: bigint;
  note: string;
}

/** RFC 3986 percent-encoding of UTF-8, as ARC-26 requires (a space is %20, never '+'). */
const encodeQueryValue = (v: string) =>
  encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Builds the ARC-26 URI and the Pera link for an asset transfer. Throws TypeError on bad input. */
export function buildPaymentRequest(input: PaymentRequestInput): PaymentRequest {
  const { receiver, amountBaseUnits, note, label } = input;
  const assetId = BigInt(input.assetId);
  if (!algosdk.isValidAddress(receiver)) throw new TypeError(`Not an Algorand address: ${receiver}`);
  if (assetId <= 0n) throw new TypeError('assetId must be a positive asset id');
  if (amountBaseUnits <= 0n) throw new TypeError('amountBaseUnits must be positive');
  const noteBytes = new TextEncoder().encode(note).length;
  if (noteBytes === 0 || noteBytes > MAX_NOTE_BYTES) {
    throw new TypeError(`note must be 1-${MAX_NOTE_BYTES} bytes, got ${noteBytes}`);
  }
  const params = [`amount=${amountBaseUnits}`, `asset=${assetId}`, `xnote=${encodeQueryValue(note)}`];
  if (label) params.push(`label=${encodeQueryValue(label)}`);
  const query = params.join('&');
  return {
    uri: `algorand://${receiver}?${query}`,
    peraUrl: `https://perawallet.app/qr/perawallet/${receiver}?${query}`,
    receiver,
    assetId,
    amountBaseUnits,
    note,
  };
}

export interface PaymentQr {
  /** PNG image, for a chat photo. */
  png: Buffer;
  /** The same PNG as a `data:image/png;base64,…` URL. */
  pngDataUrl: string;
  /** A standalone SVG document. */
  svg: string;
}

/** QR code images of a text (normally `PaymentRequest.uri`). */
export async function paymentQr(text: string, opts: { width?: number } = {}): Promise<PaymentQr> {
  const base = { errorCorrectionLevel: 'M' as const, margin: 2 };
  const [png, svg] = await Promise.all([
    QRCode.toBuffer(text, { ...base, type: 'png', width: opts.width ?? 512 }),
    QRCode.toString(text, { ...base, type: 'svg' }),
  ]);
  return { png, pngDataUrl: `data:image/png;base64,${png.toString('base64')}`, svg };
}
