import type { DepositRequest, DepositResult } from '../../domain/types.js';
import { RampServerError } from '../errors.js';
import { depositBody } from '../schemas.js';
import { type RampContext, read } from './context.js';

/**
 * POST deposit / svc-deposit: releases the crypto of a paid on-ramp order. Sent at most once: only
 * a refused connection (nothing reached the service) is tried again.
 */
export async function deposit(ctx: RampContext, req: DepositRequest): Promise<DepositResult> {
  const body = await ctx.send({
    method: 'POST',
    path: ctx.paths.deposit,
    endpoint: 'deposit',
    retry: 'unsent',
    orderId: req.orderId,
    body: { chain: req.chain, address: req.address, orderID: req.orderId, project: req.project },
  });
  const d = read(depositBody, body, 'deposit');
  const hash = d.hash ?? d.data?.hash ?? d.data?.transactionHash;
  if (!hash) {
    // The release may have happened: say so, so the caller files it for a human rather than retrying.
    throw new RampServerError(
      `The ramp accepted the release of ${req.orderId} but returned no transaction hash; check before retrying.`,
    );
  }
  return { hash, message: d.message, createdAt: d.createdAt, updatedAt: d.updatedAt };
}
