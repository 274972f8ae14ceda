/**
 * Local mode (no RAMP_BASE_URL, no EVM_* escrow): a whole sell without internet. An in-process dev
 * chain with the test escrow and tokens stands in for Polygon, a local algod + indexer stand-in for
 * Algorand; the sandbox checks reported hashes on them, and a "dev wallet" button lets the server pay
 * with a funded test wallet (an EVM deposit, or a USDC transfer on the Algorand stand-in).
 */
import algosdk from 'algosdk';
import { type Address, decodeFunctionData, getAddress, type Hex, isAddressEqual } from 'viem';
import {
  type AlgorandConfig,
  type FakeAlgorand as AlgorandStandIn,
  DEFAULT_SERVICE_WALLET,
  startFakeAlgorand as startAlgorandStandIn,
  USDC_ASSET_ID,
} from '../../chains/algorand/index.js';
import {
  type DevChain,
  type DevChainOptions,
  type DevWalletClient,
  devNetworkConfig,
  type EscrowCallVariant,
  type EvmNetworkConfig,
  escrowAbi,
  splitSellTag,
  startDevChain,
} from '../../chains/evm/index.js';
import type { HashCheck, SandboxToken } from '../../sandbox/index.js';
import { fromBaseUnits } from '../service.js';
import { DEV_CHAIN_CONTRACTS, localDemoSandboxTokens } from './local-tokens.js';

export interface LocalAlgorand {
  standIn: AlgorandStandIn;
  config: AlgorandConfig;
  devAddress: string;
}

export interface LocalSellDemo {
  devChain: DevChain;
  /** The dev chain as the EVM network selling uses (local: true). */
  network: EvmNetworkConfig;
  /** The wallet the `sell:devsign` button signs with. */
  devWallet: DevWalletClient;
  /** Algorand selling on a local stand-in, with a funded dev account the button pays from. */
  algorand?: LocalAlgorand;
  /** Pass to startSandbox: the dev tokens to list and price, and the hash check on the dev chain. */
  sandboxOptions: {
    tokens: SandboxToken[];
    verifyOfframpHash: (o: HashCheck) => Promise<string | undefined | { refusal?: string; amount?: string }>;
  };
  stop(): Promise<void>;
}

/** Starts the dev chain and what the sandbox and wireSell need from it. */
export async function startLocalSellDemo(
  opts: { chain?: DevChainOptions; escrowCall?: EscrowCallVariant } = {},
): Promise<LocalSellDemo> {
  const devChain = await startDevChain(opts.chain);
  const network = devNetworkConfig(devChain, { escrowCall: opts.escrowCall });
  const listed = { escrow: devChain.escrow, ...devChain.tokens };
  if (Object.entries(DEV_CHAIN_CONTRACTS).some(([k, a]) => listed[k as keyof typeof listed] !== a)) {
    await devChain.close();
    throw new Error('the dev chain deployed to other addresses than DEV_CHAIN_CONTRACTS lists');
  }
  const standIn = await startAlgorandStandIn({ round: 1000 });
  const devAddress = algosdk.generateAccount().addr.toString();
  standIn.addAccount({
    address: devAddress,
    microAlgos: 10_000_000n,
    assets: [{ assetId: USDC_ASSET_ID, amount: 1_000_000_000_000n }],
  });
  const algorand = standInAlgorand(standIn, devAddress, 1);
  const tokens: SandboxToken[] = localDemoSandboxTokens(network.network);
  return {
    devChain,
    network,
    devWallet: devChain.walletClient(),
    algorand,
    sandboxOptions: {
      tokens,
      verifyOfframpHash: (o) =>
        o.chain === 'algorand' ? checkStandInPayment(algorand, o) : checkDevDeposit(devChain, network, o),
    },
    stop: async () => {
      await devChain.close();
      await standIn.close();
    },
  };
}

