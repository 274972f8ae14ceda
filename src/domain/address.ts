/**
 * Wallet address checks: EIP-55 on EVM networks, the checksum of Algorand addresses. Pure, and light
 * on purpose (a keccak and node:crypto, not viem or algosdk): every chat input may pass through here,
 * and the process should not load a chain library to read one.
 */
import { createHash } from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3';
import type { Network } from './types.js';

/** EIP-55: a hex letter is upper case when the matching nibble of keccak256(lowercase hex) is >= 8. */
function toChecksumAddress(address: string): string {
  const hex = address.slice(2).toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(hex));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const byte = hash[i >> 1] as number;
    const nibble = i % 2 === 0 ? byte >> 4 : byte & 0x0f;
    out += nibble >= 8 ? (hex[i] as string).toUpperCase() : (hex[i] as string);
  }
  return out;
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** An Algorand address: 58 base32 characters of a 32-byte key and the last 4 bytes of its SHA-512/256. */
function isAlgorandAddress(address: string): boolean {
  if (!/^[A-Z2-7]{58}$/.test(address)) return false;
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const c of address) {
    value = (value << 5) | BASE32.indexOf(c);
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  // 58 x 5 = 290 bits: 36 bytes and 2 bits that must be zero.
  if (bytes.length !== 36 || (value & ((1 << bits) - 1)) !== 0) return false;
  const key = Buffer.from(bytes.slice(0, 32));
  const checksum = createHash('sha512-256').update(key).digest().subarray(28);
  return checksum.equals(Buffer.from(bytes.slice(32)));
}

/**
 * Returns the canonical form of a wallet address for a network (EIP-55 checksummed on EVM), or
 * undefined when it is not valid there. An all-lowercase EVM address is accepted and checksummed;
 * a mixed-case one must carry a correct checksum.
 */
export function normalizeWalletAddress(network: Network, address: string): string | undefined {
  const a = address.trim();
  if (network === 'algorand') return isAlgorandAddress(a) ? a : undefined;
  if (!/^0x[0-9a-fA-F]{40}$/.test(a)) return undefined;
  if (/^0x0{40}$/.test(a)) return undefined;
  const body = a.slice(2);
  const isMixed = body !== body.toLowerCase() && body !== body.toUpperCase();
  const checksummed = toChecksumAddress(a);
  if (isMixed && checksummed !== a) return undefined;
  return checksummed;
}
