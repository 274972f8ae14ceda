/**
 * Local mode (no RAMP_BASE_URL, no EVM_* escrow): a whole sell without internet. An in-process dev
 * chain with the test escrow and tokens stands in for Polygon, the sandbox checks reported hashes on
 * it, and a "dev wallet" button lets the server sign with the chain's funded test wallet.
 */
import { type Address, decodeFunctionData, getAddress, type Hex, isAddressEqual } from 'viem';
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
} from '../chains/evm/index.js';
import type { HashCheck, SandboxToken } from '../sandbox/index.js';
import { fromBaseUnits } from './service.js';

export interface LocalSellDemo {
  devChain: DevChain;
  /** The dev chain as the EVM network selling uses (local: true). */
  network: EvmNetworkConfig;
  /** The wallet the `sell:devsign` button signs with. */
  devWallet: DevWalletClient;
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
  const tokens: SandboxToken[] = network.tokens.map((t) => ({
    network: network.network,
    symbol: t.symbol,
    name: `${t.symbol} (dev chain)`,
    decimals: t.decimals,
    address: t.address,
    usd: 1,
  }));
  return {
    devChain,
    network,
    devWallet: devChain.walletClient(),
    sandboxOptions: { tokens, verifyOfframpHash: (o) => checkDevDeposit(devChain, network, o) },
    stop: () => devChain.close(),
  };
}

/**
 * What the sandbox asks of a filed hash on the dev chain: a successful deposit into the escrow of
 * the named token from the named wallet. Returns the amount sent (excluding the fee).
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
  const fee = (args.length === 3 ? args[2] : args[3]) as bigint;
  if (!isAddressEqual(token, o.tokenAddress as Address)) return 'a deposit of another token';
  const decimals = network.tokens.find((t) => isAddressEqual(t.address, token))?.decimals ?? 6;
  return { amount: fromBaseUnits(total - fee, decimals) };
}