/** Algorand selling on a stand-in: its URLs, the default service wallet and USDC. */
export function standInAlgorand(
  standIn: AlgorandStandIn,
  devAddress: string,
  confirmations: number,
): LocalAlgorand {
  return {
    standIn,
    devAddress,
    config: {
      algodUrl: standIn.algodUrl,
      algodToken: '',
      indexerUrl: standIn.indexerUrl,
      indexerToken: '',
      serviceWallet: DEFAULT_SERVICE_WALLET,
      usdcAssetId: USDC_ASSET_ID,
      minFeeBalanceMicroAlgo: 1000n,
      confirmations,
    },
  };
}

/**
 * What the sandbox asks of a filed Algorand transaction id on the stand-in: a USDC transfer to the
 * service wallet from the named sender. Returns the amount transferred (fee included), which the
 * sandbox prices like a quote of that many tokens.
 */
export async function checkStandInPayment(
  algorand: LocalAlgorand,
  o: HashCheck,
): Promise<string | { amount: string }> {
  const found = await algorand.standIn
    .indexer()
    .lookupTransactionByID(o.hash)
    .do()
    .catch(() => undefined);
  const transfer = found?.transaction.assetTransferTransaction;
  if (!found || !transfer) return 'no USDC transfer with that id on the Algorand stand-in';
  if (transfer.receiver !== algorand.config.serviceWallet)
    return 'the transfer did not go to the service wallet';
  if (transfer.assetId !== algorand.config.usdcAssetId) return 'a transfer of another asset';
  if (o.userAddress && found.transaction.sender !== o.userAddress)
    return 'the wallet did not send this transfer';
  return { amount: fromBaseUnits(BigInt(transfer.amount), 6) };
}

/** Pays an Algorand sale from the stand-in's dev account (the dev-wallet button); returns the txid. */
export function payFromStandIn(
  algorand: LocalAlgorand,
  p: { receiver: string; totalUnits: string; note: string },
): string {
  const round = algorand.standIn.round() + 1n;
  algorand.standIn.setRound(round);
  return algorand.standIn.addAssetTransfer({
    sender: algorand.devAddress,
    receiver: p.receiver,
    assetId: algorand.config.usdcAssetId,
    amount: BigInt(p.totalUnits),
    note: p.note,
    round,
  });
}

/**
 * What the sandbox asks of a filed hash on the dev chain: a successful deposit into the escrow of
 * the named token from the named wallet. Returns the amount sent, fee included (the escrow call's
 * `_amount`): the sandbox prices it as a quote of that many tokens, so a deposit of what the ramp
 * quoted pays what it quoted.
 */
export async function checkDevDeposit(
  devChain: Pick<DevChain, 'publicClient'>,
  network: EvmNetworkConfig,
  o: HashCheck,
): Promise<string | { amount: string }> {
  if (o.chain !== network.network) return `this sandbox checks ${network.network} transfers only`;
  const client = devChain.publicClient;
  const hash = o.hash as Hex;
  const [tx, receipt] = await Promise.all([
    client.getTransaction({ hash }).catch(() => undefined),
    client.getTransactionReceipt({ hash }).catch(() => undefined),
  ]);
  if (!tx || !receipt) return 'transaction not found on the dev chain';
  if (receipt.status !== 'success') return 'the transaction reverted';
  if (!tx.to || !isAddressEqual(tx.to, network.escrow))
    return 'the transaction is not a deposit into the escrow';
  if (o.userAddress && !isAddressEqual(getAddress(o.userAddress), tx.from))
    return 'the wallet did not send this transaction';
  let args: readonly unknown[];
  try {
    args = decodeFunctionData({ abi: escrowAbi, data: splitSellTag(tx.input).callData }).args ?? [];
  } catch {
    return 'not an escrow deposit';
  }
  const [token, total] = args as [Address, bigint];
  if (!isAddressEqual(token, o.tokenAddress as Address)) return 'a deposit of another token';
  const decimals = network.tokens.find((t) => isAddressEqual(t.address, token))?.decimals ?? 6;
  return { amount: fromBaseUnits(total, decimals) };
}
