/**
 * Per-network EVM settings from the environment. A network is enabled for selling only when its
 * escrow address is set (EVM_<NETWORK>_ESCROW): the operator must confirm the address and ABI per
 * chain (reference §7), so there is no default. Everything else has a default.
 *
 * Variables, with <NETWORK> one of POLYGON, CELO, LISK, BASE, SCROLL:
 * - EVM_<NETWORK>_ESCROW         escrow contract address (enables the network)
 * - EVM_<NETWORK>_RPC_URL        JSON-RPC endpoint, or several separated by commas (reads fall back
 *                                along the list; a deposit is verified only when two agree);
 *                                default viem's public endpoint for the chain
 * - EVM_<NETWORK>_CHAIN_ID       default the mainnet id (reference §6); another id needs an RPC_URL
 * - EVM_<NETWORK>_CONFIRMATIONS  blocks before a deposit counts; see DEFAULT_CONFIRMATIONS
 * - EVM_<NETWORK>_ESCROW_CALL    current | legacy | permit: the withdraw variant the page sends (default current)
 * - EVM_<NETWORK>_TOKENS         SYMBOL:address:decimals,... replacing the default token list
 */
import { type Address, getAddress, isAddress, zeroAddress } from 'viem';
import { base, type Chain, celo, lisk, polygon, scroll } from 'viem/chains';
import * as z from 'zod';
import { parseEnv } from '../../domain/env.js';
import { NETWORK_INFO } from '../../domain/networks.js';
import { EVM_NETWORKS, type EvmNetwork } from '../../domain/types.js';
import type { EscrowCallVariant } from './calls.js';
import type { DevChain } from './devchain.js';

export interface EvmTokenConfig {
  symbol: string;
  /** Contract address; the zero address is the chain's native coin. */
  address: Address;
  decimals: number;
}

export interface EvmNetworkConfig {
  network: EvmNetwork;
  chainId: number;
  rpcUrl: string;
  /** Further endpoints of the same chain: reads fall back to them; verification asks two. */
  fallbackRpcUrls?: string[];
  escrow: Address;
  /** Blocks (the transaction's own included) before a deposit is accepted. */
  confirmations: number;
  /** Which escrow function the signing page calls. */
  escrowCall: EscrowCallVariant;
  /** Authoritative token addresses for calldata and verification on this chain. */
  tokens: EvmTokenConfig[];
  /** True for the in-process dev chain (local mode). */
  local: boolean;
}

/**
 * Default confirmation depth, balancing the seller's wait against reorg risk:
 * - polygon 32 (~65 s at 2 s blocks): a PoS sidechain with a history of multi-block reorgs.
 * - celo 20 (~20 s at 1 s), base 10 and lisk 10 (~20 s at 2 s), scroll 10 (~30 s at 3 s): L2 rollups
 *   whose sequencer reorgs its unsafe head only on failure; the depth covers that without a long wait.
 */
export const DEFAULT_CONFIRMATIONS: Record<EvmNetwork, number> = {
  polygon: 32,
  celo: 20,
  lisk: 10,
  base: 10,
  scroll: 10,
};

/** Local dev chain: automined, one block is final. */
export const DEV_CONFIRMATIONS = 1;

const VIEM_CHAIN: Record<EvmNetwork, Chain> = { polygon, celo, lisk, base, scroll };

const NATIVE = zeroAddress;

