/**
 * Local mode only: the server signs the approval and the tagged deposit with the dev chain's funded
 * wallet, as a seller's wallet would, and returns the deposit's hash; an Algorand sale is paid from
 * the stand-in's funded account. Refuses any intent that is not on a local chain.
 */
import type { Address } from 'viem';
import type { DevWalletClient } from '../../chains/evm/index.js';
import type { SellIntent } from '../intents/intents.js';
import type { SellService } from '../service.js';
import { type LocalAlgorand, payFromStandIn } from './local.js';

export type DevSigner = (intent: SellIntent) => Promise<string>;

export function createDevSigner(
  service: SellService,
  wallet: DevWalletClient,
  algorand?: LocalAlgorand,
): DevSigner {
  return async (intent) => {
    if (intent.algorand) {
      if (!algorand) throw new Error('the dev wallet pays on the local Algorand stand-in only');
      return payFromStandIn(algorand, {
        receiver: intent.algorand.receiver,
        totalUnits: intent.totalUnits,
        note: intent.algorand.note,
      });
    }
    const runtime = service.evmRuntime(intent.network);
    if (!intent.evm?.local || !runtime?.config.local)
      throw new Error('the dev wallet signs on the local dev chain only');
    const from = wallet.account.address as Address;
    const { approve, withdraw, allowance } = await service.evmCalls(intent, from);
    if (allowance < BigInt(intent.totalUnits)) {
      const hash = await wallet.sendTransaction({ to: approve.to, data: approve.data, value: approve.value });
      const receipt = await runtime.client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      if (receipt.status !== 'success') throw new Error('the dev wallet approval reverted');
    }
    const hash = await wallet.sendTransaction({
      to: withdraw.to,
      data: withdraw.data,
      value: withdraw.value,
    });
    await runtime.client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    return hash;
  };
}
