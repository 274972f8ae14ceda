/**
 * Algorand settings: the env schema piece (UPPER_CASE keys, mergeable into the core schema), the
 * typed config it becomes, and the algod/indexer clients built from it.
 */
import algosdk from 'algosdk';
import * as z from 'zod';
import { parseEnv } from '../../domain/env.js';

/** The ramp service's Algorand receive wallet (reference §6). */
export const DEFAULT_SERVICE_WALLET = 'XEI2YQ47YAEDJEOYE3KQTYJNRCA2G2TO7U4STRYMOOXAZMIHRQ7HEEPGOE';
/** USDC on Algorand mainnet, 6 decimals. */
export const USDC_ASSET_ID = 31566704n;
/** Free public mainnet endpoints (Nodely); no token needed. */
export const DEFAULT_ALGOD_URL = 'https://mainnet-api.algonode.cloud';
export const DEFAULT_INDEXER_URL = 'https://mainnet-idx.algonode.cloud';

/** An unset or empty variable takes the default. */
const unsetIfEmpty = (v: unknown) => (v === '' ? undefined : v);
const withDefault = <T extends z.ZodType>(schema: T) => z.preprocess(unsetIfEmpty, schema);

const uint = (what: string) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `${what}: a whole number`)
    .transform((v) => BigInt(v));

/** Env schema piece; merge with `envSchema.extend(algorandEnvSchema.shape)` or parse alone. */
export const algorandEnvSchema = z.object({
  ALGOD_URL: withDefault(z.url({ protocol: /^https?$/ }).default(DEFAULT_ALGOD_URL)),
  ALGOD_TOKEN: z.string().default(''),
  INDEXER_URL: withDefault(z.url({ protocol: /^https?$/ }).default(DEFAULT_INDEXER_URL)),
  INDEXER_TOKEN: z.string().default(''),
  ALGORAND_SERVICE_WALLET: withDefault(
    z
      .string()
      .trim()
      .refine(
        (a) => algosdk.isValidAddress(a),
        'not a valid Algorand address (58 characters, base32, with a correct checksum)',
      )
      .default(DEFAULT_SERVICE_WALLET),
  ),
  ALGORAND_USDC_ASSET_ID: withDefault(uint('asset id').default(USDC_ASSET_ID)),
  ALGORAND_MIN_FEE_BALANCE_MICROALGO: withDefault(uint('microAlgos').default(1000n)),
  ALGORAND_CONFIRMATIONS: withDefault(z.coerce.number().int().min(1).max(1000).default(3)),
});

export type AlgorandEnv = z.infer<typeof algorandEnvSchema>;

export interface AlgorandConfig {
  algodUrl: string;
  algodToken: string;
  indexerUrl: string;
  indexerToken: string;
  /** Where sellers send USDC. */
  serviceWallet: string;
  usdcAssetId: bigint;
  /** Spendable microAlgos a seller needs above their minimum balance to pay the fee. */
  minFeeBalanceMicroAlgo: bigint;
  /**
   * Rounds a transfer must be buried under, counting its own (1 = included). Algorand blocks are
   * final at once, so this is only a margin for indexer lag; ~2.8 s per round.
   */
  confirmations: number;
}

/** Turns the parsed env piece into the typed config. */
export function toAlgorandConfig(env: AlgorandEnv): AlgorandConfig {
  return {
    algodUrl: env.ALGOD_URL,
    algodToken: env.ALGOD_TOKEN,
    indexerUrl: env.INDEXER_URL,
    indexerToken: env.INDEXER_TOKEN,
    serviceWallet: env.ALGORAND_SERVICE_WALLET,
    usdcAssetId: env.ALGORAND_USDC_ASSET_ID,
    minFeeBalanceMicroAlgo: env.ALGORAND_MIN_FEE_BALANCE_MICROALGO,
    confirmations: env.ALGORAND_CONFIRMATIONS,
  };
}

/** Reads the Algorand settings; throws ConfigError naming each bad variable. */
export function loadAlgorandConfig(env: NodeJS.ProcessEnv = process.env): AlgorandConfig {
  return toAlgorandConfig(parseEnv(algorandEnvSchema, env));
}

export interface AlgorandClients {
  algod: algosdk.Algodv2;
  indexer: algosdk.Indexer;
}

/**
 * The port goes in explicitly: algosdk overrides the URL's own port with its `port` argument
 * (the Indexer defaults it to 8080, and '' resets it to 80/443).
 */
const portOf = (url: string) => new URL(url).port;

/** algod and indexer clients for a config (or any URLs/tokens). */
export function createAlgorandClients(
  config: Pick<AlgorandConfig, 'algodUrl' | 'algodToken' | 'indexerUrl' | 'indexerToken'>,
): AlgorandClients {
  return {
    algod: new algosdk.Algodv2(config.algodToken, config.algodUrl, portOf(config.algodUrl)),
    indexer: new algosdk.Indexer(config.indexerToken, config.indexerUrl, portOf(config.indexerUrl)),
  };
}
