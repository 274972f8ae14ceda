/**
 * `GET /sign/<token>/tx?from=`: the approval and the tagged deposit call for the seller's wallet, as
 * JSON; refused for another wallet than the one named, and once a deposit into the escrow was reported.
 */
import { type Address, getAddress } from 'viem';
import type { LinkRoute } from '../context.js';
import { reportedDeposit } from '../escrow-check.js';
import { addressParam, json } from '../http-io.js';

export const getTx: LinkRoute = {
  action: 'tx',
  method: 'GET',
  accepts: (intent) => !!intent.evm,
  async handle({ service }, { res, url, intent }) {
    const from = addressParam.safeParse(url.searchParams.get('from') ?? '');
    if (!from.success) return json(res, 400, { error: 'from must be a wallet address' });
    const sender = getAddress(from.data) as Address;
    if (intent.wallet && intent.wallet.toLowerCase() !== sender.toLowerCase()) {
      return json(res, 409, { error: 'wrong_wallet', wallet: intent.wallet });
    }
    const reported = await reportedDeposit(service, intent);
    if (reported) return json(res, 409, { error: 'already_sent', hash: reported });
    const { approve, allowance, withdraw } = await service.evmCalls(intent, sender);
    return json(res, 200, {
      chainId: intent.evm!.chainId,
      token: intent.token.address,
      escrow: intent.evm!.escrow,
      total: intent.totalUnits,
      allowance,
      approve,
      withdraw,
    });
  },
};
