/**
 * The `receipt` effect's service on a stand-in of the tracker's records: an order that is not the
 * asker's, not finished or failed is refused; a finished buy and sale show their stored figures as
 * they moved (the fee too, never worked out from a rate); the picture is drawn once per order and
 * language and kept in the media store.
 */
import { describe, expect, it } from 'vitest';
import type { UserRef } from '../../src/chat/types.js';
import type { OrderOutcome, TrackedOrder } from '../../src/flows/types.js';
import { loadI18n } from '../../src/i18n/index.js';
import { ReceiptService } from '../../src/receipts/service.js';
import { memoryMediaStore } from '../../src/store/media.js';
import type { OrderRecordView } from '../../src/tracker/index.js';

const i18n = loadI18n();
const ALICE: UserRef = { channel: 'telegram', id: '1001' };
const BOB: UserRef = { channel: 'telegram', id: '1002' };
const HASH = `0x${'ab12'.repeat(16)}`;
const MADE = Date.parse('2026-11-28T09:00:00Z');
const ENDED = Date.parse('2026-11-28T09:01:30Z');

function record(orderId: string, outcome: OrderOutcome, order: Partial<TrackedOrder> = {}): OrderRecordView {
  const o: TrackedOrder = {
    orderId,
    side: 'onramp',
    user: ALICE,
    network: 'polygon',
    walletAddress: '0x52908400098527886e0f7030069857d2e4169ee7',
    token: { symbol: 'USDT', address: '0xc2132d05d31c914a87c6611c10748aeb04b58e8f', decimals: 6 },
    amountKes: 500,
    paidKes: 512.3,
    tokenAmount: '3.861004',
    phone: '254712345678',
    createdAt: MADE,
    ...order,
  };
  return {
    order: o,
    orderId,
    side: o.side,
    createdAt: MADE,
    network: o.network,
    symbol: o.token.symbol,
    amountKes: o.amountKes,
    outcome,
    ...(outcome === 'completed'
      ? { receipt: 'UKS7LKMVMZ', txHash: o.txHash ?? HASH, finishedAt: ENDED }
      : {}),
  };
}

const RECORDS = new Map<string, OrderRecordView>([
  ['D-buy', record('D-buy', 'completed')],
  [
    'F-sale',
    record('F-sale', 'completed', {
      side: 'offramp',
      network: 'algorand',
      token: { symbol: 'USDC', address: '31566704', decimals: 6 },
      amountKes: 1290,
      tokenAmount: '10.123456',
      fee: '0.05',
      txHash: 'QK4V6F3L2JZ7WQ3N5YH5S7C4XK2M6D8P1R9T0B3G7E5A2U4O6I8W',
    }),
  ],
  ['D-failed', record('D-failed', 'failed')],
  ['D-cancelled', record('D-cancelled', 'cancelled')],
  ['D-pending', record('D-pending', 'pending')],
  ['D-support', record('D-support', 'support')],
]);

function service() {
  const drawn: number[] = [];
  const media = memoryMediaStore();
  const s = new ReceiptService({
    records: { recordOf: async (id) => RECORDS.get(id) },
    media,
    i18n,
    onDrawn: (_ms, bytes) => drawn.push(bytes),
  });
  return { s, media, drawn };
}

describe('the receipt service', () => {
  it("refuses an order that is not the asker's as unknown, and one not finished or failed in words", async () => {
    const { s, drawn } = service();
    const refused = async (user: UserRef, id: string) => {
      const out = await s.receipt(user, id, 'en', true);
      return out.status === 'refused' ? out.reason : 'ready';
    };
    expect(await refused(ALICE, 'D-nothing')).toBe('unknown');
    // Bob names Alice's order: answered as if it did not exist.
    expect(await refused(BOB, 'D-buy')).toBe('unknown');
    expect(await refused({ channel: 'whatsapp', id: '1001' }, 'D-buy')).toBe('unknown');
    expect(await refused(ALICE, 'D-failed')).toBe('failed');
    expect(await refused(ALICE, 'D-cancelled')).toBe('failed');
    expect(await refused(ALICE, 'D-pending')).toBe('unfinished');
    expect(await refused(ALICE, 'D-support')).toBe('unfinished');
    expect(drawn).toEqual([]);
  });

  it("a buy's receipt: KES paid with the fee, tokens received as stored, M-Pesa code, hash and link, end time", async () => {
    const { s } = service();
    const out = await s.receipt(ALICE, 'D-buy', 'en', false);
    expect(out).toEqual({
      status: 'ready',
      receipt: {
        orderId: 'D-buy',
        side: 'onramp',
        network: 'polygon',
        symbol: 'USDT',
        decimals: 6,
        kes: 512.3,
        tokens: '3.861004',
        // 512.30 − 500.00 in cents: not 12.299999999999955.
        fee: '12.30',
        mpesa: 'UKS7LKMVMZ',
        txHash: HASH,
        explorerUrl: `https://polygonscan.com/tx/${HASH}`,
        at: ENDED,
      },
    });
  });

  it("a sale's receipt: tokens sent with the fee the ramp kept, as stored, and the KES received", async () => {
    const { s } = service();
    const out = await s.receipt(ALICE, 'F-sale', 'sw', false);
    expect(out.status === 'ready' && out.receipt).toMatchObject({
      side: 'offramp',
      kes: 1290,
      tokens: '10.123456',
      fee: '0.05',
      explorerUrl: 'https://allo.info/tx/QK4V6F3L2JZ7WQ3N5YH5S7C4XK2M6D8P1R9T0B3G7E5A2U4O6I8W',
    });
  });

  it('draws once per order and language; asked again, the kept picture is named', async () => {
    const { s, media, drawn } = service();
    const first = await s.receipt(ALICE, 'D-buy', 'en', true);
    const ref = first.status === 'ready' ? first.receipt.ref : undefined;
    expect(ref).toBe('receipt:D-buy:en');
    const png = await media.get(ref!);
    expect(png!.subarray(1, 4).toString()).toBe('PNG');
    expect(drawn).toEqual([png!.length]);
    const again = await s.receipt(ALICE, 'D-buy', 'en', true);
    expect(again.status === 'ready' && again.receipt.ref).toBe(ref);
    expect(drawn).toHaveLength(1);
    const sw = await s.receipt(ALICE, 'D-buy', 'sw', true);
    expect(sw.status === 'ready' && sw.receipt.ref).toBe('receipt:D-buy:sw');
    expect(drawn).toHaveLength(2);
  });
});