/** Tokens listed by the ramp per network (reference §6, current assets list). */
export const DEFAULT_TOKENS: Record<EvmNetwork, EvmTokenConfig[]> = {
  lisk: [
    { symbol: 'USDT', address: '0x05D032ac25d322df992303dCa074EE7392C117b9', decimals: 6 },
    { symbol: 'ETH', address: NATIVE, decimals: 18 },
  ],
  celo: [
    { symbol: 'USDT', address: '0x48065fbBE25f71C9282ddf5e1cD6D6A887483D5e', decimals: 6 },
    { symbol: 'cKES', address: '0x456a3D042C0DbD3db53D5489e98dFb038553B0d0', decimals: 18 },
    { symbol: 'USDC', address: '0xcebA9300f2b948710d2653dD7B07f33A8B32118C', decimals: 6 },
    { symbol: 'CELO', address: '0x471EcE3750Da237f93B8E339c536989b8978a438', decimals: 18 },
  ],
  base: [
    { symbol: 'USDC', address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', decimals: 6 },
    { symbol: 'ETH', address: NATIVE, decimals: 18 },
  ],
  polygon: [
    { symbol: 'USDT', address: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', decimals: 6 },
    { symbol: 'USDC', address: '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174', decimals: 6 },
    { symbol: 'MATIC', address: NATIVE, decimals: 18 },
  ],
  scroll: [
    { symbol: 'USDT', address: '0xf55BEC9cafDbE8730f096Aa55dad6D22d44099Df', decimals: 6 },
    { symbol: 'ETH', address: NATIVE, decimals: 18 },
  ],
};

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** An EVM address; mixed case must carry a valid EIP-55 checksum. Returned checksummed. */
const address = z
  .string()
  .trim()
  .transform((a, ctx) => {
    if (!/^0x[0-9a-fA-F]{40}$/.test(a)) {
      ctx.addIssue({ code: 'custom', message: 'an address: 0x and 40 hex digits' });
      return z.NEVER;
    }
    if (!isAddress(a, { strict: true })) {
      ctx.addIssue({ code: 'custom', message: 'a valid EIP-55 checksum (or all lowercase)' });
      return z.NEVER;
    }
    return getAddress(a);
  });

const contractAddress = address.refine((a) => a !== zeroAddress, 'a contract address, not the zero address');

const rpcUrlList = z
  .string()
  .trim()
  .transform((value, ctx) => {
    const urls = value
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean);
    for (const url of urls) {
      if (!z.url({ protocol: /^https?$/ }).safeParse(url).success) {
        ctx.addIssue({ code: 'custom', message: `not an http(s) URL: ${url.slice(0, 80)}` });
        return z.NEVER;
      }
    }
    if (urls.length === 0) {
      ctx.addIssue({ code: 'custom', message: 'an http(s) URL, or several separated by commas' });
      return z.NEVER;
    }
    return [...new Set(urls)];
  });

const tokenList = z
  .string()
  .trim()
  .transform((value, ctx) => {
    const tokens: EvmTokenConfig[] = [];
    for (const entry of value
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean)) {
      const [symbol = '', addr = '', decimals = '', ...rest] = entry.split(':').map((p) => p.trim());
      const parsedAddress = address.safeParse(addr);
      const parsedDecimals = Number(decimals);
      if (
        rest.length > 0 ||
        !/^[A-Za-z0-9.]{1,16}$/.test(symbol) ||
        !parsedAddress.success ||
        !/^\d+$/.test(decimals) ||
        parsedDecimals > 36
      ) {
        ctx.addIssue({
          code: 'custom',
          message: `bad entry "${entry}": expected SYMBOL:0xADDRESS:DECIMALS (symbol 1-16 letters/digits, decimals 0-36)`,
        });
        return z.NEVER;
      }
      if (tokens.some((t) => t.symbol.toUpperCase() === symbol.toUpperCase())) {
        ctx.addIssue({ code: 'custom', message: `symbol ${symbol} listed twice` });
        return z.NEVER;
      }
      tokens.push({ symbol, address: parsedAddress.data, decimals: parsedDecimals });
    }
    if (tokens.length === 0) {
      ctx.addIssue({ code: 'custom', message: 'at least one SYMBOL:0xADDRESS:DECIMALS entry' });
      return z.NEVER;
    }
    return tokens;
  });

const variant = z.enum(['current', 'legacy', 'permit']);

const envKey = (network: EvmNetwork, name: string) => `EVM_${network.toUpperCase()}_${name}`;

function networkShape(network: EvmNetwork) {
  const opt = <T extends z.ZodType>(schema: T) => z.preprocess(emptyToUndefined, schema.optional());
  return {
    [envKey(network, 'ESCROW')]: opt(contractAddress),
    [envKey(network, 'RPC_URL')]: opt(rpcUrlList),
    [envKey(network, 'CHAIN_ID')]: opt(z.coerce.number().int().positive()),
    [envKey(network, 'CONFIRMATIONS')]: opt(z.coerce.number().int().min(1).max(10_000)),
    [envKey(network, 'ESCROW_CALL')]: opt(variant),
    [envKey(network, 'TOKENS')]: opt(tokenList),
  };
}

