import type { EvmNetwork, Network } from './types.js';

/** Public facts about each network: chain id and explorer (reference §6). */
export interface NetworkInfo {
  key: Network;
  displayName: string;
  chainId?: number;
  explorer: string;
}

export const NETWORK_INFO: Record<Network, NetworkInfo> = {
  polygon: { key: 'polygon', displayName: 'Polygon', chainId: 137, explorer: 'https://polygonscan.com' },
  celo: { key: 'celo', displayName: 'Celo', chainId: 42220, explorer: 'https://celoscan.io' },
  lisk: { key: 'lisk', displayName: 'Lisk', chainId: 1135, explorer: 'https://blockscout.lisk.com' },
  base: { key: 'base', displayName: 'Base', chainId: 8453, explorer: 'https://basescan.org' },
  scroll: { key: 'scroll', displayName: 'Scroll', chainId: 534352, explorer: 'https://scrollscan.com' },
  algorand: { key: 'algorand', displayName: 'Algorand', explorer: 'https://allo.info' },
};

export const isEvmNetwork = (n: Network): n is EvmNetwork => n !== 'algorand';

/** Explorer link for a transaction hash on a network. */
export function explorerTxUrl(network: Network, hash: string): string {
  return `${NETWORK_INFO[network].explorer}/tx/${hash}`;
}

/** Case-insensitive lookup of a network key ("Polygon", "celo" …). */
export function parseNetwork(value: string): Network | undefined {
  const v = value.trim().toLowerCase();
  return (Object.keys(NETWORK_INFO) as Network[]).find((n) => n === v);
}
