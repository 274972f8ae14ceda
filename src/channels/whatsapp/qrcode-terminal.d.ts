declare module 'qrcode-terminal' {
  /** Prints `text` as a QR code made of terminal characters. */
  export function generate(text: string, opts?: { small?: boolean }, cb?: (qr: string) => void): void;
  const qrcode: { generate: typeof generate };
  export default qrcode;
}