/**
 * The zod schema of every EVM_* variable (for merging into a wider schema or documenting). A chain id
 * other than the network's mainnet needs its own RPC URL.
 */
export const evmEnvSchema = z
  .object(Object.assign({}, ...EVM_NETWORKS.map(networkShape)) as ReturnType<typeof networkShape>)
  .superRefine((env, ctx) => {
    for (const network of EVM_NETWORKS) {
      const chainId = env[envKey(network, 'CHAIN_ID')];
      if (
        chainId !== undefined &&
        chainId !== NETWORK_INFO[network].chainId &&
        !env[envKey(network, 'RPC_URL')]
      ) {
        ctx.addIssue({
          code: 'custom',
          path: [envKey(network, 'RPC_URL')],
          message: `required when ${envKey(network, 'CHAIN_ID')} is not the ${network} mainnet id`,
        });
      }
    }
  });

/**
 * The networks enabled for selling (those with an escrow), in EVM_NETWORKS order. Throws ConfigError
 * naming each bad variable, also for networks that are not enabled.
 */
export function loadEvmNetworks(env: NodeJS.ProcessEnv = process.env): EvmNetworkConfig[] {
  const parsed = parseEnv(evmEnvSchema, env) as Record<string, unknown>;
  const get = <T>(network: EvmNetwork, name: string) => parsed[envKey(network, name)] as T | undefined;
  return EVM_NETWORKS.flatMap((network): EvmNetworkConfig[] => {
    const escrow = get<Address>(network, 'ESCROW');
    if (!escrow) return [];
    const rpcUrls = get<string[]>(network, 'RPC_URL') ?? [VIEM_CHAIN[network].rpcUrls.default.http[0]!];
    return [
      {
        network,
        chainId: get<number>(network, 'CHAIN_ID') ?? VIEM_CHAIN[network].id,
        rpcUrl: rpcUrls[0]!,
        ...(rpcUrls.length > 1 ? { fallbackRpcUrls: rpcUrls.slice(1) } : {}),
        escrow,
        confirmations: get<number>(network, 'CONFIRMATIONS') ?? DEFAULT_CONFIRMATIONS[network],
        escrowCall: get<EscrowCallVariant>(network, 'ESCROW_CALL') ?? 'current',
        tokens: get<EvmTokenConfig[]>(network, 'TOKENS') ?? DEFAULT_TOKENS[network],
        local: false,
      },
    ];
  });
}

/**
 * Local mode: the dev chain stands in for `network` (default polygon) with its own chain id, escrow
 * and tokens: USDT is the plain test token, USDC the permit one. Token addresses differ from the
 * ramp's listed ones, so the sell flow must take addresses from this config, matched by symbol.
 */
export function devNetworkConfig(
  devChain: Pick<DevChain, 'chainId' | 'rpcUrl' | 'escrow' | 'tokens'>,
  opts: { network?: EvmNetwork; escrowCall?: EscrowCallVariant } = {},
): EvmNetworkConfig {
  return {
    network: opts.network ?? 'polygon',
    chainId: devChain.chainId,
    rpcUrl: devChain.rpcUrl,
    escrow: devChain.escrow,
    confirmations: DEV_CONFIRMATIONS,
    escrowCall: opts.escrowCall ?? 'current',
    tokens: [
      { symbol: 'USDT', address: devChain.tokens.usdt, decimals: 6 },
      { symbol: 'USDC', address: devChain.tokens.permitToken, decimals: 6 },
    ],
    local: true,
  };
}

/** The configured token with this symbol (case-insensitive) on a network, if any. */
export function findEvmToken(config: EvmNetworkConfig, symbol: string): EvmTokenConfig | undefined {
  return config.tokens.find((t) => t.symbol.toUpperCase() === symbol.trim().toUpperCase());
}
