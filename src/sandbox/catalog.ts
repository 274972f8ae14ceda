/**
 * What the sandbox lists and prices: the tokens of reference §6 (current), the spec's legacy list,
 * and a USD price per token (a sandbox choice for native coins; stablecoins are 1 USD and cKES is
 * pegged to the shilling).
 */
import { NETWORKS, type Network } from '../domain/types.js';

export interface SandboxToken {
  network: Network;
  symbol: string;
  name: string;
  decimals: number;
  /** Contract address (zero address = native) or, on Algorand, the ASA id. */
  address: string;
  /** Price in USD; ignored when `kesPegged`. */
  usd: number;
  /** Priced at 1 KES (cKES). */
  kesPegged?: boolean;
}

const ZERO = '0x0000000000000000000000000000000000000000';
const usd = (network: Network, symbol: string, name: string, decimals: number, address: string) => ({
  network,
  symbol,
  name,
  decimals,
  address,
  usd: 1,
});

/** The current listed assets: reference §6, plus Algorand USDC (called supported, absent from the body). */
export const CURRENT_TOKENS: SandboxToken[] = [
  usd('lisk', 'USDT', 'Tether LISK', 6, '0x05D032ac25d322df992303dCa074EE7392C117b9'),
  { network: 'lisk', symbol: 'ETH', name: 'Ethereum', decimals: 18, address: ZERO, usd: 3000 },
  usd('celo', 'USDT', 'Tether USD', 6, '0x48065fbBE25f71C9282ddf5e1cD6D6A887483D5e'),
  {
    network: 'celo',
    symbol: 'cKES',
    name: 'Celo Kenyan Shilling',
    decimals: 18,
    address: '0x456a3D042C0DbD3db53D5489e98dFb038553B0d0',
    usd: 0,
    kesPegged: true,
  },
  usd('celo', 'USDC', 'USD Coin', 6, '0xcebA9300f2b948710d2653dD7B07f33A8B32118C'),
  {
    network: 'celo',
    symbol: 'CELO',
    name: 'Celo',
    decimals: 18,
    address: '0x471EcE3750Da237f93B8E339c536989b8978a438',
    usd: 0.5,
  },
  usd('base', 'USDC', 'USD Coin', 6, '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'),
  { network: 'base', symbol: 'ETH', name: 'Ethereum', decimals: 18, address: ZERO, usd: 3000 },
  usd('polygon', 'USDT', 'Tether USD', 6, '0xc2132D05D31c914a87C6611C10748AEb04B58e8F'),
  usd('polygon', 'USDC', 'USD Coin (PoS)', 6, '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174'),
  { network: 'polygon', symbol: 'MATIC', name: 'Polygon', decimals: 18, address: ZERO, usd: 0.4 },
  usd('scroll', 'USDT', 'Tether USD', 6, '0xf55BEC9cafDbE8730f096Aa55dad6D22d44099Df'),
  { network: 'scroll', symbol: 'ETH', name: 'Ethereum', decimals: 18, address: ZERO, usd: 3000 },
  usd('algorand', 'USDC', 'USD Coin', 6, '31566704'),
];

/** The spec's legacy list (April–June 2025), keyed as that generation wrote the networks. */
export const LEGACY_TOKENS: (SandboxToken & { key: string })[] = [
  {
    key: 'Polygon',
    ...usd('polygon', 'USDT', 'Tether USD', 6, '0xc2132D05D31c914a87C6611C10748AEb04B58e8F'),
  },
  {
    key: 'celo',
    network: 'celo',
    symbol: 'cKES',
    name: 'Celo Kenyan Shilling',
    decimals: 18,
    address: '0x3a0d9d7764FAE860A659eb96A500F1323b411e68',
    usd: 0,
    kesPegged: true,
  },
  { key: 'celo', ...usd('celo', 'cUSD', 'Celo Dollar', 18, '0x765DE816845861e75A25fCA122bb6898B8B1282a') },
  { key: 'Base', ...usd('base', 'USDbC', 'USD Base Coin', 6, '0xd9aAEc86B65D86f6A7B5B1b0c42FFA531710b6CA') },
  { key: 'Lisk', network: 'lisk', symbol: 'LSK', name: 'Lisk', decimals: 8, address: ZERO, usd: 1 },
];

export const CURRENT_NETWORKS: readonly Network[] = NETWORKS;
export const LEGACY_NETWORKS: readonly Network[] = ['lisk', 'celo', 'base', 'polygon'];
/** As the service words it in "Supported networks: …". */
export const LEGACY_NETWORKS_TEXT = 'Lisk, celo, Base, Polygon';
export const CURRENT_NETWORKS_TEXT = 'Polygon, Lisk, Celo, Base, Scroll, Algorand';

/** KES per one token unit. */
export function kesRate(token: SandboxToken, kesPerUsd: number): number {
  return token.kesPegged ? 1 : Math.round(token.usd * kesPerUsd * 1e6) / 1e6;
}
