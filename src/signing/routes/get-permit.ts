/**
 * `GET /sign/<token>/permit?owner=`: the EIP-2612 permit data for the owner's wallet to sign, or
 * `{ permit: false }` when the token has none (then the page approves and uses `/tx`).
 */
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  getAddress,
  isAddressEqual,
  zeroAddress,
} from 'viem';
import type { LinkRoute } from '../context.js';
import { reportedDeposit } from '../escrow-check.js';
import { addressParam, json } from '../http-io.js';

/** True when a read failed because the token has no EIP-2612 `nonces` (not because the RPC failed). */
const lacksPermit = (err: unknown) =>
  err instanceof BaseError &&
  err.walk(
    (e) => e instanceof ContractFunctionRevertedError || e instanceof ContractFunctionZeroDataError,
  ) !== null;

export const getPermit: LinkRoute = {
  action: 'permit',
  method: 'GET',
  accepts: (intent) => intent.evm?.escrowCall === 'permit',
  async handle({ service, log }, { res, url, intent }) {
    const owner = addressParam.safeParse(url.searchParams.get('owner') ?? '');
    if (!owner.success) return json(res, 400, { error: 'owner must be a wallet address' });
    if (intent.wallet && intent.wallet.toLowerCase() !== owner.data.toLowerCase()) {
      return json(res, 409, { error: 'wrong_wallet', wallet: intent.wallet });
    }
    const reported = await reportedDeposit(service, intent);
    if (reported) return json(res, 409, { error: 'already_sent', hash: reported });
    if (isAddressEqual(intent.token.address as Address, zeroAddress))
      return json(res, 200, { permit: false });
    try {
      return json(res, 200, {
        permit: true,
        ...(await service.permitData(intent, getAddress(owner.data))),
      });
    } catch (err) {
      if (!lacksPermit(err)) throw err;
      log.info(
        { intentId: intent.id, token: intent.token.symbol },
        'token has no EIP-2612 permit; approving',
      );
      return json(res, 200, { permit: false });
    }
  },
};
