/** `GET /sign/<token>/qr.png`: the Algorand payment request as a QR image. */
import { paymentQr } from '../../chains/algorand/index.js';
import type { LinkRoute } from '../context.js';

export const getQr: LinkRoute = {
  action: 'qr.png',
  method: 'GET',
  accepts: (intent) => !!intent.algorand,
  async handle({ service }, { res, intent }) {
    const qr = await paymentQr(service.linkOf(intent).algorand!.uri);
    res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' });
    res.end(qr.png);
  },
};
