import { createPublicClient, defineChain, http, type PublicClient } from 'viem';
import type { EvmNetworkConfig } from './config.js';

/**
 * A read-only viem client for a configured network, as verifyEscrowTransaction takes it. The chain is
 * defined from the config alone (id and RPC URL) so a testnet or the dev chain needs nothing else.
 */
export function createEvmPublicClient(
  config: Pick<EvmNetworkConfig, 'network' | 'chainId' | 'rpcUrl'>,
  opts: { timeoutMs?: number; pollingIntervalMs?: number } = {},
): PublicClient {
  const chain = defineChain({
    id: config.chainId,
    name: config.network,
    nativeCurrency: { name: 'Native', symbol: 'NATIVE', decimals: 18 },
    rpcUrls: { default: { http: [config.rpcUrl] } },
  });
  return createPublicClient({
    chain,
    transport: http(config.rpcUrl, { timeout: opts.timeoutMs ?? 10_000 }),
    ...(opts.pollingIntervalMs !== undefined ? { pollingInterval: opts.pollingIntervalMs } : {}),
  }) as PublicClient;
}
