import type { CreatedOrder, CreateOfframpOrder, OfframpOrderState } from '../../domain/types.js';
import { createdOrderData, findReceipt, offrampStatusData, unwrap } from '../schemas.js';
import { type RampContext, read } from './context.js';

/**
 * POST offramp-orders / svc-order-offramp: files an on-chain transfer for payout. Never retried once
 * it may have been sent (a resend would meet the Duplicate answer, which names the first order).
 */
export async function createOfframpOrder(ctx: RampContext, req: CreateOfframpOrder): Promise<CreatedOrder> {
  const body = await ctx.send({
    method: 'POST',
    path: ctx.paths.offrampOrder,
    endpoint: 'offrampOrder',
    retry: 'unsent',
    body: {
      chain: req.chain,
      hash: req.hash,
      partyB: req.phone,
      tokenAddress: req.tokenAddress,
      project: req.project,
      ...(ctx.generation === 'current' ? { userAddress: req.userAddress } : {}),
    },
  });
  const d = read(createdOrderData, unwrap(body), 'off-ramp order');
  return { orderId: d.orderID, message: (body as { message?: string })?.message ?? d.message };
}

/** `"254700000001 - Jane Doe"` -> `"Jane Doe"`. */
function receiverName(publicName: string | undefined): string | undefined {
  if (!publicName) return undefined;
  const m = /^\+?\d{6,15}\s*-\s*(.+)$/.exec(publicName.trim());
  return (m?.[1] ?? publicName).trim();
}

/** GET offramp-order-status / order-offramp-status. */
export async function getOfframpStatus(ctx: RampContext, orderId: string): Promise<OfframpOrderState> {
  const body = await ctx.send({
    method: 'GET',
    path: ctx.paths.offrampStatus(orderId),
    endpoint: 'offrampStatus',
    retry: 'idempotent',
    orderId,
  });
  const data = unwrap(body);
  const d = read(offrampStatusData, data, 'off-ramp status');
  const det = d.details;
  const receipt = findReceipt(
    (data as { details?: unknown }).details ?? (data as { Details?: unknown }).Details,
  );
  return {
    orderId: d.orderID ?? orderId,
    // Off-ramp has no cancel; a legacy CANCELLED reads as FAILED.
    status: d.status === 'CANCELLED' ? 'FAILED' : d.status,
    message: d.message,
    phone: det?.phoneNumber,
    receiverName: receiverName(det?.receiverPartyPublicName),
    amountKes: det?.transactionSize,
    initiatedAt: det?.initiatedAt,
    completedAt: det?.completedAt,
    receipt: receipt && !/^ws_CO_/i.test(receipt) ? receipt : undefined,
    failureReason: det?.failureReason,
    resultCode: det?.resultCode,
  };
}
