/** Can this wallet send the asset now? Checked before showing a payment request. */
import algosdk from 'algosdk';
import { isNotFound } from './errors.js';

export interface SenderCheckInput {
  address: string;
  assetId: bigint | number;
  /** Spendable microAlgos needed above the account's minimum balance (about 1000 = 0.001 ALGO). */
  minFeeMicroAlgo: bigint;
  /** When given, the asset balance must cover it (base units). */
  amountBaseUnits?: bigint;
}

export type SenderRefusal =
  | 'invalid_address'
  | 'not_opted_in'
  | 'asset_frozen'
  | 'insufficient_algo'
  | 'insufficient_asset';

export type SenderCheck =
  | { ok: true; algoSpendable: bigint; assetBalance: bigint }
  | {
      ok: false;
      reason: SenderRefusal;
      /** English, for logs; chats show a localized text chosen by `reason`. */
      detail: string;
      algoSpendable?: bigint;
      assetBalance?: bigint;
    };

/**
 * Checks that the wallet is opted in to the asset (and not frozen), holds enough spendable ALGO
 * above its minimum balance for the fee, and, when an amount is given, enough of the asset.
 * Throws when algod cannot be reached.
 */
export async function checkSenderReady(
  algod: algosdk.Algodv2,
  input: SenderCheckInput,
): Promise<SenderCheck> {
  const { address, minFeeMicroAlgo, amountBaseUnits } = input;
  const assetId = BigInt(input.assetId);
  if (!algosdk.isValidAddress(address)) {
    return { ok: false, reason: 'invalid_address', detail: `${address} is not an Algorand address` };
  }
  const [account, holding] = await Promise.all([
    algod.accountInformation(address).exclude('all').do(),
    algod
      .accountAssetInformation(address, assetId)
      .do()
      .then((r) => r.assetHolding)
      .catch((err: unknown) => {
        if (isNotFound(err)) return undefined;
        throw err;
      }),
  ]);
  const algoSpendable = account.amount > account.minBalance ? account.amount - account.minBalance : 0n;
  if (!holding) {
    return {
      ok: false,
      reason: 'not_opted_in',
      detail: `${address} has not opted in to asset ${assetId}`,
      algoSpendable,
    };
  }
  const assetBalance = holding.amount;
  if (holding.isFrozen) {
    return {
      ok: false,
      reason: 'asset_frozen',
      detail: `asset ${assetId} is frozen in ${address}`,
      algoSpendable,
      assetBalance,
    };
  }
  if (algoSpendable < minFeeMicroAlgo) {
    return {
      ok: false,
      reason: 'insufficient_algo',
      detail: `${address} can spend ${algoSpendable} microAlgos above its minimum balance; needs ${minFeeMicroAlgo}`,
      algoSpendable,
      assetBalance,
    };
  }
  if (amountBaseUnits !== undefined && assetBalance < amountBaseUnits) {
    return {
      ok: false,
      reason: 'insufficient_asset',
      detail: `${address} holds ${assetBalance} base units of asset ${assetId}; needs ${amountBaseUnits}`,
      algoSpendable,
      assetBalance,
    };
  }
  return { ok: true, algoSpendable, assetBalance };
}
