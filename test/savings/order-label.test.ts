/**
 * A standing buy's order carries its plan and run ("<plan>:<run>") through the tracker's compact
 * record, and records written before the field existed still read as valid orders.
 */
import { describe, expect, it } from 'vitest';
import type { TrackedOrder } from '../../src/flows/types.js';
import { trackedOrderSchema } from '../../src/tracker/store/state.js';
import { orderFields, orderFromFields } from '../../src/tracker/store/store-fields.js';

const order: TrackedOrder = {
  orderId: 'D-40bvs-OM',
  side: 'onramp',
  user: { channel: 'telegram', id: '42' },
  network: 'polygon',
  walletAddress: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
  token: { symbol: 'USDT', address: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', decimals: 6 },
  amountKes: 500,
  paidKes: 506,
  tokenAmount: '3.861004',
  phone: '254712345678',
  createdAt: 1_764_200_000_000,
};

describe("a standing buy's order label", () => {
  it('round-trips through the compact record', () => {
    const labelled = { ...order, plan: 'abc12341:3' };
    const back = trackedOrderSchema.parse(orderFromFields(order.orderId, orderFields(labelled)));
    expect(back.plan).toBe('abc12341:3');
  });

  it('a record written before the field existed stays valid', () => {
    const fields = orderFields(order);
    expect(fields).not.toHaveProperty('plan');
    const back = trackedOrderSchema.parse(orderFromFields(order.orderId, fields));
    expect(back).toEqual(order);
  });
});
