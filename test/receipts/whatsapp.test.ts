/**
 * A sale's receipt over WhatsApp, the whole app with real Redis on both transports: the seller
 * signs with the dev wallet, is paid out, chooses 🧾 Receipt and gets one picture (an uploaded image
 * on the Cloud API, an image message on baileys) whose QR code reads the explorer page of the
 * sale's own transaction; the tracked order keeps the fee the sale was charged, for the receipt.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explorerTxUrl } from '../../src/domain/networks.js';
import { FakeWhatsAppGraphApi } from '../fakes/whatsapp-graph-api.js';
import { startWaRig, TRANSPORTS, type WaRig } from '../journeys/whatsapp-drivers.js';
import { readQr } from './qr.js';

describe.each(TRANSPORTS)("a sale's receipt over WhatsApp (%s)", (transport) => {
  let rig: WaRig;
  beforeAll(async () => {
    rig = await startWaRig(transport);
  }, 60_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it('is one picture whose QR code is the explorer page of the sale’s transaction', async () => {
    const u = rig.user(transport === 'cloud' ? '254712340091' : '254712340092');
    await u.say('/sell 1000 KES USDT polygon');
    await u.choose(/^sell:phone:saved$/);
    await u.choose(/^sell:confirm:/);
    await u.choose(/^sell:devsign$/, 20_000);
    const filed = await u.until(/Order WD-[\w-]+ is filed/, 30_000);
    const orderId = /Order (WD-[\w-]+)/.exec(filed)![1]!;
    await u.until(/✅ KES 1,000\.00 sent to .*M-Pesa receipt: \w{10}/, 30_000);
    const record = (await rig.app.tracker.recordOf(orderId))!;
    expect(record.order.fee).toMatch(/^0\.\d+$/);

    await u.choose(/^rc:/);
    await u.until(`Your receipt for order ${orderId}`);
    const pictures = rig.images(u.waId);
    expect(pictures).toHaveLength(1);
    expect(pictures[0]!.length).toBeLessThan(150 * 1024);
    expect(readQr(pictures[0]!).qr).toBe(explorerTxUrl('polygon', record.order.txHash!));
    if (transport === 'cloud') {
      const graph = rig.graph!;
      const image = graph.to(u.waId).find((m) => m.type === 'image')!;
      expect(graph.media.get(image.body.image.id)?.mime).toBe('image/png');
      expect(FakeWhatsAppGraphApi.textOf(image)).toContain(`Your receipt for order ${orderId}`);
    }
  }, 90_000);
});
