import { createPublicClient, defineChain, fallback, http, type PublicClient } from 'viem';
import type { EvmNetworkConfig } from './config.js';

type ClientConfig = Pick<EvmNetworkConfig, 'network' | 'chainId' | 'rpcUrl' | 'fallbackRpcUrls'>;
type ClientOptions = { timeoutMs?: number; pollingIntervalMs?: number };

/** Every configured endpoint of a network, the main one first. */
export const rpcUrlsOf = (config: Pick<EvmNetworkConfig, 'rpcUrl' | 'fallbackRpcUrls'>): string[] => [
  config.rpcUrl,
  ...(config.fallbackRpcUrls ?? []),
];

function clientFor(config: ClientConfig, urls: string[], opts: ClientOptions): PublicClient {
  const chain = defineChain({
    id: config.chainId,
    name: config.network,
    nativeCurrency: { name: 'Native', symbol: 'NATIVE', decimals: 18 },
    rpcUrls: { default: { http: urls } },
  });
  const timeout = opts.timeoutMs ?? 10_000;
  const transports = urls.map((url) => http(url, { timeout }));
  return createPublicClient({
    chain,
    transport: transports.length === 1 ? transports[0]! : fallback(transports),
    ...(opts.pollingIntervalMs !== undefined ? { pollingInterval: opts.pollingIntervalMs } : {}),
  }) as PublicClient;
}

/**
 * A read-only viem client for a configured network, as verifyEscrowTransaction takes it. The chain is
 * defined from the config alone (id and RPC URLs) so a testnet or the dev chain needs nothing else.
 * With several endpoints, a call that fails on one is sent to the next (viem's `fallback`).
 */
export function createEvmPublicClient(config: ClientConfig, opts: ClientOptions = {}): PublicClient {
  return clientFor(config, rpcUrlsOf(config), opts);
}

/**
 * One client per configured endpoint (no fallback between them), for verifyEscrowTransactionQuorum:
 * each endpoint answers for itself, so a lying or stale one cannot verify a payment alone.
 */
export function createEvmVerifierClients(config: ClientConfig, opts: ClientOptions = {}): PublicClient[] {
  return rpcUrlsOf(config).map((url) => clientFor(config, [url], opts));
}
