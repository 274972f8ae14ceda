/** Wallet address checks: EIP-55 on EVM networks, the checksum of Algorand addresses. Pure. */
import algosdk from 'algosdk';
import { getAddress, isAddress } from 'viem';
import type { Network } from './types.js';

/**
 * Returns the canonical form of a wallet address for a network (EIP-55 checksummed on EVM), or
 * undefined when it is not valid there. An all-lowercase EVM address is accepted and checksummed;
 * a mixed-case one must carry a correct checksum.
 */
export function normalizeWalletAddress(network: Network, address: string): string | undefined {
  const a = address.trim();
  if (network === 'algorand') return algosdk.isValidAddress(a) ? a : undefined;
  if (!/^0x[0-9a-fA-F]{40}$/.test(a)) return undefined;
  const isMixed = a.slice(2) !== a.slice(2).toLowerCase() && a.slice(2) !== a.slice(2).toUpperCase();
  if (isMixed && !isAddress(a, { strict: true })) return undefined;
  if (/^0x0{40}$/.test(a)) return undefined;
  return getAddress(a);
}
