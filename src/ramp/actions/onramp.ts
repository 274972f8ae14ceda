import type { CreatedOrder, CreateOnrampOrder, OnrampOrderState } from '../../domain/types.js';
import { createdOrderData, findReceipt, onrampStatusData, unwrap } from '../schemas.js';
import { type RampContext, read } from './context.js';

/** POST onramp-orders / svc-onramp: sends the STK push. Never retried once it may have been sent. */
export async function createOnrampOrder(ctx: RampContext, req: CreateOnrampOrder): Promise<CreatedOrder> {
  const body = await ctx.send({
    method: 'POST',
    path: ctx.paths.onrampOrder,
    endpoint: 'onrampOrder',
    retry: 'unsent',
    body: {
      partyA: req.phone,
      amount: String(req.amountKes),
      side: 'onramp',
      userAddress: req.userAddress,
      tokenAddress: req.tokenAddress,
    },
  });
  const d = read(createdOrderData, unwrap(body), 'on-ramp order');
  return { orderId: d.orderID, message: d.message ?? (body as { message?: string })?.message };
}

/**
 * GET onramp-order-status / order-onramp-status. While an order is not SUCCESS the service puts the
 * M-Pesa checkout request id (`ws_CO_…`) where the receipt goes; it is reported as such.
 */
export async function getOnrampStatus(ctx: RampContext, orderId: string): Promise<OnrampOrderState> {
  const body = await ctx.send({
    method: 'GET',
    path: ctx.paths.onrampStatus(orderId),
    endpoint: 'onrampStatus',
    retry: 'idempotent',
    orderId,
  });
  const data = unwrap(body);
  const d = read(onrampStatusData, data, 'on-ramp status');
  const mobileMoney = findReceipt(
    (data as { details?: unknown }).details ?? (data as { Details?: unknown }).Details,
  );
  const isCheckoutId = mobileMoney !== undefined && /^ws_CO_/i.test(mobileMoney);
  return {
    orderId: d.orderID ?? orderId,
    status: d.status,
    message: d.message,
    phone: d.details?.phoneNumber,
    receipt: d.status === 'SUCCESS' && !isCheckoutId ? mobileMoney : undefined,
    checkoutRequestId: isCheckoutId ? mobileMoney : undefined,
    transactionDate: d.details?.transactionDate,
    resultDescription: d.details?.resultDescription,
  };
}
